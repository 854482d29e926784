// How the benchmarks' recursions fork their calls, one policy per version: PlainCalls (the
// serial elision), ThreadPerCall (a weft::thread per closure) and TaskPerCall (weft::scope).
// Each fork_join runs all its closures and returns when all have finished.
#pragma once

#include <array>
#include <cstddef>
#include <exception>
#include <utility>
#include <weft/invoke.hpp>
#include <weft/thread.hpp>

namespace bench_threads {

// Joins every thread that was made, then rethrows the first exception one threw: a joinable
// weft::thread must never be destroyed, even when a creation or a join throws.
template <std::size_t N>
void join_all(std::array<weft::thread, N>& threads) {
  std::exception_ptr first;
  for (weft::thread& t : threads) {
    if (!t.joinable()) continue;
    try {
      t.join();
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  }
  if (first) std::rethrow_exception(first);
}

struct PlainCalls {
  template <class... F>
  static void fork_join(F... f) {
    (f(), ...);
  }
};

// The threads are made in the order given and joined in the same order.
struct ThreadPerCall {
  template <class... F>
  static void fork_join(F... f) {
    std::array<weft::thread, sizeof...(F)> threads;
    std::size_t made = 0;
    std::exception_ptr failed;
    try {
      ((threads[made] = weft::thread(std::move(f)), ++made), ...);
    } catch (...) {
      // Kept, not rethrown with `throw;` after the joins: a join may resume this thread on
      // another worker, whose OS thread does not know the exception being handled.
      failed = std::current_exception();
    }
    join_all(threads);
    if (failed) std::rethrow_exception(failed);
  }
};

struct TaskPerCall {
  template <class... F>
  static void fork_join(F... f) {
    weft::scope([&](weft::Scope& s) { (s.spawn(std::move(f)), ...); });
  }
};

}  // namespace bench_threads
