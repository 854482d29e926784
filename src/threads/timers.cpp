// The pool's deadlines of parked threads (TMR1-TMR3 in timers.hpp; TW1-TW4 in thread_core.hpp).
#include "threads/timers.hpp"

#include <algorithm>
#include <vector>

#include "platform/cpu.hpp"
#include "threads/spin_lock.hpp"

namespace weft::detail {

void Timers::add(WaitNode& node) noexcept {
  lock_spinning(lock_);
  // A set node per armed wait: an allocation failure here is fatal (noexcept), as it is
  // for a thread's control block.
  entries_.emplace(node.deadline_ns, &node);
  update_earliest_locked();
  unlock_spinning(lock_);
}

void Timers::remove(WaitNode& node) noexcept {
  lock_spinning(lock_);
  const bool ours = entries_.erase({node.deadline_ns, &node}) > 0;
  update_earliest_locked();
  unlock_spinning(lock_);
  if (ours) return;
  // acquire: pairs with expire_due's release; after it, the timer touches the node no more.
  while (!node.timer_done.load(std::memory_order_acquire)) platform::cpu_relax();
}

std::chrono::microseconds Timers::bound_nap(std::chrono::microseconds nap) const noexcept {
  const std::int64_t earliest = earliest_ns_.load(std::memory_order_relaxed);
  if (earliest == kNone) return nap;
  const std::int64_t left_ns = std::max<std::int64_t>(earliest - steady_now_ns(), 0);
  // Rounded up, so that the nap ends past the deadline rather than just before it.
  return std::min(nap, std::chrono::microseconds((left_ns + 999) / 1000));
}

void Timers::expire_due() noexcept {
  std::vector<WaitNode*> due;
  const std::int64_t now = steady_now_ns();
  lock_spinning(lock_);
  try {
    while (!entries_.empty() && entries_.begin()->first <= now) {
      due.push_back(entries_.begin()->second);
      entries_.erase(entries_.begin());
    }
  } catch (...) {
    // Out of memory for `due`: the entries left in the set fire at a later look.
  }
  update_earliest_locked();
  unlock_spinning(lock_);
  for (WaitNode* node : due) {  // TMR2: no set lock held from here on
    // TW4: the waiter returns only after timer_done, so the node outlives the wake.
    if (node->list->claim_at_deadline(*node)) wake(node);
    node->timer_done.store(true, std::memory_order_release);
  }
}

void Timers::update_earliest_locked() noexcept {
  earliest_ns_.store(entries_.empty() ? kNone : entries_.begin()->first, std::memory_order_relaxed);
}

}  // namespace weft::detail
