// Exceptions thrown by tasks: rethrown at the join whether the task ran inline or on a
// thief, siblings still joined, propagated by weft::invoke, weft::scope and Runtime::run,
// and the runtime still usable afterwards.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "test_support.hpp"
#include "weft/weft.hpp"

namespace {

using namespace std::chrono_literals;
using weft_test::serial_fib;
using weft_test::weft_fib;

struct TaskFailure : std::runtime_error {
  explicit TaskFailure(int id) : std::runtime_error("task " + std::to_string(id)), id(id) {}
  int id;
};

// A Fibonacci whose k-th leaf to run (k = the countdown's start) throws; the exception
// climbs through every join on its path, inline or stolen.
std::int64_t fib_throwing_at(int n, std::atomic<int>& countdown) {
  if (n < 2) {
    if (countdown.fetch_sub(1) == 0) throw TaskFailure(n);
    return n;
  }
  auto a = weft::spawn([n, &countdown] { return fib_throwing_at(n - 1, countdown); });
  const std::int64_t b = fib_throwing_at(n - 2, countdown);
  return a.join() + b;
}

using Param = std::tuple<std::string, unsigned>;

class ExceptionsTest : public ::testing::TestWithParam<Param> {
 protected:
  unsigned workers() const { return std::get<1>(GetParam()); }
  weft::Config config() const { return weft_test::make_config(std::get<0>(GetParam()), workers()); }
};

TEST_P(ExceptionsTest, ThrownInATaskIsRethrownAtItsJoin) {
  weft::Runtime rt(config());
  const int tasks = static_cast<int>(weft_test::scaled(400, 50));
  const auto caught = rt.run([] {
    std::vector<weft::Future<int>> fs;
    for (int i = 0; i < tasks; ++i) {
      fs.emplace_back(weft::spawn([i]() -> int {
        volatile std::int64_t sink = weft_fib(10);  // some work, so thieves find the others
        (void)sink;
        if (i % 3 == 0) throw TaskFailure(i);
        return i;
      }));
    }
    int caught = 0;
    for (int i = tasks - 1; i >= 0; --i) {
      try {
        const int v = fs[static_cast<std::size_t>(i)].join();
        EXPECT_NE(i % 3, 0) << "task " << i << " should have thrown";
        EXPECT_EQ(v, i);
      } catch (const TaskFailure& e) {
        EXPECT_EQ(e.id, i) << "a join must rethrow its own task's exception";
        ++caught;
      }
    }
    return caught;
  });
  EXPECT_EQ(caught, (tasks + 2) / 3);
}

TEST_P(ExceptionsTest, ThrowFromDeepInsideARecursionPropagatesToTheRoot) {
  weft::Runtime rt(config());
  for (int position : {0, 7, 100, 500}) {
    std::atomic<int> countdown{position};
    try {
      (void)rt.run([&] { return fib_throwing_at(16, countdown); });
      ADD_FAILURE() << "the leaf at position " << position << " should have thrown";
    } catch (const TaskFailure& e) {
      EXPECT_LE(e.id, 1);
    }
  }
  // Still usable.
  EXPECT_EQ(rt.run([] { return weft_fib(18); }), serial_fib(18));
}

TEST_P(ExceptionsTest, SiblingsOfAThrowingTaskAreStillJoined) {
  weft::Runtime rt(config());
  std::vector<std::atomic<int>> ran(64);
  EXPECT_THROW(rt.run([&] {
    weft::scope([&](weft::Scope& s) {
      for (int i = 0; i < 64; ++i) {
        s.spawn([&, i] {
          (void)weft_fib(8);
          ran[static_cast<std::size_t>(i)].fetch_add(1);
          if (i == 5 || i == 40) throw TaskFailure(i);
        });
      }
    });
  }),
               TaskFailure);
  for (int i = 0; i < 64; ++i)
    EXPECT_EQ(ran[static_cast<std::size_t>(i)].load(), 1) << "child " << i;

  // Futures: the one joined first throws; its older sibling is joined by its destructor
  // while the exception unwinds, so it has run by the time run() rethrows.
  std::atomic<int> older_ran{0};
  try {
    rt.run([&] {
      auto older = weft::spawn([&] {
        (void)weft_fib(12);
        older_ran.fetch_add(1);
        return 1;
      });
      auto newer = weft::spawn([]() -> int { throw TaskFailure(2); });
      return newer.join() + older.join();
    });
    ADD_FAILURE() << "expected TaskFailure";
  } catch (const TaskFailure& e) {
    EXPECT_EQ(e.id, 2);
  }
  EXPECT_EQ(older_ran.load(), 1);
}

TEST_P(ExceptionsTest, ScopeRethrowsTheFirstChildExceptionInJoinOrder) {
  weft::Runtime rt(config());
  std::atomic<int> ran{0};
  try {
    rt.run([&] {
      weft::scope([&](weft::Scope& s) {
        for (int i = 0; i < 10; ++i) {
          s.spawn([&, i] {
            ran.fetch_add(1);
            if (i == 2 || i == 7) throw TaskFailure(i);
          });
        }
      });
    });
    ADD_FAILURE() << "expected TaskFailure";
  } catch (const TaskFailure& e) {
    EXPECT_EQ(e.id, 7) << "children are joined newest first";
  }
  EXPECT_EQ(ran.load(), 10);

  // The body throws: its exception wins, children are still joined, theirs are discarded.
  ran = 0;
  try {
    rt.run([&] {
      weft::scope([&](weft::Scope& s) {
        for (int i = 0; i < 10; ++i) {
          s.spawn([&, i] {
            ran.fetch_add(1);
            throw TaskFailure(100 + i);
          });
        }
        throw std::logic_error("body");
      });
    });
    ADD_FAILURE() << "expected the body's exception";
  } catch (const std::logic_error& e) {
    EXPECT_STREQ(e.what(), "body");
  }
  EXPECT_EQ(ran.load(), 10);
}

// invoke_if's serial branch keeps invoke's rule: both sides run, and f's exception wins.
TEST_P(ExceptionsTest, InvokeIfCutOffRunsBothSidesAndPropagatesFFirst) {
  weft::Runtime rt(config());
  for (bool cond : {false, true}) {
    SCOPED_TRACE(cond ? "parallel" : "cut off");
    std::atomic<int> ran{0};
    try {
      rt.run([&] {
        (void)weft::invoke_if(
            cond,
            [&]() -> int {
              ran.fetch_add(1);
              throw TaskFailure(1);
            },
            [&]() -> int {
              ran.fetch_add(10);
              throw TaskFailure(2);
            });
      });
      ADD_FAILURE() << "expected TaskFailure";
    } catch (const TaskFailure& e) {
      EXPECT_EQ(e.id, 1);
    }
    EXPECT_EQ(ran.load(), 11) << "both sides run";
    EXPECT_THROW(rt.run([&] {
      (void)weft::invoke_if(
          cond, [&] { return ran.fetch_add(100); }, []() -> int { throw TaskFailure(3); });
    }),
                 TaskFailure);
    EXPECT_EQ(ran.load(), 111);
  }
}

TEST_P(ExceptionsTest, InvokePropagatesAndJoinsTheOtherSide) {
  weft::Runtime rt(config());
  std::atomic<int> g_ran{0};
  std::atomic<int> f_ran{0};
  // f throws: g is still joined.
  EXPECT_THROW(rt.run([&] {
    (void)weft::invoke([]() -> int { throw TaskFailure(1); },
                       [&] {
                         (void)weft_fib(12);
                         g_ran.fetch_add(1);
                         return 2;
                       });
  }),
               TaskFailure);
  EXPECT_EQ(g_ran.load(), 1);
  // g throws (possibly on a thief).
  try {
    rt.run([&] {
      (void)weft::invoke(
          [&] {
            f_ran.fetch_add(1);
            return weft_fib(14);
          },
          []() -> int { throw TaskFailure(2); });
    });
    ADD_FAILURE() << "expected TaskFailure";
  } catch (const TaskFailure& e) {
    EXPECT_EQ(e.id, 2);
  }
  EXPECT_EQ(f_ran.load(), 1);
  // Both throw: f's exception propagates.
  try {
    rt.run([] {
      (void)weft::invoke([]() -> int { throw TaskFailure(1); },
                         []() -> int { throw TaskFailure(2); });
    });
    ADD_FAILURE() << "expected TaskFailure";
  } catch (const TaskFailure& e) {
    EXPECT_EQ(e.id, 1);
  }
  // void and move-only sides: g (void) throws, f's value is dropped once f has run; f (void)
  // throws and g's move-only value is dropped.
  std::atomic<int> side_ran{0};
  EXPECT_THROW(rt.run([&] {
    (void)weft::invoke(
        [&] {
          side_ran.fetch_add(1);
          return std::make_unique<int>(7);
        },
        [] { throw TaskFailure(3); });
  }),
               TaskFailure);
  EXPECT_THROW(rt.run([&] {
    (void)weft::invoke([]() { throw TaskFailure(4); },
                       [&] {
                         side_ran.fetch_add(10);
                         return std::make_unique<int>(8);
                       });
  }),
               TaskFailure);
  EXPECT_EQ(side_ran.load(), 11);
  EXPECT_EQ(rt.run([] { return weft_fib(16); }), serial_fib(16));
}

TEST_P(ExceptionsTest, RootExceptionPropagatesToTheCaller) {
  weft::Runtime rt(config());
  try {
    rt.run([]() -> int { throw std::out_of_range("root says no"); });
    ADD_FAILURE() << "expected std::out_of_range";
  } catch (const std::out_of_range& e) {
    EXPECT_STREQ(e.what(), "root says no");
  }
  // Non-standard exception types travel too.
  EXPECT_THROW(rt.run([] { throw 42; }), int);
  // Still usable, from another thread as well.
  EXPECT_EQ(rt.run([] { return weft_fib(20); }), serial_fib(20));
  std::int64_t from_thread = 0;
  std::thread t([&] { from_thread = rt.run([] { return weft_fib(17); }); });
  t.join();
  EXPECT_EQ(from_thread, serial_fib(17));
}

TEST_P(ExceptionsTest, AnUnjoinedFuturesExceptionIsDiscarded) {
  weft::Runtime rt(config());
  std::atomic<int> ran{0};
  EXPECT_NO_THROW(rt.run([&] {
    auto f = weft::spawn([&]() -> int {
      ran.fetch_add(1);
      throw TaskFailure(3);
    });
    (void)weft_fib(10);
  }));  // f's destructor joins it and swallows the exception
  EXPECT_EQ(ran.load(), 1);
}

INSTANTIATE_TEST_SUITE_P(PoliciesAndWorkers, ExceptionsTest,
                         ::testing::Combine(::testing::Values("one", "half", "fixed:2", "adaptive"),
                                            ::testing::Values(1u, 2u, 4u)),
                         weft_test::PolicyCountName{});

// ---- Exceptions from tasks that were certainly stolen ----

// The task announces that it has started; the spawner waits for that before joining. With
// two or more workers only a thief can start it, so the join takes the stolen path. The
// task is spawned first (thieves take the oldest) and followed by fillers, so that fixed:20
// finds enough to take.
class StolenExceptionTest : public ::testing::TestWithParam<Param> {};

// Waits, polling, until a thief has started the task that sets `started`; false after 20 s.
bool started_within_20s(const std::atomic<bool>& started) {
  return weft_test::spin_until(
      [&] {
        weft::poll();  // the request mechanism hears thieves only here
        return started.load(std::memory_order_acquire);
      },
      20000ms);
}

TEST_P(StolenExceptionTest, ExceptionOfAStolenTaskIsRethrownAtTheJoin) {
  weft::Runtime rt(weft_test::make_config(std::get<0>(GetParam()), std::get<1>(GetParam())));
  for (int round = 0; round < 5; ++round) {
    std::atomic<bool> started{false};
    std::thread::id ran_on;
    std::thread::id spawned_on;
    bool stolen = false;
    try {
      rt.run([&]() -> int {
        spawned_on = std::this_thread::get_id();
        auto f = weft::spawn([&]() -> int {
          ran_on = std::this_thread::get_id();
          started.store(true, std::memory_order_release);
          throw TaskFailure(round);
        });
        std::vector<weft::Future<int>> fillers;
        for (int i = 0; i < 24; ++i) fillers.emplace_back(weft::spawn([i] { return i; }));
        stolen = started_within_20s(started);
        int sum = 0;
        while (!fillers.empty()) {
          sum += fillers.back().join();
          fillers.pop_back();
        }
        EXPECT_EQ(sum, 23 * 24 / 2);
        return f.join();
      });
      ADD_FAILURE() << "expected TaskFailure";
    } catch (const TaskFailure& e) {
      EXPECT_EQ(e.id, round);
    }
    ASSERT_TRUE(stolen) << "no worker stole the task within 20 s";
    EXPECT_NE(ran_on, spawned_on) << "the task should have run on a thief";
  }
  EXPECT_GE(rt.stats().total.stolen_joins, 5u);
  EXPECT_EQ(rt.run([] { return weft_fib(18); }), serial_fib(18));
}

TEST_P(StolenExceptionTest, StolenSiblingsAllRunAndEachJoinGetsItsOwnOutcome) {
  weft::Runtime rt(weft_test::make_config(std::get<0>(GetParam()), std::get<1>(GetParam())));
  constexpr int kTasks = 24;
  std::vector<std::atomic<int>> ran(kTasks);
  std::atomic<int> started{0};
  const int caught = rt.run([&] {
    std::vector<weft::Future<int>> fs;
    for (int i = 0; i < kTasks; ++i) {
      fs.emplace_back(weft::spawn([&, i]() -> int {
        ran[static_cast<std::size_t>(i)].fetch_add(1);
        started.fetch_add(1);
        if (i % 2 == 1) throw TaskFailure(i);
        return i * 10;
      }));
    }
    // Let thieves take some of them before joining.
    (void)weft_test::spin_until(
        [&] {
          weft::poll();  // the request mechanism hears thieves only here
          return started.load() > 0;
        },
        20000ms);
    int caught = 0;
    for (int i = kTasks - 1; i >= 0; --i) {
      try {
        EXPECT_EQ(fs[static_cast<std::size_t>(i)].join(), i * 10);
        EXPECT_EQ(i % 2, 0);
      } catch (const TaskFailure& e) {
        EXPECT_EQ(e.id, i);
        ++caught;
      }
    }
    return caught;
  });
  EXPECT_EQ(caught, kTasks / 2);
  for (int i = 0; i < kTasks; ++i) EXPECT_EQ(ran[static_cast<std::size_t>(i)].load(), 1) << i;
  EXPECT_GT(rt.stats().total.stolen_joins, 0u);
}

// weft::invoke spawns f and runs g: when g throws while a thief runs f, invoke waits for f
// before the exception leaves it (f's closure refers to the caller's frame). Fillers spawned
// first make f the twentieth-oldest task, so that fixed:20 takes it too.
TEST_P(StolenExceptionTest, InvokeJoinsAStolenFirstTaskBeforeRethrowingTheSecondsException) {
  weft::Runtime rt(weft_test::make_config(std::get<0>(GetParam()), std::get<1>(GetParam())));
  for (int round = 0; round < 5; ++round) {
    std::atomic<bool> started{false};
    std::atomic<bool> finished{false};
    bool stolen = false;
    bool finished_when_caught = false;
    int caught = -1;
    rt.run([&] {
      std::vector<weft::Future<int>> fillers;
      for (int i = 0; i < 19; ++i) fillers.emplace_back(weft::spawn([i] { return i; }));
      try {
        (void)weft::invoke(
            [&] {
              started.store(true, std::memory_order_release);
              std::this_thread::sleep_for(20ms);
              finished.store(true, std::memory_order_release);
              return 1;
            },
            [&]() -> int {
              stolen = started_within_20s(started);
              throw TaskFailure(round);
            });
      } catch (const TaskFailure& e) {
        caught = e.id;
        finished_when_caught = finished.load(std::memory_order_acquire);
      }
      while (!fillers.empty()) {
        (void)fillers.back().join();
        fillers.pop_back();
      }
    });
    ASSERT_TRUE(stolen) << "no worker stole the task within 20 s";
    EXPECT_EQ(caught, round);
    EXPECT_TRUE(finished_when_caught) << "invoke rethrew before its stolen task had finished";
  }
}

INSTANTIATE_TEST_SUITE_P(PoliciesAndWorkers, StolenExceptionTest,
                         ::testing::Combine(::testing::Values("one", "fixed:2", "fixed:20", "half",
                                                              "adaptive"),
                                            ::testing::Values(2u, 4u)),
                         weft_test::PolicyCountName{});

}  // namespace
