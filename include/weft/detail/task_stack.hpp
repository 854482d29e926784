// The task stack: one worker's array of task slots, pushed and popped by its owner at the
// top (newest) and taken by thieves at the bottom (oldest), k slots at a time. This header
// is the owner's side: the fields (all of them, since inline code reads the thieves' words
// too) and the inline push and pop. The thief's side (claims, the steal port, requests) and
// the owner's out-of-line settling with thieves are StealSide, in src/tasks/steal_side.hpp.
// Two steal mechanisms share the stack, chosen per runtime (Config::mechanism):
//
// CONCURRENT. Cilk-5's THE protocol generalised from one task to k, with the owner's
// store-load fence moved to the thief (an asymmetric barrier). The full essay, with the proof
// sketch and the designs we rejected, is docs/TASK_STACK.md, "The concurrent mechanism"
// and "Why TS2 holds".
//
// REQUEST. Thieves never touch H or T: they post a request and the owner splits its own
// stack when it notices (src/tasks/steal_side_requests.cpp has that protocol's invariants RQ1-RQ5).
// The owner's path is the same code in both mechanisms; in request mode its barrier is
// always compiler-only, and a pending request reaches it through the two checks it makes
// anyway: the "full" check at spawn (limit_) and the "stolen?" check at join (head_).
//
// State. Two indices into `slots_`:
//   tail_ (T)  one past the newest task. Written only by the owner.
//   head_ (H)  the oldest task a thief may still take. Concurrent: written only under
//              `port_` (thieves when they claim; the owner when it settles a conflict or
//              resets after a stolen task returned); on a fenced stack H is fenced_head_,
//              under the same rules, and head_ holds never_pops(). Request: owner_head_,
//              the true H, is owner-private, and head_ holds either it or request_flag().
//   Tasks [H, T) are available. Slots below H were claimed by thieves and stay occupied until
//   their owner has joined them.
//
// Invariants (concurrent mechanism).
//   TS1 H <= T + 1, and H never exceeds the T a claiming thief read after its barrier.
//   TS2 Every pushed task is taken exactly once: by the owner's pop (inline) or by exactly
//       one thief's claim, never both.
//   TS3 A claim [h, h+k) happens entirely under port_, with h+k <= T as re-read after the
//       thief's barrier; otherwise the thief restores H = h before releasing the port.
//   TS4 The owner pops only the top slot (LIFO). When it finds its top slot claimed, it
//       leaves T = H = t+1 so that slot t stays occupied until its result is collected,
//       and only then lowers both to t, under port_.
//
// Why TS2 holds (the Dekker pair). The owner pops slot t by storing T = t and then loading H;
// a thief claims by storing H = h+k and then loading T. Each side has a store followed by a
// load of the other's variable, so at least one of them must see the other's store:
//   - the owner's side uses only a compiler barrier;
//   - the thief's side calls membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED), which makes every
//     running thread of the process pass through a full memory barrier. Either the owner's
//     store to T precedes that barrier in its program order (so the thief sees T = t and
//     backs off), or its load of H follows it (so the owner sees H > t and settles under
//     port_, where it waits until the thief has decided).
// Where membarrier is unavailable (old kernels, valgrind, ThreadSanitizer builds) or
// Config::barrier asks for it, both sides use a seq_cst fence instead: the mode is decided
// once per process (src/tasks/barrier_mode.*), and each concurrent-mechanism stack copies it
// at init() into fence_on_pop_. The inline join never tests that flag. On a fenced stack
// H lives in fenced_head_ and head_ holds never_pops(), above every slot, so the inline
// pop's check always fails and the join settles out of line (Future::join_contended,
// pop_top_fenced()), which fences and then reads the true H: the owner's program order is
// still store T, full fence, load H.
//
// Switching (Config::barrier = auto where membarrier works). A membarrier costs the thief
// microseconds, a fence costs the owner a few nanoseconds a join, so a stack that thieves
// claim from often is cheaper fenced and one claimed from rarely is cheaper with membarrier.
// Such a stack starts unfenced and changes its mode at run time (BarrierSwitching in
// src/tasks/barrier_mode.hpp says when):
//   BS1 fence_on_pop_ changes only under port_: to true by a thief (switch_to_fenced()),
//       to false by the owner (maybe_unfence()). So a claim, made entirely under the port,
//       sees one mode throughout, and reads H from the word that mode names.
//   BS2 A thief that switches the stack to fenced moves H to fenced_head_ and stores
//       never_pops() into head_ before the membarrier of its own claim. An owner pop whose
//       load of head_ follows that barrier sees never_pops() and settles out of line with a
//       fence; one whose load precedes it has its store of T before it too, so this thief
//       sees that T (the Dekker argument above, with H in either word). Every later claim is
//       made after that barrier, so a fence on the thief's side then suffices: no owner pop
//       after it goes without one.
//   BS3 The owner returns the stack to membarrier under the port, by storing the true H
//       into head_: its pops after that are inline, and every later thief takes the port
//       after it, sees the mode unfenced, and uses membarrier.
// The owner reads fence_on_pop_ outside the port only in its settling paths: a stale false
// sends it to the port, which decides correctly in either mode.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "weft/config.hpp"
#include "weft/detail/sanitizers.hpp"
#include "weft/detail/slot.hpp"

