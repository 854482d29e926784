// The fork-join shape both fine-grained applications are written in: the first half of a
// divide-and-conquer step runs in a new weft::thread while the caller runs the second, then
// the caller joins it. With `fork` false both halves are plain calls, which is how the serial
// reference versions and the below-cutoff parts run the very same code.
#pragma once

#include <array>
#include <cstddef>
#include <exception>
#include <utility>

#include "weft/thread.hpp"

namespace thread_apps {

template <class First, class Second>
void fork_join(bool fork, First&& first, Second&& second) {
  if (!fork) {
    first();
    second();
    return;
  }
  weft::thread child(std::forward<First>(first));
  // A throw from `second` must still join the child: destroying a joinable thread aborts.
  try {
    second();
  } catch (...) {
    child.join();
    throw;
  }
  child.join();
}

// Calls body(lo, hi) on pieces of [begin, end) of at most `grain` elements, forking a thread
// per split while `fork` holds (the pieces of one call are disjoint, so bodies may write
// per-element state without locks).
template <class Body>
void for_range_forking(bool fork, std::size_t begin, std::size_t end, std::size_t grain,
                       const Body& body) {
  if (end - begin <= grain) {
    if (begin < end) body(begin, end);
    return;
  }
  const std::size_t mid = begin + (end - begin) / 2;
  fork_join(
      fork, [&] { for_range_forking(fork, begin, mid, grain, body); },
      [&] { for_range_forking(fork, mid, end, grain, body); });
}

}  // namespace thread_apps

namespace thread_apps {

// Up to Capacity threads started one by one and joined together: join_all joins every one
// before it rethrows the first exception, and the destructor joins whatever an exception left
// running, so no joinable weft::thread is ever destroyed.
template <std::size_t Capacity>
class ThreadGroup {
 public:
  ThreadGroup() = default;
  ThreadGroup(const ThreadGroup&) = delete;
  ThreadGroup& operator=(const ThreadGroup&) = delete;
  ~ThreadGroup() {
    for (std::size_t i = 0; i < started_; ++i) {
      if (!threads_[i].joinable()) continue;
      try {
        threads_[i].join();
      } catch (...) {  // already unwinding from another exception: this one is dropped
      }
    }
  }

  template <class F>
  void start(F&& f) {
    threads_[started_] = weft::thread(std::forward<F>(f));
    ++started_;
  }

  void join_all() {
    std::exception_ptr first;
    for (std::size_t i = 0; i < started_; ++i) {
      try {
        threads_[i].join();
      } catch (...) {
        if (!first) first = std::current_exception();
      }
    }
    started_ = 0;
    if (first) std::rethrow_exception(first);
  }

 private:
  std::array<weft::thread, Capacity> threads_;
  std::size_t started_ = 0;
};

}  // namespace thread_apps
