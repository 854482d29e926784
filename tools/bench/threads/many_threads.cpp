#include "tools/bench/threads/many_threads.hpp"

#include <exception>
#include <weft/thread.hpp>

#include "workloads/kernels/dense_kernel.hpp"

namespace bench_threads {
namespace {

// noinline: one copy, so that the serial elision's time per leaf is what a thread's leaf costs.
[[gnu::noinline]] std::uint64_t leaf(std::uint64_t index) {
  std::uint64_t x = index;
  for (std::uint32_t r = 0; r < kManyLeafRounds; ++r) x = kernels::dense::Matrix::mix(x);
  return x;
}

std::uint64_t spread_serial(std::uint64_t first, std::size_t count) {
  if (count == 1) return leaf(first);
  const std::size_t half = count / 2;
  const std::uint64_t left = spread_serial(first, half);
  return left + spread_serial(first + half, count - half);
}

std::uint64_t spread_threads(std::uint64_t first, std::size_t count) {
  if (count == 1) return leaf(first);
  const std::size_t half = count / 2;
  std::uint64_t left = 0, right = 0;
  weft::thread t([&] { left = spread_threads(first, half); });
  std::exception_ptr failed;
  try {
    right = spread_threads(first + half, count - half);
  } catch (...) {
    // Rethrown after the join, not with `throw;` inside the handler: the join may resume
    // this thread on another worker, whose OS thread does not know the exception.
    failed = std::current_exception();
  }
  t.join();  // a joinable thread must not be destroyed
  if (failed) std::rethrow_exception(failed);
  return left + right;
}

}  // namespace

std::uint64_t many_expected(std::size_t count) {
  std::uint64_t sum = 0;
  for (std::uint64_t i = 0; i < count; ++i) sum += leaf(i);
  return sum;
}

std::uint64_t many_serial(std::size_t count) { return spread_serial(0, count); }

std::uint64_t many_threads(std::size_t count) {
  std::uint64_t sum = 0;
  weft::thread root([&] { sum = spread_threads(0, count); });
  root.join();
  return sum;
}

}  // namespace bench_threads
