// The execution profile and the trace: each worker's time is all accounted for, lands in the
// activity it was spent in, and the timeline's events are well formed.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>

#include "core/activity_clock.hpp"
#include "test_support.hpp"
#include "weft/weft.hpp"

namespace {

using namespace std::chrono_literals;

long serial_fib(int n) { return n < 2 ? n : serial_fib(n - 1) + serial_fib(n - 2); }

long fib(int n) {
  if (n < 2) return n;
  auto a = weft::spawn([n] { return fib(n - 1); });
  const long b = fib(n - 2);
  return a.join() + b;
}

weft::Config profiled(unsigned workers, std::string_view policy = "half") {
  weft::Config c = weft_test::make_config(policy, workers);
  c.profile = true;
  return c;
}

std::uint64_t accounted(const weft::WorkerStats& w) {
  return w.task_ns + w.steal_ns + w.idle_ns + w.switch_ns;
}

TEST(Profile, OffReportsNothing) {
  weft::Runtime rt(weft_test::make_config("half", 2));
  EXPECT_EQ(rt.run([] { return fib(18); }), serial_fib(18));
  const weft::Stats s = rt.stats();
  EXPECT_FALSE(s.profiled);
  for (const weft::WorkerStats& w : s.per_worker) {
    EXPECT_EQ(accounted(w) + w.frame_ns + w.window_ns, 0u);
  }
  EXPECT_TRUE(rt.trace().workers.front().events.empty());
}

// Every nanosecond of the window goes to exactly one activity, and the window is the wall
// time between reset_stats() and stats() as the caller measures it: no longer than from
// before the one call to after the other, and (2% aside) no shorter than from after the
// one to before the other. The calls themselves are outside the lower bound: under
// ThreadSanitizer and a loaded machine they took over 1 ms, 2% of this window.
TEST(Profile, ActivitiesSumToTheWindowAndTheWindowIsTheWallTime) {
  using Clock = std::chrono::steady_clock;
  const auto ns = [](Clock::duration d) {
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(d).count());
  };
  for (unsigned workers : {1u, 2u, 4u}) {
    weft::Runtime rt(profiled(workers));
    const auto before_reset = Clock::now();
    rt.reset_stats();
    const auto after_reset = Clock::now();
    for (int i = 0; i < 3; ++i) EXPECT_EQ(rt.run([] { return fib(22); }), serial_fib(22));
    std::this_thread::sleep_for(20ms);  // some idle time in the window too
    const auto before_stats = Clock::now();
    const weft::Stats s = rt.stats();
    const std::uint64_t outer_ns = ns(Clock::now() - before_reset);
    const std::uint64_t inner_ns = ns(before_stats - after_reset);
    ASSERT_TRUE(s.profiled);
    for (std::size_t i = 0; i < s.per_worker.size(); ++i) {
      const weft::WorkerStats& w = s.per_worker[i];
      EXPECT_EQ(accounted(w), w.window_ns) << workers << " workers, worker " << i;
      EXPECT_LE(w.window_ns, outer_ns);
      EXPECT_GE(static_cast<double>(w.window_ns), 0.98 * static_cast<double>(inner_ns))
          << "worker " << i << " lost time: window " << w.window_ns << " of " << inner_ns;
      const weft::ProfileShares r = w.shares();
      EXPECT_NEAR(r.busy + r.steal + r.idle + r.switch_ + r.frame, 1.0, 1e-9);
    }
  }
}

// One worker computing for a while: its time is task time; an idle pool's is idle time.
TEST(Profile, BusyWorkerIsBusyAndIdlePoolIsIdle) {
  weft::Runtime rt(profiled(1));
  rt.reset_stats();
  // At least 100 ms of computing: the wake-up of the parked worker is then a small part.
  const long expected = serial_fib(20);
  const long runs = rt.run([expected] {
    long count = 0;
    const auto until = std::chrono::steady_clock::now() + 100ms;
    while (std::chrono::steady_clock::now() < until) {
      if (serial_fib(20) != expected) return -1L;
      ++count;
    }
    return count;
  });
  EXPECT_GT(runs, 0);
  weft::WorkerStats w = rt.stats().per_worker[0];
  EXPECT_GT(static_cast<double>(w.task_ns), 0.8 * static_cast<double>(w.window_ns))
      << rt.stats().table();
  EXPECT_EQ(w.frame_ns, 0u) << "no spawns, no frame management";

  weft::Runtime idle(profiled(2));
  std::this_thread::sleep_for(50ms);  // let the workers park
  idle.reset_stats();
  std::this_thread::sleep_for(100ms);
  for (const weft::WorkerStats& iw : idle.stats().per_worker) {
    EXPECT_GT(static_cast<double>(iw.idle_ns), 0.95 * static_cast<double>(iw.window_ns));
    EXPECT_EQ(iw.task_ns, 0u);
  }
}

// Frame management is charged as pushed tasks x the calibrated cost, out of task time.
TEST(Profile, FrameIsPushedTasksTimesTheCalibratedCost) {
  weft::Runtime rt(profiled(1));
  rt.reset_stats();
  EXPECT_EQ(rt.run([] { return fib(24); }), serial_fib(24));
  const weft::Stats s = rt.stats();
  EXPECT_GT(s.frame_cost_ns, 0.0);
  EXPECT_LT(s.frame_cost_ns, 1000.0) << "a spawn+join costs nanoseconds, not microseconds";
  const weft::WorkerStats& w = s.per_worker[0];
  const auto pushed = static_cast<double>(w.spawns - w.overflow_spawns);
  const double expected = std::min(static_cast<double>(w.task_ns), pushed * s.frame_cost_ns);
  EXPECT_NEAR(static_cast<double>(w.frame_ns), expected, 1.0);
  EXPECT_EQ(w.busy_ns() + w.frame_ns, w.task_ns);
}

