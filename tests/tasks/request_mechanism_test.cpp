// The request mechanism in a Runtime: what only it has. A victim busy in a long stretch
// without spawns or joins makes its thieves time out (and the run still completes);
// weft::poll() in such a stretch lets them have its tasks; a request's wait is charged to
// steal and its answering to switch. (Every other program test runs under this mechanism
// too: ctest registers them again with WEFT_MECHANISM=request, as "request:...".)
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

#include "test_support.hpp"
#include "weft/weft.hpp"

namespace {

using namespace std::chrono_literals;

weft::Config request_config(unsigned workers, const char* policy = "one") {
  weft::Config c = weft_test::make_config(policy, workers);
  c.mechanism = weft::StealMechanism::kRequest;
  c.request_timeout_us = 20;
  return c;
}

// The root pushes tasks and then computes for a long time without a spawn, a join or a poll.
// The other worker's request cannot be answered: it must give up (request_timeouts) rather
// than wait, and the tasks then run when the root joins them.
TEST(RequestMechanism, AThiefTimesOutOnAVictimInALongLeafAndTheRunCompletes) {
  weft_test::with_watchdog(std::chrono::seconds(120), "long leaf", [] {
    weft::Runtime rt{request_config(2)};
    const std::int64_t sum = rt.run([&rt] {
      auto a = weft::spawn([] { return std::int64_t{1}; });
      auto b = weft::spawn([] { return std::int64_t{2}; });
      // Spin until a thief has given up on us (a liveness condition, not a timing one).
      while (rt.stats().total.request_timeouts == 0) std::this_thread::yield();
      return b.join() + a.join();
    });
    EXPECT_EQ(sum, 3);
    EXPECT_GE(rt.stats().total.request_timeouts, 1u);
  });
}

// The same long stretch with weft::poll() in it: the waiting tasks are handed over while the
// root computes, and run on the other worker.
TEST(RequestMechanism, PollInALongLoopLetsThievesTakeTheWaitingTasks) {
  weft_test::with_watchdog(std::chrono::seconds(120), "poll", [] {
    weft::Runtime rt{request_config(2)};
    std::atomic<int> ran_elsewhere{0};
    rt.run([&] {
      const int me = weft::this_worker_id();
      auto task = [&ran_elsewhere, me] {
        if (weft::this_worker_id() != me) ran_elsewhere.fetch_add(1);
      };
      auto a = weft::spawn(task);
      auto b = weft::spawn(task);
      while (ran_elsewhere.load() == 0) {
        weft::poll();
        std::this_thread::yield();
      }
      b.join();
      a.join();
    });
    const weft::Stats s = rt.stats();
    EXPECT_GE(ran_elsewhere.load(), 1);
    EXPECT_GE(s.total.steals, 1u);
    EXPECT_GE(s.total.requests_served, 1u);
  });
}

// poll() outside a runtime, and under the concurrent mechanism, does nothing.
TEST(RequestMechanism, PollIsHarmlessOutsideARuntimeAndUnderTheConcurrentMechanism) {
  weft::poll();
  weft::Runtime rt{weft_test::make_config("one", 2)};
  EXPECT_EQ(rt.run([] {
    for (int i = 0; i < 1000; ++i) weft::poll();
    return 7;
  }),
            7);
  EXPECT_EQ(rt.stats().total.requests_served, 0u);
}

// A victim answers every request it takes up exactly once: served requests equal the
// thieves' successful steals plus their refused requests, and no worker ever counts a
// steal that was not answered.
TEST(RequestMechanism, EveryStealIsAServedRequest) {
  for (const char* policy : {"one", "half", "fixed:2", "adaptive"}) {
    SCOPED_TRACE(policy);
    weft::Runtime rt{request_config(4, policy)};
    for (int i = 0; i < 5; ++i) {
      EXPECT_EQ(rt.run([] { return weft_test::weft_fib(22); }), weft_test::serial_fib(22));
    }
    const weft::Stats s = rt.stats();
    EXPECT_GE(s.total.requests_served, s.total.steals);
    EXPECT_EQ(s.total.tasks_stolen > 0, s.total.steals > 0);
  }
}

// The profile covers the new mechanism: the wait for an answer is steal time, answering is
// switch time, and the parts still sum to the window.
TEST(RequestMechanism, ProfileChargesWaitingToStealAndAnsweringToSwitch) {
  weft::Config c = request_config(2, "half");
  c.profile = true;
  weft::Runtime rt{c};
  // Run until some request was answered with tasks: on a loaded machine the victim may be
  // descheduled through a thief's whole wait, so one run need not see a steal.
  weft_test::with_watchdog(std::chrono::seconds(120), "a served request", [&rt] {
    do {
      EXPECT_EQ(rt.run([] { return weft_test::busy_tree(5, 7, true); }),
                weft_test::busy_tree(5, 7, false));
    } while (rt.stats().total.steals == 0);
  });
  const weft::Stats s = rt.stats();
  ASSERT_GE(s.total.requests_served, 1u) << s.table();
  EXPECT_GT(s.total.steal_ns, 0u) << s.table();
  EXPECT_GT(s.total.switch_ns, 0u) << s.table();
  for (const weft::WorkerStats& w : s.per_worker) {
    EXPECT_EQ(w.task_ns + w.steal_ns + w.idle_ns + w.switch_ns, w.window_ns) << s.table();
  }
}

}  // namespace
