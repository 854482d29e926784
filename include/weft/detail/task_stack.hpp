// The task stack: one worker's array of task slots, pushed and popped by its owner at the
// top (newest) and stolen by thieves at the bottom (oldest), k slots at a time.
//
// This is Cilk-5's THE protocol generalised from one task to k, with the owner's store-load
// fence moved to the thief (an asymmetric barrier). The full essay, with the proof sketch and
// the designs we rejected, is docs/ARCHITECTURE.md, "Task stack and steal protocol".
//
// State. Two indices into `slots_`:
//   tail_ (T)  one past the newest task. Written only by the owner.
//   head_ (H)  the oldest task a thief may still take. Written only under `port_` (thieves
//              when they claim; the owner when it settles a conflict or resets after a
//              stolen task returned).
//   Tasks [H, T) are available. Slots below H were claimed by thieves and stay occupied until
//   their owner has joined them.
//
// Invariants.
//   I1  H <= T + 1, and H never exceeds the T a claiming thief read after its barrier.
//   I2  Every pushed task is taken exactly once: by the owner's pop (inline) or by exactly
//       one thief's claim, never both.
//   I3  A claim [h, h+k) happens entirely under port_, with h+k <= T as re-read after the
//       thief's barrier; otherwise the thief restores H = h before releasing the port.
//   I4  The owner pops only the top slot (LIFO). When it finds its top slot claimed, it
//       leaves T = H = t+1 so that slot t stays occupied until its result is collected,
//       and only then lowers both to t, under port_.
//
// Why I2 holds (the Dekker pair). The owner pops slot t by storing T = t and then loading H;
// a thief claims by storing H = h+k and then loading T. Each side has a store followed by a
// load of the other's variable, so at least one of them must see the other's store:
//   - the owner's side uses only a compiler barrier;
//   - the thief's side calls membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED), which makes every
//     running thread of the process pass through a full memory barrier. Either the owner's
//     store to T precedes that barrier in its program order (so the thief sees T = t and
//     backs off), or its load of H follows it (so the owner sees H > t and settles under
//     port_, where it waits until the thief has decided).
// Where membarrier is unavailable (old kernels, valgrind, ThreadSanitizer builds) both sides
// use a seq_cst fence instead; `pop_needs_fence()` selects it once per process.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "weft/detail/slot.hpp"

namespace weft {
class StealPolicy;
}

namespace weft::detail {

inline constexpr std::size_t kCacheLine = 64;
// Adjacent-line prefetch pulls cache lines in pairs; shared fields are padded to two lines.
inline constexpr std::size_t kFalseSharingRange = 2 * kCacheLine;

using Index = std::int64_t;

// Set once per process before any worker runs: true when the owner's pop must use a real
// store-load fence because the asymmetric (membarrier) barrier is unavailable.
extern std::atomic<bool> g_pop_needs_fence;

inline void owner_store_load_barrier() noexcept {
#if defined(WEFT_ALWAYS_FENCE)
  std::atomic_thread_fence(std::memory_order_seq_cst);
#else
  // relaxed: the flag is written once, before any worker thread is started.
  if (g_pop_needs_fence.load(std::memory_order_relaxed)) [[unlikely]] {
    std::atomic_thread_fence(std::memory_order_seq_cst);  // pairs with the thief's fence
  } else {
    // Compiler-only: the thief's membarrier supplies the hardware barrier for both sides.
    std::atomic_signal_fence(std::memory_order_seq_cst);
  }
#endif
}

// The thief's half of the Dekker pair: membarrier, or a seq_cst fence in fallback mode.
void thief_store_load_barrier() noexcept;

// A test-and-test-and-set lock: the victim's steal port. Thieves only try it (a busy port
// means another thief is already there, and the paper's thief moves on); the owner spins on it
// in the rare conflict path, where the holder is a thief in the middle of a claim.
class StealPort {
 public:
  bool try_lock() noexcept {
    // acquire: what the previous holder wrote under the port is visible to us.
    return !held_.load(std::memory_order_relaxed) &&
           !held_.exchange(true, std::memory_order_acquire);
  }
  void lock() noexcept;
  void unlock() noexcept {
    held_.store(false, std::memory_order_release);  // publish what we wrote under the port
  }