namespace weft::detail {

// The owner's three checks (spawn's limit, join's T and H) compare a register with a word that
// is std::atomic, relaxed. Neither GCC nor Clang folds an atomic load into the compare that
// uses it, so each check would be a load, a compare and a branch; on x86-64 an asm does the
// compare straight against memory. That is the same access: an aligned 8-byte load is
// single-copy atomic there, as the `mov` a relaxed load compiles to is. The asm reads exactly
// that word (an "m" operand) and is volatile, so the compiler neither drops it nor moves it
// across a store that may alias the word or across a compiler barrier (pop_top()'s order,
// store T then read H, depends on that). ThreadSanitizer builds keep the atomic load, which
// TSan can see.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !WEFT_DETAIL_TSAN
#define WEFT_DETAIL_COMPARE_IN_MEMORY 1
#else
#define WEFT_DETAIL_COMPARE_IN_MEMORY 0
#endif

// a >= word, word read relaxed.
template <class T>
inline bool at_or_above(const T* a, const std::atomic<T*>& word) noexcept {
#if WEFT_DETAIL_COMPARE_IN_MEMORY
  static_assert(sizeof(word) == 8 && alignof(std::atomic<T*>) == 8);
  bool r;
  asm volatile("cmpq %2, %1" : "=@ccae"(r) : "r"(a), "m"(word));  // flags of a - word, unsigned
  return r;
#else
  return a >= word.load(std::memory_order_relaxed);
#endif
}

// a == word, word read relaxed.
template <class T>
inline bool equals_word(const T* a, const std::atomic<T*>& word) noexcept {
#if WEFT_DETAIL_COMPARE_IN_MEMORY
  bool r;
  asm volatile("cmpq %2, %1" : "=@cce"(r) : "r"(a), "m"(word));
  return r;
#else
  return a == word.load(std::memory_order_relaxed);
#endif
}

inline constexpr std::size_t kCacheLine = 64;
// Adjacent-line prefetch pulls cache lines in pairs; shared fields are padded to two lines.
inline constexpr std::size_t kFalseSharingRange = 2 * kCacheLine;

using Index = std::int64_t;

// One thief's steal request (request mechanism); defined with the thief's side.
struct StealRequest;

// T and H are kept as slot pointers rather than indices: the owner's path then needs no
// index arithmetic at all. "Index" in the essay above means the slot's position.
class TaskStack {
 public:
  // The thief's side and the owner's out-of-line settling (src/tasks/steal_side.hpp).
  friend class StealSide;

