// Idling: an idle pool uses (almost) no CPU, and a pool that went to sleep always wakes up
// for the next run (no lost wake-up). Hangs are turned into failures by a watchdog.
#include <gtest/gtest.h>
#include <time.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include "test_support.hpp"
#include "weft/weft.hpp"

namespace {

using namespace std::chrono_literals;
using weft_test::serial_fib;
using weft_test::weft_fib;

double process_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// CPU time the whole process uses over one second of wall time.
double cpu_seconds_over_one_idle_second() {
  const double before = process_cpu_seconds();
  std::this_thread::sleep_for(1s);
  return process_cpu_seconds() - before;
}

TEST(Idle, AnIdleTwoWorkerPoolUsesUnderFivePercentOfACore) {
  weft::Config c = weft_test::base_config();
  c.workers = 2;
  weft::Runtime rt(c);
  ASSERT_EQ(rt.run([] { return weft_fib(15); }), serial_fib(15));
  std::this_thread::sleep_for(100ms);
  const double used = cpu_seconds_over_one_idle_second();
  EXPECT_LT(used, 0.05) << "an idle pool burned " << used << " s of CPU in 1 s\n"
                        << rt.stats().table();
}

TEST(Idle, AnIdlePoolAfterAParallelRunOnManyWorkersSleeps) {
  weft::Runtime rt(weft_test::make_config("half", 8));
  const int n = weft_test::kSanitized ? 20 : 25;
  ASSERT_EQ(rt.run([] { return weft_fib(n); }), serial_fib(n));
  // Every worker parks after its backoff; on a loaded machine (ctest -j2 next to other
  // oversubscribed tests) that can take more than a few milliseconds, so wait for it.
  EXPECT_TRUE(weft_test::spin_until(
      [&rt] { return rt.stats().total.parks >= rt.stats().per_worker.size(); }, 20000ms))
      << "idle workers should have gone to sleep\n"
      << rt.stats().table();
  const std::uint64_t parks_before = rt.stats().total.parks;
  const double used = cpu_seconds_over_one_idle_second();
  EXPECT_LT(used, 0.05) << "an idle pool burned " << used << " s of CPU in 1 s\n"
                        << rt.stats().table();
  // A parked pool does not wake up by itself: no nap loop without a run.
  EXPECT_LE(rt.stats().total.parks - parks_before, 8u);
}

// Config::idle_awake_us keeps idle workers looking instead of sleeping: with ten seconds, none
// parks within the test, before, between or after its runs; with the default, the pool above
// parks within milliseconds.
TEST(Idle, WorkersKeptAwakeDoNotParkWithinTheirAwakeTime) {
  weft::Config c = weft_test::base_config();
  c.workers = 2;
  c.idle_awake_us = 10'000'000;
  weft::Runtime rt(c);
  for (int round = 0; round < 3; ++round) {
    ASSERT_EQ(rt.run([] { return weft_fib(15); }), serial_fib(15));
    std::this_thread::sleep_for(100ms);
  }
  EXPECT_EQ(rt.stats().total.parks, 0u) << rt.stats().table();
}

TEST(Idle, EveryRunAfterASleepIsPickedUp) {
  weft::Config c = weft_test::base_config();
  c.workers = 2;
  weft::Runtime rt(c);
  const int iterations = 200;
  int correct = 0;
  weft_test::with_watchdog(60s, "200 runs with 1 ms pauses", [&] {
    for (int i = 0; i < iterations; ++i) {
      const int n = 5 + i % 10;
      if (rt.run([n] { return weft_fib(n); }) == serial_fib(n)) ++correct;
      std::this_thread::sleep_for(1ms);
    }
  });
  EXPECT_EQ(correct, iterations);
}

// Pauses of every length around the backoff thresholds (spin, the 200 us of yielding, naps, the
// indefinite park), from two submitting threads at once.
TEST(Idle, RunsFromTwoThreadsWithVaryingPausesAreAllPickedUp) {
  weft::Runtime rt(weft_test::make_config("one", 4));
  const int per_thread = static_cast<int>(weft_test::scaled(150, 40));
  std::atomic<int> correct{0};
  weft_test::with_watchdog(60s, "runs from two threads with varying pauses", [&] {
    std::vector<std::thread> submitters;
    for (int t = 0; t < 2; ++t) {
      submitters.emplace_back([&, t] {
        const std::chrono::microseconds pauses[] = {0us, 20us, 60us, 300us, 1200us, 3000us};
        for (int i = 0; i < per_thread; ++i) {
          const int n = (i + t) % 3 == 0 ? 16 : 6;
          if (rt.run([n] { return weft_fib(n); }) == serial_fib(n)) correct.fetch_add(1);
          std::this_thread::sleep_for(pauses[static_cast<std::size_t>(i + 3 * t) % 6]);
        }
      });
    }
    for (auto& s : submitters) s.join();
  });
  EXPECT_EQ(correct.load(), 2 * per_thread);
}

// A run submitted while every worker is parked indefinitely (no run active for a while).
TEST(Idle, ARunAfterALongIdleStretchIsPickedUp) {
  weft::Runtime rt(weft_test::make_config("half", 3));
  ASSERT_EQ(rt.run([] { return weft_fib(12); }), serial_fib(12));
  for (int i = 0; i < 3; ++i) {
    std::this_thread::sleep_for(150ms);
    weft_test::with_watchdog(30s, "a run after 150 ms of idleness", [&] {
      EXPECT_EQ(rt.run([] { return weft_fib(20); }), serial_fib(20));
    });
  }
}

// Spawns one task per worker that waits until all of them have started: the run finishes
// only if every worker, the root's included, runs one at the same time. Returns how many
// distinct workers ran them.
std::size_t all_workers_meet(unsigned workers) {
  std::atomic<unsigned> arrived{0};
  std::vector<std::atomic<bool>> ran(workers);
  weft::scope([&](weft::Scope& s) {
    for (unsigned i = 0; i < workers; ++i) {
      s.spawn([&] {
        ran[static_cast<std::size_t>(weft::this_worker_id())].store(true);
        arrived.fetch_add(1);
        while (arrived.load() < workers) {
          weft::poll();  // the request mechanism's thieves are answered here
          std::this_thread::yield();
        }
      });
    }
  });
  std::size_t distinct = 0;
  for (auto& r : ran) distinct += r.load() ? 1 : 0;
  return distinct;
}

// After a stretch in which every other worker went to sleep (no run active; or inside a run,
// during a serial phase), a burst of parallelism must still reach every worker: run() wakes
// two, and thieves, the watchman and its successors wake the rest. A lost wake-up in that
// chain leaves tasks that nobody steals, and this run would hang (the watchdog reports it).
TEST(Idle, EveryWorkerJoinsABurstAfterSleepingThroughIdleAndSerialStretches) {
  for (unsigned workers : {2u, 3u, 8u}) {
    weft::Runtime rt(weft_test::make_config("one", workers));
    for (int round = 0; round < 3; ++round) {
      std::this_thread::sleep_for(100ms);  // every worker parks: no run is active
      weft_test::with_watchdog(60s, "a burst for every worker after a long idle stretch", [&] {
        EXPECT_EQ(rt.run([&] { return all_workers_meet(workers); }), workers);
        // Within one run: a serial phase (the others park, one watchman naps), then a burst.
        EXPECT_EQ(rt.run([&] {
          weft_test::spin_for(30ms);
          return all_workers_meet(workers);
        }),
                  workers);
      });
    }
  }
}

}  // namespace
