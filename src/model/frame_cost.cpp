// Calibrates frame_cost_ns(): a recursion with a spawn+join against the same with calls, on
// a private task stack installed as the calling thread's worker for the duration. Nothing
// can steal from that stack (no pool knows it), so every join is inline, as on the fast path.
#include "model/frame_cost.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

#include "platform/monotonic_clock.hpp"
#include "weft/future.hpp"

namespace weft::detail {
namespace {

// A binary recursion of this depth: 2^kDepth - 1 spawns per batch, like fib's.
constexpr int kDepth = 14;
constexpr int kCallsPerBatch = (1 << kDepth) - 1;
constexpr int kBatches = 15;  // pairs of batches; the median difference is the cost

[[gnu::noinline]] std::uint64_t leaf(std::uint64_t x) noexcept {
  asm volatile("" : "+r"(x));  // keep the call: the compiler may not fold it
  return x + 1;
}

// Both recursions hold an object with a destructor, as a frame with a Future does, so that
// the compiler may not turn the plain one into a loop: the difference is then the spawn and
// join themselves, in recursive code, with the registers they take.
struct Cleanup {
  ~Cleanup() { asm volatile(""); }
};

std::uint64_t with_spawns(int depth) {
  if (depth == 0) return leaf(0);
  Cleanup c;
  auto f = spawn([depth] { return with_spawns(depth - 1); });
  const std::uint64_t b = with_spawns(depth - 1);
  return f.join() + b;
}

std::uint64_t with_calls(int depth) {
  if (depth == 0) return leaf(0);
  Cleanup c;
  const std::uint64_t a = with_calls(depth - 1);
  const std::uint64_t b = with_calls(depth - 1);
  return a + b;
}

template <class F>
double ns_per_call(F&& batch) {
  const std::uint64_t t0 = platform::monotonic_ns();
  const std::uint64_t sum = batch();
  const std::uint64_t t1 = platform::monotonic_ns();
  asm volatile("" : : "r"(sum));
  return static_cast<double>(t1 - t0) / kCallsPerBatch;
}

// Alternates two batches kBatches times, each batch on the worker it names, and returns the
// median of their differences (never below 0): robust to the noise of a shared machine,
// where one disturbed batch would otherwise decide.
template <class A, class B>
double median_difference(WorkerCore* a_worker, A&& a, WorkerCore* b_worker, B&& b) {
  WorkerCore* const saved = tls_worker;
  std::array<double, kBatches> differences{};
  for (double& d : differences) {
    tls_worker = a_worker;
    const double first = ns_per_call(a);
    tls_worker = b_worker;
    d = first - ns_per_call(b);
  }
  tls_worker = saved;
  std::nth_element(differences.begin(), differences.begin() + kBatches / 2, differences.end());
  return std::max(0.0, differences[kBatches / 2]);
}

std::uint64_t spawning_batch() { return with_spawns(kDepth); }
std::uint64_t calling_batch() { return with_calls(kDepth); }

double calibrate(bool counting) {
  WorkerCore core;
  core.stack.init(kDepth + 2, StealMechanism::kConcurrent, false, counting);
  return median_difference(&core, spawning_batch, &core, calling_batch);
}

}  // namespace

double frame_cost_ns(bool counting) {
  // Thread-safe one-time initialisations, one per kind of stack.
  if (counting) {
    static const double counted = calibrate(true);
    return counted;
  }
  static const double cost = calibrate(false);
  return cost;
}

double fenced_pop_extra_ns() {
  WorkerCore plain, fenced;
  plain.stack.init(kDepth + 2);
  fenced.stack.init(kDepth + 2);
  fenced.stack.fence_unshared();
  return median_difference(&fenced, spawning_batch, &plain, spawning_batch);
}

}  // namespace weft::detail
