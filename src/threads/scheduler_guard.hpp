// ThreadScheduler's lock, taken and counted (its acquisitions are a reported figure: dfd's
// claim is that it takes this lock rarely).
#pragma once

#include "threads/spin_lock.hpp"
#include "threads/thread_scheduler.hpp"

namespace weft::detail {

inline void ThreadScheduler::lock_counted() noexcept {
  lock_spinning(lock_);
  // Under the lock: a plain increment would do; relaxed atomics keep stats readers legal.
  acquisitions_.store(acquisitions_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
}

class ThreadScheduler::Guard {
 public:
  explicit Guard(ThreadScheduler& s) noexcept : s_(s) { s_.lock_counted(); }
  ~Guard() { unlock_spinning(s_.lock_); }
  Guard(const Guard&) = delete;
  Guard& operator=(const Guard&) = delete;

 private:
  ThreadScheduler& s_;
};

}  // namespace weft::detail
