// Helpers shared by the weft test suite: sanitizer-aware iteration counts, a watchdog that
// turns a hang into a failure, the steal policies to sweep, and reference computations.
#pragma once

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <future>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "weft/detail/sanitizers.hpp"
#include "weft/weft.hpp"

namespace weft_test {

inline constexpr bool kThreadSanitizer = WEFT_DETAIL_TSAN == 1;
inline constexpr bool kAddressSanitizer = WEFT_DETAIL_ASAN == 1;
inline constexpr bool kSanitized = kThreadSanitizer || kAddressSanitizer;

// While alive, limits this process's address space (RLIMIT_AS, soft limit) to what it uses
// now plus `headroom` bytes, so that reserving a larger thread stack fails; restores the old
// limit after. For tests of a worker that cannot start (the stack sizes Config allows
// reserve fine otherwise). Not in sanitized builds: their runtimes reserve address space too.
class AddressSpaceLimit {
 public:
  explicit AddressSpaceLimit(rlim_t headroom) {
    long pages = 0;
    std::FILE* statm = std::fopen("/proc/self/statm", "r");
    const bool read = statm != nullptr && std::fscanf(statm, "%ld", &pages) == 1;
    if (statm != nullptr) std::fclose(statm);
    if (!read || getrlimit(RLIMIT_AS, &old_) != 0) return;
    rlimit limit = old_;
    limit.rlim_cur =
        static_cast<rlim_t>(pages) * static_cast<rlim_t>(sysconf(_SC_PAGESIZE)) + headroom;
    if (old_.rlim_max != RLIM_INFINITY && limit.rlim_cur > old_.rlim_max) return;
    set_ = setrlimit(RLIMIT_AS, &limit) == 0;
  }
  AddressSpaceLimit(const AddressSpaceLimit&) = delete;
  AddressSpaceLimit& operator=(const AddressSpaceLimit&) = delete;
  ~AddressSpaceLimit() {
    if (set_) setrlimit(RLIMIT_AS, &old_);
  }
  bool set() const noexcept { return set_; }

