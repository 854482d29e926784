// Deadlines of user-level threads parked in a timed wait (condition_variable::wait_until,
// counting_semaphore::try_acquire_until, this_thread::sleep_until): one ordered set per
// Pool, under a spin lock. A parked thread cannot look at the clock, so the workers do: each
// one at its scheduling points, and the watchman, whose nap never outlasts the earliest
// deadline (Pool::sleep). A task in a timed wait is not here: it watches its own deadline
// in WaitList::block's loop.
//
// Who wakes a timed waiter: its notifier or its timer, exactly once (protocol TW1-TW4 beside
// WaitNode in weft/detail/thread_core.hpp). Here:
//   TMR1 An entry is in the set from add() (called with the waiter's list locked, before it
//        parks) until expire() takes it out or the woken waiter's remove() does, both under
//        the set's lock; whichever does it alone touches the entry.
//   TMR2 expire() never holds the set's lock while it takes a wait list's lock (add() takes
//        them the other way round), so the two locks cannot deadlock.
//   TMR3 `earliest_ns_` is the earliest deadline in the set, or kNone, written under the
//        lock; read relaxed by workers as a hint (a stale value costs one look under the
//        lock, or a timeout noticed at the next look, never a lost one: the set is exact).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <limits>
#include <set>
#include <utility>

#include "weft/detail/thread_core.hpp"

namespace weft::detail {

class Timers {
 public:
  static constexpr std::int64_t kNone = std::numeric_limits<std::int64_t>::max();

  // TMR1: `node` (deadline_ns set, its list locked by the caller) is armed.
  void add(WaitNode& node) noexcept;
  // TMR1: the waiter, resumed, takes its entry out; if expire() already has it, waits until
  // expire() is done with the node (TW4).
  void remove(WaitNode& node) noexcept;
  // Fires every entry whose deadline has passed (TW3). Cheap when none is due.
  void expire() noexcept {
    const std::int64_t earliest = earliest_ns_.load(std::memory_order_relaxed);
    if (earliest != kNone && earliest <= steady_now_ns()) expire_due();
  }
  // Whether some thread waits with a deadline (the deadlock watch: a timer will fire).
  bool armed() const noexcept { return earliest_ns_.load(std::memory_order_relaxed) != kNone; }
  // `nap`, shortened so that it ends by the earliest deadline.
  std::chrono::microseconds bound_nap(std::chrono::microseconds nap) const noexcept;

 private:
  void expire_due() noexcept;
  void update_earliest_locked() noexcept;

  std::atomic<bool> lock_{false};                         // acquire on lock, release on unlock
  std::set<std::pair<std::int64_t, WaitNode*>> entries_;  // guarded by lock_
  std::atomic<std::int64_t> earliest_ns_{kNone};          // TMR3
};

}  // namespace weft::detail