// Stealing shows up as steal and switch time on the thieves, and the steal count matches.
TEST(Profile, StealsAreChargedToStealAndSwitch) {
  int policies_checked = 0;  // those under which a steal happened
  for (const std::string& policy : weft_test::policy_specs()) {
    if (policy == "fixed:20") continue;  // fib never has 20 tasks waiting: no steals
    weft::Runtime rt(profiled(4, policy));
    std::uint64_t steals = 0;
    for (int round = 0; round < 100 && steals == 0; ++round) {
      EXPECT_EQ(rt.run([] { return fib(25); }), serial_fib(25));
      steals = rt.stats().total.steals;
    }
    if (steals == 0) continue;  // a loaded machine may finish every run before a thief wakes
    ++policies_checked;
    const weft::Stats s = rt.stats();
    EXPECT_GT(s.total.steal_ns, 0u) << policy;
    EXPECT_GT(s.total.switch_ns, 0u) << policy;
    for (const weft::WorkerStats& w : s.per_worker) {
      if (w.steal_attempts > 0) {
        EXPECT_GT(w.steal_ns, 0u) << policy;
      }
      // Switch is the hand-over of stolen work: a thief's, or (request mechanism) a
      // victim's answering of requests.
      if (w.steals == 0 && w.requests_served == 0) {
        EXPECT_EQ(w.switch_ns, 0u) << policy << ": switch without a steal or a request";
      }
    }
  }
  if (policies_checked == 0) GTEST_SKIP() << "no steal happened under any policy on this machine";
}

// The trace: busy intervals that do not overlap on a worker, steals from other workers,
// counted exactly, and a full buffer that drops (and counts) rather than grows.
TEST(Trace, EventsAreOrderedAndStealsMatchTheCounters) {
  weft::Config c = profiled(4);
  c.trace_events = 1 << 16;
  weft::Runtime rt(c);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(rt.run([] { return fib(22); }), serial_fib(22));
  const weft::Stats s = rt.stats();
  const weft::Trace t = rt.trace();
  ASSERT_EQ(t.workers.size(), 4u);
  std::uint64_t busy_events = 0;
  for (std::size_t i = 0; i < t.workers.size(); ++i) {
    const weft::WorkerTrace& wt = t.workers[i];
    EXPECT_EQ(wt.dropped, 0u);
    std::uint64_t last_busy_end = 0;
    std::uint64_t steal_events = 0;
    for (const weft::TraceEvent& e : wt.events) {
      EXPECT_LE(e.begin_ns, e.end_ns);
      EXPECT_GE(e.begin_ns, t.origin_ns);
      if (e.kind == weft::TraceEvent::Kind::kBusy) {
        EXPECT_GE(e.begin_ns, last_busy_end) << "overlapping busy intervals on worker " << i;
        last_busy_end = e.end_ns;
        ++busy_events;
      } else {
        ++steal_events;
        EXPECT_NE(e.victim, static_cast<std::int32_t>(i));
        EXPECT_GE(e.victim, 0);
        EXPECT_LT(e.victim, 4);
        EXPECT_GE(e.tasks, 1);
      }
    }
    EXPECT_EQ(steal_events, s.per_worker[i].steals) << "worker " << i;
  }
  EXPECT_GE(busy_events, 5u) << "each run is at least one busy interval";

  weft::Config tiny = profiled(2);
  tiny.trace_events = 2;
  weft::Runtime small(tiny);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(small.run([] { return fib(12); }), serial_fib(12));
  std::uint64_t kept = 0, dropped = 0;
  for (const weft::WorkerTrace& wt : small.trace().workers) {
    EXPECT_LE(wt.events.size(), 2u);
    kept += wt.events.size();
    dropped += wt.dropped;
  }
  EXPECT_GE(kept + dropped, 5u) << "five runs are five busy intervals at least";
  EXPECT_GT(dropped, 0u);
}

// The clock's seqlock: a reader racing the owner always gets a reading whose activities
// sum to its window (invariant AC1), never a torn one.
TEST(ActivityClock, ReadersNeverSeeATornUpdate) {
  weft::detail::ActivityClock clock;
  clock.enable(0);
  const weft::detail::ActivityTimes start = clock.read();
  std::atomic<bool> done{false};
  std::thread owner([&] {
    const std::int64_t rounds = weft_test::scaled(200000);
    for (std::int64_t i = 0; i < rounds; ++i) {
      clock.enter(static_cast<weft::detail::Activity>(i % weft::detail::kActivities));
    }
    done.store(true);
  });
  std::uint64_t readings = 0;
  while (!done.load()) {
    const weft::detail::ActivityTimes t = clock.read();
    std::uint64_t sum = 0;
    for (std::uint64_t ns : t.ns) sum += ns;
    const std::uint64_t start_sum = start.ns[0] + start.ns[1] + start.ns[2] + start.ns[3];
    ASSERT_EQ(sum - start_sum, t.at_ns - start.at_ns);
    ++readings;
  }
  owner.join();
  EXPECT_GT(readings, 0u);
}

}  // namespace