  TaskStack() = default;
  // The serial worker's stack: no slots (every spawn runs at once) and a null T, so that
  // top_if() fails for every future and a join of a pushed task there is reported as a
  // misuse; H above every address makes a direct pop() reach the same report.
  struct SerialTag {};
  explicit TaskStack(SerialTag) noexcept;
  TaskStack(const TaskStack&) = delete;
  TaskStack& operator=(const TaskStack&) = delete;
  ~TaskStack();

  // Allocates `capacity` slots. Not thread-safe; called before the stack is shared (and
  // after the barrier mode is decided). A stack never initialised has capacity 0: every
  // spawn on it runs at once (see the serial worker). `mechanism` says how thieves take
  // tasks from it.
  // `switching`: the stack may change its barrier at run time (Config::barrier = auto); it
  // does only where the process's mode is membarrier. `counting`: every spawn diverts to its
  // out-of-line path, which counts it (Config::counts_spawns()).
  void init(Index capacity, StealMechanism mechanism = StealMechanism::kConcurrent,
            bool switching = false, bool counting = false);
  StealMechanism mechanism() const noexcept { return mechanism_; }
  bool request_mode() const noexcept { return mechanism_ == StealMechanism::kRequest; }

  // ---- Owner side (inline: this is the path that must cost about a procedure call) ----

  // The slot to construct the next task in; it is usable unless full(slot).
  Slot* top() const noexcept {
    return tail_.load(std::memory_order_relaxed);  // our own variable: a plain load
  }
  bool full(const Slot* top_slot) const noexcept { return top_slot == end_; }
  // The spawn's one check: true when the stack is full, a steal request may be pending, or
  // the stack counts spawns, all of which the spawn's slow path sorts out. limit_ is
  // open_limit_ (end_, or slots_ on a counting stack) unless a thief posted.
  bool diverts(const Slot* top_slot) const noexcept {
    // relaxed: a plain load; a request seen late is answered at the next spawn or join.
    // Pointers compare as unsigned integers (limit_ may be nullptr).
    return at_or_above(top_slot, limit_);
  }
  // The concurrent mechanism without membarrier: the owner's pop needs a full fence.
  // relaxed: the owner's own writes, or a thief's switch, which a stale read sends to the
  // port (BS1-BS3 above).
  bool fenced() const noexcept { return fence_on_pop_.load(std::memory_order_relaxed); }
  // A steal request may be pending (request mechanism; always false otherwise).
  bool request_flagged() const noexcept {
    return limit_.load(std::memory_order_relaxed) != open_limit_;  // relaxed: as in diverts()
  }
  // Every spawn diverts to the out-of-line path, which counts it (init's `counting`).
  bool counting() const noexcept { return open_limit_ != end_; }
  // Either flag is up: what a join whose check failed looks at before answering (the two
  // are raised one after the other, so either may be seen first).
  bool request_flagged_at_join() const noexcept {
    return request_flagged() || head_.load(std::memory_order_relaxed) == request_flag();
  }

  // Makes the task constructed in `s` (from top) visible to thieves.
  void publish(Slot* s) noexcept {
    // release: the closure written into *s happens-before a thief's acquire load of T.
    tail_.store(s + 1, std::memory_order_release);
  }

  // Whether T is `s`: the explicit-context forms' check that their context is current
  // (weft/context.hpp). relaxed: our own variable, compared in memory as top_if() does.
  bool top_is(const Slot* s) const noexcept { return equals_word(s, tail_); }

  // The newest task's slot if the future word `word` names it (the only task its owner may
  // pop), else null. Compared as integers: a word with its low bit set (a future whose task
  // already ran, or an empty one) never equals the even address one past a slot, so this
  // one compare also sends those to the caller's slow path.
  Slot* top_if(std::uintptr_t word) const noexcept {
    // relaxed: our own variable. The word + 1 slot is never dereferenced unless it is T.
    Slot* const above = reinterpret_cast<Slot*>(word + sizeof(Slot));
    return equals_word(above, tail_) ? above - 1 : nullptr;
  }

