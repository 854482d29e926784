// Config::busy_limit: the rule that resolves it, that an idle worker stops looking for work
// while that many others are busy, and that a watchman looks anyway once the process leaves a
// CPU unused, so that a task blocked in the kernel cannot keep a stealable task waiting.
#include "core/busy_limit.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "weft/weft.hpp"

namespace {

using namespace std::chrono_literals;
using weft::detail::busy_limit_for;
using weft::detail::BusyLimit;
using weft::detail::kBlindWindowNs;
using weft::detail::kLiftNs;
using weft::detail::kSpareCpuWindowNs;
using weft::detail::kStaleWindowNs;
using weft::detail::leaves_cpu_unused;

// A clock that reads `t`, for BusyLimit::stops.
auto at(std::uint64_t t) {
  return [t] { return t; };
}

TEST(BusyLimitRule, DefaultIsTheCpusAndOnlyWhereTheWorkersOutnumberThem) {
  EXPECT_EQ(busy_limit_for(0, 8, 2), 2u);  // oversubscribed: the CPUs
  EXPECT_EQ(busy_limit_for(0, 32, 2), 2u);
  EXPECT_EQ(busy_limit_for(0, 2, 2), 0u);  // one worker per CPU: none
  EXPECT_EQ(busy_limit_for(0, 1, 4), 0u);  // fewer workers than CPUs: none
  EXPECT_EQ(busy_limit_for(0, 8, 0), 0u);  // the CPUs unknown: none
}

TEST(BusyLimitRule, AnExplicitLimitOverridesTheCpus) {
  EXPECT_EQ(busy_limit_for(3, 8, 2), 3u);
  EXPECT_EQ(busy_limit_for(1, 2, 16), 1u);
  EXPECT_EQ(busy_limit_for(8, 8, 2), 0u);  // as many as the workers: none
  EXPECT_EQ(busy_limit_for(4096, 8, 2), 0u);
}

TEST(BusyLimitRule, ACpuIsUnusedBelowTheLimitLessAHalf) {
  constexpr std::uint64_t kSecond = 1'000'000'000;
  EXPECT_TRUE(leaves_cpu_unused(kSecond, kSecond, 2));             // one of two CPUs used
  EXPECT_FALSE(leaves_cpu_unused(kSecond * 16 / 10, kSecond, 2));  // 1.6 of 2
  EXPECT_TRUE(leaves_cpu_unused(kSecond * 4 / 10, kSecond, 1));
  EXPECT_FALSE(leaves_cpu_unused(kSecond * 6 / 10, kSecond, 1));
  EXPECT_TRUE(leaves_cpu_unused(kSecond * 4095, kSecond, 4096));  // no overflow at the top
  EXPECT_FALSE(leaves_cpu_unused(kSecond * 4096, kSecond, 4096));
}

// The limit's decisions at given times and CPU readings: it stops while as many others as
// the limit are busy, judges a window once it is 2 ms long, and a window in which the
// workers used fewer CPUs than the limit less a half lifts it for kLiftNs.
TEST(BusyLimitRule, WindowsOfSpareCpuLiftTheLimit) {
  constexpr std::uint64_t ms = 1'000'000, t0 = 5'000 * ms, c0 = 7'000 * ms;
  std::uint64_t cpu = c0;
  int reads = 0;
  const auto read = [&] {
    ++reads;
    return cpu;
  };
  BusyLimit l;
  l.set_limit(2);
  int clock_reads = 0;
  const auto clock = [&] {
    ++clock_reads;
    return t0;
  };
  EXPECT_FALSE(l.stops(1, clock, read));  // under the limit: neither clock read
  EXPECT_EQ(reads, 0);
  EXPECT_EQ(clock_reads, 0);
  EXPECT_TRUE(l.stops(2, at(t0), read));  // the first window starts, no verdict
  EXPECT_EQ(reads, 1);
  EXPECT_TRUE(l.stops(2, at(t0 + kSpareCpuWindowNs - 1), read));  // not due: nothing read
  EXPECT_EQ(reads, 1);
  cpu += 2 * kSpareCpuWindowNs;  // both CPUs busy over the window
  EXPECT_TRUE(l.stops(2, at(t0 + kSpareCpuWindowNs), read));
  cpu += kSpareCpuWindowNs / 2;  // a quarter of them over the next
  const std::uint64_t t1 = t0 + 2 * kSpareCpuWindowNs;
  EXPECT_FALSE(l.stops(3, at(t1), read));                // lifted
  EXPECT_FALSE(l.stops(3, at(t1 + kLiftNs - 1), read));  // still lifted, nothing read
  EXPECT_EQ(reads, 3);
  cpu += 2 * (kLiftNs + kSpareCpuWindowNs);  // busy again: the next window ends the lift
  EXPECT_TRUE(l.stops(2, at(t1 + kLiftNs + kSpareCpuWindowNs), read));
  EXPECT_EQ(reads, 4);
  // A window nobody closed for longer than kStaleWindowNs is restarted without a verdict.
  EXPECT_TRUE(l.stops(2, at(t1 + 2 * kStaleWindowNs), read));
}

TEST(BusyLimitRule, WithoutACpuClockOnlyALongWindowLifts) {
  constexpr std::uint64_t t0 = 5'000'000'000;
  const auto unknown = [] { return std::uint64_t{0}; };
  BusyLimit l;
  l.set_limit(1);
  EXPECT_TRUE(l.stops(1, at(t0), unknown));
  EXPECT_TRUE(l.stops(1, at(t0 + kSpareCpuWindowNs), unknown));  // blind: keeps the window open
  EXPECT_TRUE(l.stops(1, at(t0 + kBlindWindowNs - 1), unknown));
  EXPECT_FALSE(l.stops(1, at(t0 + kBlindWindowNs), unknown));
  // A window that began blind and ends with a clock restarts without a verdict; the next,
  // with the clock at both ends, is judged by it.
  BusyLimit m;
  m.set_limit(1);
  EXPECT_TRUE(m.stops(1, at(t0), unknown));
  EXPECT_TRUE(m.stops(1, at(t0 + kSpareCpuWindowNs), [] { return std::uint64_t{1'000'000}; }));
  EXPECT_TRUE(m.stops(1, at(t0 + 2 * kSpareCpuWindowNs),
                      [] { return std::uint64_t{1'000'000} + kSpareCpuWindowNs; }));  // 1 CPU
  EXPECT_FALSE(m.stops(1, at(t0 + 3 * kSpareCpuWindowNs),
                       [] { return std::uint64_t{1'000'000} + kSpareCpuWindowNs; }));  // none
}

TEST(BusyLimitRule, NoLimitNeverStops) {
  BusyLimit l;
  EXPECT_FALSE(l.stops(4096, at(1), [] { return std::uint64_t{0}; }));
}

weft::Config limited(unsigned workers, unsigned limit) {
  weft::Config c;
  c.workers = workers;
  c.busy_limit = limit;
  c.steal = weft::StealPolicy::one();  // a steal takes one task: the counts below stay exact
  c.pin = weft::Pinning::kOff;
  return c;
}

void spin_for(std::chrono::microseconds d) {
  const auto end = std::chrono::steady_clock::now() + d;
  while (std::chrono::steady_clock::now() < end) {
  }
}

// Runs `tasks` tasks of 50 us each in one scope; returns how many ran on the root's worker.
int tasks_on_root_worker(weft::Runtime& rt, int tasks) {
  std::vector<int> ran_on(static_cast<std::size_t>(tasks), -1);
  const int root = rt.run([&] {
    weft::scope([&](weft::Scope& s) {
      for (int t = 0; t < tasks; ++t) {
        s.spawn([&ran_on, t] {
          spin_for(50us);
          ran_on[static_cast<std::size_t>(t)] = weft::this_worker_id();
        });
      }
    });
    return weft::this_worker_id();
  });
  int on_root = 0;
  for (const int id : ran_on) on_root += id == root ? 1 : 0;
  return on_root;
}

// With a limit of one, the root's worker is the busy one and the others are stopped by the
// limit (counted in limit_sleeps) instead of stealing. How many of the 20 ms of tasks then
// stay on the root is not checked: where other programs leave this process less than half a
// CPU (ctest -j2 beside a sanitizer build), the workers' measured CPU use rightly lifts the
// limit and the others take tasks. Without the limit (as many as the workers) nobody is
// stopped and the others take their share.
TEST(BusyLimit, IdleWorkersDoNotStealWhileTheLimitIsReached) {
  constexpr int kTasks = 400;
  {
    weft::Runtime rt(limited(4, 1));
    ASSERT_EQ(rt.busy_limit(), 1u);
    const int on_root = tasks_on_root_worker(rt, kTasks);
    const weft::Stats s = rt.stats();
    EXPECT_GT(s.total.limit_sleeps, 0u) << on_root << " of " << kTasks << " on the root\n"
                                        << s.table();
    EXPECT_LE(s.total.limit_sleeps, s.total.parks) << s.table();
  }
  {
    weft::Runtime rt(limited(4, 4));
    ASSERT_EQ(rt.busy_limit(), 0u);
    const int on_root = tasks_on_root_worker(rt, kTasks);
    EXPECT_LT(on_root, kTasks) << "no other worker took part without a limit";
    EXPECT_EQ(rt.stats().total.limit_sleeps, 0u);
  }
}

// The root blocks in the kernel (sleep_for) until a task it spawned has run elsewhere. It
// still counts as busy, so under a limit of one nobody may steal that task until a watchman's
// naps show the process using no CPU and the limit is lifted. Without that the root would
// wait out its deadline here (and for ever in a program).
TEST(BusyLimit, AWatchmanLooksAnywayWhenTheBusyWorkersLeaveACpuUnused) {
  weft::Runtime rt(limited(3, 1));
  std::atomic<bool> ran{false};
  const auto start = std::chrono::steady_clock::now();
  bool ran_before_join = false;
  rt.run([&] {
    auto f = weft::spawn([&] { ran.store(true, std::memory_order_release); });
    while (!ran.load(std::memory_order_acquire) && std::chrono::steady_clock::now() - start < 5s) {
      std::this_thread::sleep_for(1ms);
    }
    ran_before_join = ran.load(std::memory_order_acquire);
    f.join();
  });
  EXPECT_TRUE(ran_before_join) << "nobody took the task while the root was blocked";
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
}

// Tasks that block in the kernel (1 ms sleeps, as for I/O) on 8 workers under a limit of
// one: the lift lets the workers take them up as if there were no limit, so 400 of them
// take a fraction of the 400 ms that one worker at a time would (8 at a time: 50 ms). The
// bound leaves room for a slow machine and still fails if the limit held.
TEST(BusyLimit, TasksBlockedInTheKernelDoNotHoldTheLimit) {
  weft::Runtime rt(limited(8, 1));
  const auto start = std::chrono::steady_clock::now();
  rt.run([] {
    weft::scope([](weft::Scope& s) {
      for (int t = 0; t < 400; ++t) s.spawn([] { std::this_thread::sleep_for(1ms); });
    });
  });
  EXPECT_LT(std::chrono::steady_clock::now() - start, 200ms);
}

}  // namespace
