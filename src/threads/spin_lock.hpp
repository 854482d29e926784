// The short locks of the thread machinery (the scheduler's list, wait lists): a test-and-set
// word, spinning briefly and then yielding the core, since with more workers than cores the
// holder may be descheduled while others spin.
#pragma once

#include <sched.h>

#include <atomic>

#include "platform/cpu.hpp"

namespace weft::detail {

// The wait for a held lock, out of line: the free lock's path is then one exchange, and its
// callers (a yield's, a wake's) need no registers for the spinning.
[[gnu::noinline, gnu::cold]] inline void lock_spinning_contended(std::atomic<bool>& word) noexcept {
  unsigned spins = 0;
  do {
    while (word.load(std::memory_order_relaxed)) {
      if (++spins < 64) {
        platform::cpu_relax();
      } else {
        sched_yield();
      }
    }
  } while (word.exchange(true, std::memory_order_acquire));  // as lock_spinning's
}

inline void lock_spinning(std::atomic<bool>& word) noexcept {
  // acquire: what the previous holder wrote under the lock happens-before our reads.
  if (!word.exchange(true, std::memory_order_acquire)) [[likely]]
    return;
  lock_spinning_contended(word);
}

inline void unlock_spinning(std::atomic<bool>& word) noexcept {
  word.store(false, std::memory_order_release);  // pairs with lock_spinning's acquire
}

}  // namespace weft::detail