  // Pops the newest task `top` (from top_if()). Returns true if no thief is at the slot: the
  // caller then runs it inline. Otherwise the caller must settle with StealSide::pop_contended().
  // Request mechanism: false also when head_ carries request_flag(); see StealSide::pop_owned().
  // Fenced stack: always false (head_ is never_pops()); pop_top_fenced() decides.
  bool pop_top(Slot* top) noexcept {
    tail_.store(top, std::memory_order_relaxed);  // before the load below: barrier
    // Compiler-only. Concurrent: the thief's membarrier supplies the hardware barrier for
    // both sides. Request: no thief ever writes H or reads T to decide anything.
    std::atomic_signal_fence(std::memory_order_seq_cst);
    // relaxed: ordered by the barrier pair (concurrent); our own word or a thief's flag
    // whose request is read with acquire when served (request). The compiler barrier above
    // keeps the read after the store, in the asm form too.
    return at_or_above(top, head_);
  }

  // pop_top() for a caller that does not check top_if() itself: an out-of-order join would
  // otherwise let a thief run an already-joined task, so a violation aborts with a message.
  bool pop(Slot* expected) noexcept {
    if (top_if(reinterpret_cast<std::uintptr_t>(expected)) == nullptr) [[unlikely]] {
      lifo_violation(expected);
    }
    if (fenced()) [[unlikely]] {
      return pop_top_fenced(expected);
    }
    return pop_top(expected);
  }
  // pop_top() on a fenced stack, with the full fence and the true H: what pop() does there,
  // and what a join does after pop_top() failed (Future::join_contended, and again at the
  // start of StealSide::pop_contended(), for callers that come straight from pop_top()).
  // A switching stack counts these pops and now and then asks whether thieves still come
  // (maybe_unfence(), out of line).
  bool pop_top_fenced(Slot* top) noexcept {
    tail_.store(top, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_seq_cst);  // pairs with the thief's fence
    // relaxed: ordered by the fences; and a thief's switch stored it before its membarrier.
    if (fenced_head_.load(std::memory_order_relaxed) > top) return false;
    if (switching_ && --fenced_pops_to_check_ == 0) [[unlikely]]
      maybe_unfence();
    return true;
  }

  // Where the fields that the C interface's inline spawn and join read (weft.h's
  // WEFT_DETAIL_* offsets) are; src/capi/capi_spawn.cpp checks the two agree.
  struct FieldOffsets {
    std::size_t tail, fence_on_pop, head, limit;
  };
  static constexpr FieldOffsets field_offsets() noexcept {
    return {offsetof(TaskStack, tail_), offsetof(TaskStack, fence_on_pop_),
            offsetof(TaskStack, head_), offsetof(TaskStack, limit_)};
  }

  // Reports a join of a task that is not the newest on this worker, and aborts.
  [[noreturn]] void lifo_violation(const Slot* expected) const noexcept;

  // After a stolen task's result was collected: frees its slot (owner; concurrent: takes
  // the port).
  void release_stolen(Slot* s) noexcept;

  // Makes a stack that no thief can reach fenced for good, as a thief's switch would (BS2):
  // how frame_cost.cpp times the pops of a fenced stack. Not for a stack in a pool.
  void fence_unshared() noexcept {
    if (!fenced()) switch_to_fenced();
  }

  // Times this stack changed its barrier, either way (relaxed; for tests and counters).
  std::uint64_t barrier_switches() const noexcept {
    return barrier_switches_.load(std::memory_order_relaxed);
  }

