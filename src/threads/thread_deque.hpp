// A worker's deque of ready user-level threads under the dfd scheduler: a fixed-capacity
// Chase-Lev deque. The owner pushes and pops at the bottom with no lock; a thief takes the
// top (the oldest thread, the rightmost of the deque in the serial depth-first order) while
// holding the scheduler's lock, so at most one thief races the owner.
//
// Invariants (Chase & Lev; Le, Pop, Cohen and Zappa Nardelli's C11 version):
//   TD1 Slots top_ .. bottom_-1 hold the deque's threads, bottom_ - 1 the newest.
//   TD2 A thread leaves the deque exactly once: the owner's pop and a thief's steal of the
//       last thread both CAS top_, and only one CAS succeeds.
//   TD3 A thread pushed is seen whole by whoever takes it: push stores the slot, then
//       bottom_ with release; a thief reads bottom_ with acquire before the slot.
// Deques are made by the scheduler and never freed while it lives, so a lock-free look at
// one (maybe_nonempty) is always a read of valid memory.
#pragma once

#include <atomic>
#include <cstdint>

namespace weft::detail {

struct UThread;

class ThreadDeque {
 public:
  static constexpr std::int64_t kCapacity = 64;

  // Owner only. False when full: the caller then starts a new deque to the left of this one.
  bool push(UThread* t) noexcept {
    const std::int64_t b = bottom_.load(std::memory_order_relaxed);
    const std::int64_t top = top_.load(std::memory_order_acquire);
    if (b - top >= kCapacity) return false;
    slots_[b & (kCapacity - 1)].store(t, std::memory_order_relaxed);
    bottom_.store(b + 1, std::memory_order_release);  // TD3
    return true;
  }

  // Owner only: the newest thread, or nullptr.
  UThread* pop() noexcept {
    const std::int64_t b = bottom_.load(std::memory_order_relaxed) - 1;
    bottom_.store(b, std::memory_order_relaxed);
    // seq_cst: the bottom_ store is ordered before the top_ load, against a thief's
    // top_ load / fence / bottom_ load (the Dekker pair of TD2).
    std::atomic_thread_fence(std::memory_order_seq_cst);
    std::int64_t top = top_.load(std::memory_order_relaxed);
    if (top > b) {  // empty
      bottom_.store(b + 1, std::memory_order_relaxed);
      return nullptr;
    }
    UThread* t = slots_[b & (kCapacity - 1)].load(std::memory_order_relaxed);
    if (top == b) {  // the last one: race the thieves for it (TD2)
      if (!top_.compare_exchange_strong(top, top + 1, std::memory_order_seq_cst,
                                        std::memory_order_relaxed)) {
        t = nullptr;
      }
      bottom_.store(b + 1, std::memory_order_relaxed);
    }
    return t;
  }

  // A thief (under the scheduler's lock): the oldest thread, or nullptr when empty or lost.
  UThread* steal() noexcept {
    std::int64_t top = top_.load(std::memory_order_acquire);
    std::atomic_thread_fence(std::memory_order_seq_cst);             // TD2's Dekker pair
    const std::int64_t b = bottom_.load(std::memory_order_acquire);  // TD3
    if (top >= b) return nullptr;
    UThread* const t = slots_[top & (kCapacity - 1)].load(std::memory_order_relaxed);
    if (!top_.compare_exchange_strong(top, top + 1, std::memory_order_seq_cst,
                                      std::memory_order_relaxed)) {
      return nullptr;  // the owner popped it
    }
    return t;
  }

  // A racy hint for idle workers (relaxed: a stale answer costs one look under the lock,
  // or leaves the thread to its owner for one more nap).
  bool maybe_nonempty() const noexcept {
    return bottom_.load(std::memory_order_relaxed) > top_.load(std::memory_order_relaxed);
  }

  // Bookkeeping of the scheduler's deque list R, guarded by its lock.
  ThreadDeque* left = nullptr;
  ThreadDeque* right = nullptr;
  ThreadDeque* next_free = nullptr;
  bool in_list = false;
  std::int32_t owner = -1;  // the worker that pushes and pops here; -1: none any more
  // Every deque ever made, for the idle workers' lock-free look (written once, under the
  // lock, before the deque is published with release).
  ThreadDeque* next_made = nullptr;

 private:
  alignas(64) std::atomic<std::int64_t> top_{0};
  alignas(64) std::atomic<std::int64_t> bottom_{0};
  std::atomic<UThread*> slots_[kCapacity] = {};
};

}  // namespace weft::detail