 private:
  std::atomic<bool> held_{false};
};

// What a thief got from one steal: `count` consecutive slots starting at `first`.
struct Claim {
  Slot* first = nullptr;
  Index count = 0;
  explicit operator bool() const noexcept { return count > 0; }
};

// Why a steal came back empty-handed (for counters and tests).
enum class StealFailure : std::uint8_t { kNone, kEmpty, kPortBusy, kPolicyDeclined, kLostRace };


// T and H are kept as slot pointers rather than indices: the owner's path then needs no
// index arithmetic at all. "Index" in the essay above means the slot's position.
class TaskStack {
 public:
  TaskStack() = default;
  // The serial worker's stack: no slots (every spawn runs at once) and a null T, so that
  // top_if() fails for every future and a join of a pushed task there is reported as a
  // misuse; H above every address makes a direct pop() reach the same report.
  struct SerialTag {};
  explicit TaskStack(SerialTag) noexcept;
  TaskStack(const TaskStack&) = delete;
  TaskStack& operator=(const TaskStack&) = delete;
  ~TaskStack();

  // Allocates `capacity` slots. Not thread-safe; called before the stack is shared. A stack
  // never initialised has capacity 0: every reserve() fails (see the serial worker).
  void init(Index capacity);

  // ---- Owner side (inline: this is the path that must cost about a procedure call) ----

  // The slot to construct the next task in; it is usable unless full(slot).
  Slot* top() const noexcept {
    return tail_.load(std::memory_order_relaxed);  // our own variable: a plain load
  }
  bool full(const Slot* top_slot) const noexcept { return top_slot == end_; }

  // Makes the task constructed in `s` (from top) visible to thieves.
  void publish(Slot* s) noexcept {
    // release: the closure written into *s happens-before a thief's acquire load of T.
    tail_.store(s + 1, std::memory_order_release);
  }

  // The newest task's slot if the future word `word` names it (the only task its owner may
  // pop), else null. Compared as integers: a word with its low bit set (a future whose task
  // already ran, or an empty one) never equals the even address one past a slot, so this
  // one compare also sends those to the caller's slow path.
  Slot* top_if(std::uintptr_t word) const noexcept {
    Slot* t = tail_.load(std::memory_order_relaxed);
    return reinterpret_cast<std::uintptr_t>(t) == word + sizeof(Slot) ? t - 1 : nullptr;
  }

  // Pops the newest task `top` (from top_if()). Returns true if no thief is at the slot: the
  // caller then runs it inline. Otherwise the caller must settle with pop_contended().
  bool pop_top(Slot* top) noexcept {
    tail_.store(top, std::memory_order_relaxed);  // before the load below: barrier
    owner_store_load_barrier();
    return head_.load(std::memory_order_relaxed) <= top;
  }

  // pop_top() for a caller that does not check top_if() itself: an out-of-order join would
  // otherwise let a thief run an already-joined task, so a violation aborts with a message.
  bool pop(Slot* expected) noexcept {
    if (top_if(reinterpret_cast<std::uintptr_t>(expected)) == nullptr) [[unlikely]] {
      lifo_violation(expected);
    }
    return pop_top(expected);
  }

  // Reports a join of a task that is not the newest on this worker, and aborts.
  [[noreturn]] void lifo_violation(const Slot* expected) const noexcept;

  // After pop() returned false: settles with the thief under the port. Returns true if the
  // thief backed off (run the task inline), false if it took the task; the slot then stays
  // occupied until release_stolen().
  bool pop_contended(Slot* t) noexcept;

  // After a stolen task's result was collected: frees its slot (owner; takes the port).
  void release_stolen(Slot* s) noexcept;

  // ---- Thief side ----

  // Tries to claim tasks from the bottom; the amount is the policy's. Never blocks on the
  // port. On failure, `why` (if given) says why.
  Claim steal(const StealPolicy& policy, std::int32_t thief_id,
              StealFailure* why = nullptr) noexcept;

  // ---- Observers (racy snapshots; for policies, idling decisions and tests) ----
  Index available() const noexcept {
    const Index n = tail_.load(std::memory_order_acquire) - head_.load(std::memory_order_relaxed);
    return n > 0 ? n : 0;
  }
  Index size() const noexcept { return tail_.load(std::memory_order_relaxed) - slots_; }
  Index capacity() const noexcept { return end_ - slots_; }
  Slot* slot_at(Index i) noexcept { return slots_ + i; }
  Index index_of(const Slot* s) const noexcept { return s - slots_; }

 private:

  // Owner's line: written on every push and pop; thieves only read it.
  alignas(kFalseSharingRange) std::atomic<Slot*> tail_{nullptr};
  Slot* end_ = nullptr;
  Slot* slots_ = nullptr;
  // Thieves' line: written on claims, read by the owner on every pop (a hit unless a thief
  // just wrote it).
  alignas(kFalseSharingRange) std::atomic<Slot*> head_{nullptr};
  StealPort port_;
};

}  // namespace weft::detail