  // ---- Observers (racy snapshots; for policies, idling decisions and tests) ----
  // Request mechanism: 0 while a request is pending (head_ carries the flag).
  Index available() const noexcept {
    const Index n = tail_.load(std::memory_order_acquire) - h().load(std::memory_order_relaxed);
    return n > 0 ? n : 0;
  }
  // The owner's own count of its available tasks (exact under the request mechanism).
  Index owner_available() const noexcept {
    if (!request_mode()) return available();
    return tail_.load(std::memory_order_relaxed) - owner_head_;
  }
  Index size() const noexcept { return tail_.load(std::memory_order_relaxed) - slots_; }
  Index capacity() const noexcept { return end_ - slots_; }
  Slot* slot_at(Index i) noexcept { return slots_ + i; }
  Index index_of(const Slot* s) const noexcept { return s - slots_; }

 private:
  // head_'s value while a request may be pending: above every slot, so the join's check
  // fails. 64-byte aligned like a slot address.
  static Slot* request_flag() noexcept {
    return reinterpret_cast<Slot*>(~std::uintptr_t{0} & ~std::uintptr_t{kSlotBytes - 1});
  }
  // head_'s value for good on a fenced stack: above every slot, and not request_flag().
  static Slot* never_pops() noexcept {
    return reinterpret_cast<Slot*>(~std::uintptr_t{0} & ~std::uintptr_t{2 * kSlotBytes - 1});
  }
  // The word that holds H for thieves and for the settling owner: fenced_head_ on a fenced
  // stack, head_ otherwise.
  std::atomic<Slot*>& h() noexcept { return fenced() ? fenced_head_ : head_; }
  const std::atomic<Slot*>& h() const noexcept { return fenced() ? fenced_head_ : head_; }

  // Owner, every BarrierSwitching::recheck_pops fenced pops: back to membarrier (BS3) when no
  // thief has come to the port for BarrierSwitching::unfence_after_ns.
  void maybe_unfence() noexcept;
  // Thief, under the port, before its membarrier: the stack becomes fenced (BS2).
  void switch_to_fenced() noexcept;

  // Owner's line: written on every push and pop; thieves only read it.
  alignas(kFalseSharingRange) std::atomic<Slot*> tail_{nullptr};
  Slot* end_ = nullptr;
  Slot* slots_ = nullptr;
  Slot* owner_head_ = nullptr;  // request mechanism: the true H (owner-private)
  // limit_'s value while no request is pending: end_, so that only a full stack diverts a
  // spawn, or slots_ (below every top) on a counting stack, so that every spawn does.
  Slot* open_limit_ = nullptr;
  // The concurrent mechanism without membarrier, for good or for now (BS1-BS3).
  std::atomic<bool> fence_on_pop_{false};
  bool switching_ = false;  // may change its barrier (set at init)
  StealMechanism mechanism_ = StealMechanism::kConcurrent;
  std::uint32_t fenced_pops_to_check_ = 1;  // owner-private countdown to maybe_unfence()
  // Thieves' line: written on claims (concurrent) or posts (request), read by the owner on
  // every pop (head_) and spawn (limit_): a hit unless a thief just wrote it.
  alignas(kFalseSharingRange) std::atomic<Slot*> head_{nullptr};
  // open_limit_, or nullptr (below every slot) while a request may be pending.
  std::atomic<Slot*> limit_{nullptr};
  // H on a fenced stack (see h()); unused otherwise.
  std::atomic<Slot*> fenced_head_{nullptr};
  std::atomic<StealRequest*> request_{nullptr};  // the pending request (request mechanism)
  std::atomic<bool> port_{false};  // the steal port's lock word (StealPort, steal_side.hpp)
  // Switching: when a thief last took the port (relaxed; written under it, read by the
  // owner's maybe_unfence()) and when one last paid a membarrier here (under the port; 0:
  // none has yet).
  std::atomic<std::uint64_t> port_taken_ns_{0};
  std::uint64_t membarrier_claim_ns_ = 0;
  std::atomic<std::uint64_t> barrier_switches_{0};  // written under the port
};

}  // namespace weft::detail