 private:
  rlimit old_{};
  bool set_ = false;
};

// Sanitized builds run 5-15x slower (TSan more than ASan); iteration counts are divided by
// this so that every build finishes the suite in about the same time.
inline constexpr std::int64_t kSlowdown = kThreadSanitizer ? 5 : (kAddressSanitizer ? 2 : 1);

// `n` iterations in a plain build, n / kSlowdown (but at least `at_least`) in a sanitized one.
constexpr std::int64_t scaled(std::int64_t n, std::int64_t at_least = 1) {
  return std::max(at_least, n / kSlowdown);
}

// Runs fn() on its own thread and waits at most `timeout` for it. A hang must fail the test
// rather than block CI until its global timeout, so on expiry this prints what hung and
// aborts the whole test process (the stuck thread cannot be cancelled). Exceptions from fn
// are rethrown here.
template <class F>
void with_watchdog(std::chrono::seconds timeout, const char* what, F&& fn) {
  std::promise<void> done;
  std::future<void> finished = done.get_future();
  std::thread runner([&] {
    try {
      fn();
      done.set_value();
    } catch (...) {
      done.set_exception(std::current_exception());
    }
  });
  if (finished.wait_for(timeout) != std::future_status::ready) {
    std::fprintf(stderr, "weft test watchdog: %s did not finish within %lld s (hang); aborting\n",
                 what, static_cast<long long>(timeout.count()));
    std::fflush(stderr);
    std::abort();
  }
  runner.join();
  finished.get();
}

// The steal policies every fork-join program is run under.
inline const std::vector<std::string>& policy_specs() {
  static const std::vector<std::string> specs = {"one", "fixed:2", "fixed:20", "half", "adaptive"};
  return specs;
}

// A default Config, with the steal mechanism taken from WEFT_MECHANISM when it is set: ctest
// registers the program tests a second time with WEFT_MECHANISM=request ("request:" test
// names), so every one of them runs under both mechanisms. Likewise WEFT_BARRIER: the spawn
// and join tests run a third time in fence mode ("fence:"), whose futures take the
// out-of-line pop.
//
// Every worker looks for work however many others are busy (Config::busy_limit at the most
// workers there can be): these tests are about the protocols between thieves and owners,
// which the default limit would leave to as many busy workers as there are CPUs wherever a
// test oversubscribes them. The "request:" pass keeps the default limit, so that the same
// programs run under it too.
inline weft::Config base_config() {
  weft::Config c;
  if (const char* m = std::getenv("WEFT_MECHANISM"); m != nullptr && *m != '\0') {
    c.mechanism = weft::parse_mechanism(m, "WEFT_MECHANISM");
  }
  if (c.mechanism != weft::StealMechanism::kRequest) c.busy_limit = 4096;
  // The barrier mode is process-wide: ctest runs each test in its own process, so a "fence:"
  // run is in fence mode throughout.
  if (const char* b = std::getenv("WEFT_BARRIER"); b != nullptr && *b != '\0') {
    c.barrier = weft::Config::from_env().barrier;
  }
  return c;
}

inline weft::Config make_config(std::string_view policy, unsigned workers) {
  weft::Config c = base_config();
  c.workers = workers;
  c.steal = weft::StealPolicy::parse(policy);
  return c;
}

// The same, counting spawns (Config::count_spawns): for the tests that read Stats' spawns and
// inline_joins, which a runtime counts only when asked to.
inline weft::Config counting_config() {
  weft::Config c = base_config();
  c.count_spawns = true;
  return c;
}
inline weft::Config counting_config(std::string_view policy, unsigned workers) {
  weft::Config c = make_config(policy, workers);
  c.count_spawns = true;
  return c;
}

// "fixed:20" -> "fixed20": gtest parameter names may hold only letters, digits and '_'.
inline std::string name_for(std::string_view policy, unsigned workers) {
  std::string name;
  for (char ch : policy) {
    if (ch != ':') name.push_back(ch);
  }
  return name + "_w" + std::to_string(workers);
}

// The name generator of the suites parameterised by (policy spec, workers or thieves):
// INSTANTIATE_TEST_SUITE_P(..., weft_test::PolicyCountName{}) names ("fixed:20", 4)
// "fixed20_w4".
struct PolicyCountName {
  template <class Param>
  std::string operator()(const ::testing::TestParamInfo<Param>& info) const {
    return name_for(std::get<0>(info.param), static_cast<unsigned>(std::get<1>(info.param)));
  }
};

inline std::int64_t serial_fib(int n) {
  std::int64_t a = 0;
  std::int64_t b = 1;
  for (int i = 0; i < n; ++i) {
    const std::int64_t next = a + b;
    a = b;
    b = next;
  }
  return a;
}

// Fork-join Fibonacci: one spawn per call with n >= 2.
inline std::int64_t weft_fib(int n) {
  if (n < 2) return n;
  auto a = weft::spawn([n] { return weft_fib(n - 1); });
  const std::int64_t b = weft_fib(n - 2);
  return a.join() + b;
}

// The number of spawn calls weft_fib(n) makes: the calls with n >= 2, fib(n + 1) - 1.
inline std::uint64_t fib_spawns(int n) {
  return n < 2 ? 0 : static_cast<std::uint64_t>(serial_fib(n + 1) - 1);
}

// Waits (yielding) until pred() holds or `timeout` passes; returns pred().
template <class Pred>
bool spin_until(Pred pred, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!pred()) {
    if (std::chrono::steady_clock::now() > deadline) return pred();
    std::this_thread::yield();
  }
  return true;
}

// SplitMix64: a seeded, reproducible source of test shapes.
inline std::uint64_t mix64(std::uint64_t z) {
  z += 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// Busy-waits for `d` of wall time (a leaf's "work" that takes the same time in every build).
template <class Rep, class Period>
void spin_for(std::chrono::duration<Rep, Period> d) {
  const auto until = std::chrono::steady_clock::now() + d;
  while (std::chrono::steady_clock::now() < until) {
  }
}

// A tree whose leaves each spin for a couple of microseconds, so that a run lasts
// milliseconds: long enough for every worker to wake up and steal, many times. Five children
// per node: four spawned (typed futures, joined newest first), one computed inline. With
// `parallel` false it is the serial reference.
inline std::int64_t busy_tree(int depth, std::uint64_t seed, bool parallel) {
  if (depth == 0) {
    spin_for(std::chrono::microseconds(2));
    return static_cast<std::int64_t>(seed % 101);
  }
  const auto kid = [seed](std::uint64_t i) { return mix64(seed * 8 + i); };
  if (!parallel) {
    std::int64_t sum = 0;
    for (std::uint64_t i = 0; i < 5; ++i) sum += busy_tree(depth - 1, kid(i), false);
    return sum;
  }
  auto f0 = weft::spawn([=] { return busy_tree(depth - 1, kid(0), true); });
  auto f1 = weft::spawn([=] { return busy_tree(depth - 1, kid(1), true); });
  auto f2 = weft::spawn([=] { return busy_tree(depth - 1, kid(2), true); });
  auto f3 = weft::spawn([=] { return busy_tree(depth - 1, kid(3), true); });
  std::int64_t sum = busy_tree(depth - 1, kid(4), true);
  sum += f3.join();
  sum += f2.join();
  sum += f1.join();
  sum += f0.join();
  return sum;
}

}  // namespace weft_test
