// The short locks of the thread machinery (the scheduler's list, wait lists): a test-and-set
// word, spinning briefly and then yielding the core, since with more workers than cores the
// holder may be descheduled while others spin.
#pragma once

#include <sched.h>

#include <atomic>

#include "platform/cpu.hpp"

namespace weft::detail {

inline void lock_spinning(std::atomic<bool>& word) noexcept {
  unsigned spins = 0;
  // acquire: what the previous holder wrote under the lock happens-before our reads.
  while (word.exchange(true, std::memory_order_acquire)) {
    while (word.load(std::memory_order_relaxed)) {
      if (++spins < 64) {
        platform::cpu_relax();
      } else {
        sched_yield();
      }
    }
  }
}

inline void unlock_spinning(std::atomic<bool>& word) noexcept {
  word.store(false, std::memory_order_release);  // pairs with lock_spinning's acquire
}

}  // namespace weft::detail
