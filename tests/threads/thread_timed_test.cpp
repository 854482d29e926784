// Timed waits under every thread scheduler: condition_variable::wait_for/wait_until (with and
// without a predicate), counting_semaphore::try_acquire_for/until and this_thread::sleep_for,
// in threads and in tasks. What must hold: a wait that nobody ends ends at its deadline and
// not before; a notify before the deadline ends it as a notify; a sleeping thread leaves its
// worker to others; no unit of a semaphore and no notify_one is lost to a waiter that timed
// out meanwhile (the race the claim protocol settles); a long timed wait is no deadlock.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "thread_test_config.hpp"
#include "threads/timers.hpp"
#include "weft/weft.hpp"

namespace {

using weft::ThreadSched;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

class TimedWaits : public ::testing::TestWithParam<ThreadSched> {};

INSTANTIATE_TEST_SUITE_P(AllSchedulers, TimedWaits,
                         ::testing::Values(ThreadSched::kFifo, ThreadSched::kLifo, ThreadSched::kDf,
                                           ThreadSched::kDfd),
                         weft_test::sched_name);

// Runs body(m, cv, sem) in a weft::thread under `sched` on 2 workers, the semaphore at 0.
template <class Body>
void in_a_thread(ThreadSched sched, Body body) {
  weft::Runtime rt(weft_test::thread_config(sched, 2));
  rt.run([&] {
    weft::mutex m;
    weft::condition_variable cv;
    weft::counting_semaphore<> sem(0);
    weft::thread t([&] { body(m, cv, sem); });
    t.join();
  });
}

TEST_P(TimedWaits, AWaitNobodyEndsEndsAtItsDeadline) {
  in_a_thread(GetParam(), [](weft::mutex& m, weft::condition_variable& cv, auto& sem) {
    std::unique_lock lock(m);
    auto start = Clock::now();
    EXPECT_EQ(cv.wait_for(lock, milliseconds(20)), std::cv_status::timeout);
    EXPECT_GE(Clock::now() - start, milliseconds(20));
    EXPECT_TRUE(lock.owns_lock());
    start = Clock::now();
    EXPECT_FALSE(cv.wait_for(lock, milliseconds(20), [] { return false; }));
    EXPECT_GE(Clock::now() - start, milliseconds(20));
    lock.unlock();
    start = Clock::now();
    EXPECT_FALSE(sem.try_acquire_for(milliseconds(20)));
    EXPECT_GE(Clock::now() - start, milliseconds(20));
    // Another clock, converted at the call.
    start = Clock::now();
    EXPECT_FALSE(sem.try_acquire_until(std::chrono::system_clock::now() + milliseconds(20)));
    EXPECT_GE(Clock::now() - start, milliseconds(19));
    start = Clock::now();
    weft::this_thread::sleep_for(milliseconds(20));
    EXPECT_GE(Clock::now() - start, milliseconds(20));
  });
}

TEST_P(TimedWaits, ADeadlineInThePastIsATimeout) {
  in_a_thread(GetParam(), [](weft::mutex& m, weft::condition_variable& cv, auto& sem) {
    std::unique_lock lock(m);
    EXPECT_EQ(cv.wait_until(lock, Clock::now() - milliseconds(5)), std::cv_status::timeout);
    EXPECT_FALSE(cv.wait_for(lock, milliseconds(-5), [] { return false; }));
    EXPECT_TRUE(cv.wait_for(lock, milliseconds(0), [] { return true; }));
    lock.unlock();
    EXPECT_FALSE(sem.try_acquire_for(milliseconds(0)));
    sem.release();
    EXPECT_TRUE(sem.try_acquire_for(milliseconds(0)));
    weft::this_thread::sleep_until(Clock::now() - milliseconds(5));  // returns
  });
}

TEST_P(TimedWaits, ANotifyBeforeTheDeadlineEndsTheWait) {
  weft::Runtime rt(weft_test::thread_config(GetParam(), 2));
  rt.run([] {
    weft::mutex m;
    weft::condition_variable cv;
    bool ready = false;
    weft::thread waiter([&] {
      std::unique_lock lock(m);
      // An hour: only the notify can end this within the test's time.
      EXPECT_TRUE(cv.wait_for(lock, std::chrono::hours(1), [&] { return ready; }));
    });
    weft::thread notifier([&] {
      weft::this_thread::sleep_for(milliseconds(5));
      std::scoped_lock lock(m);
      ready = true;
      cv.notify_all();
    });
    notifier.join();
    waiter.join();
  });
}

TEST_P(TimedWaits, ASleepingThreadLeavesItsWorkerToOthers) {
  // One worker: the other thread can only run while the sleeper is parked.
  weft::Runtime rt(weft_test::thread_config(GetParam(), 1));
  rt.run([] {
    std::atomic<bool> other_ran{false};
    weft::thread sleeper([&] {
      weft::this_thread::sleep_for(milliseconds(30));
      EXPECT_TRUE(other_ran.load());
    });
    weft::thread other([&] { other_ran.store(true); });
    other.join();
    sleeper.join();
  });
}

// Two threads that only yield to each other switch from thread to thread and never pass
// through the worker's own stack, where it looks at the deadlines between threads: the yield
// itself must look, or on one worker the sleeper below never wakes. The yielders give up
// after 10 s, a hang guard far beyond the 2 ms the sleep takes.
TEST_P(TimedWaits, ADeadlineFiresWhileTwoThreadsOnlyYieldToEachOther) {
  weft::Runtime rt(weft_test::thread_config(GetParam(), 1));
  rt.run([] {
    std::atomic<bool> woke{false};
    weft::counting_semaphore<> going_to_sleep(0);
    weft::thread sleeper([&] {
      going_to_sleep.release();
      weft::this_thread::sleep_for(milliseconds(2));
      woke.store(true);
    });
    // The yielders start once the sleeper has run: lifo would otherwise never reach it.
    going_to_sleep.acquire();
    const auto give_up = Clock::now() + std::chrono::seconds(10);
    std::atomic<int> gave_up{0};
    auto yield_until_woken = [&] {
      while (!woke.load()) {
        if (Clock::now() > give_up) {
          gave_up.fetch_add(1);
          return;
        }
        weft::this_thread::yield();
      }
    };
    weft::thread a(yield_until_woken);
    weft::thread b(yield_until_woken);
    a.join();
    b.join();
    EXPECT_EQ(gave_up.load(), 0) << "the sleeper's deadline never fired while the others yielded";
    sleeper.join();
  });
}

TEST_P(TimedWaits, TasksWaitWithDeadlinesToo) {
  weft::Runtime rt(weft_test::thread_config(GetParam(), 2));
  rt.run([] {
    weft::mutex m;
    weft::condition_variable cv;
    weft::counting_semaphore<> sem(0);
    auto waits = [&] {
      std::unique_lock lock(m);
      auto start = Clock::now();
      EXPECT_EQ(cv.wait_for(lock, milliseconds(10)), std::cv_status::timeout);
      EXPECT_GE(Clock::now() - start, milliseconds(10));
      lock.unlock();
      start = Clock::now();
      EXPECT_FALSE(sem.try_acquire_for(milliseconds(10)));
      weft::this_thread::sleep_for(milliseconds(10));
      EXPECT_GE(Clock::now() - start, milliseconds(20));
    };
    auto f = weft::spawn(waits);  // a task (stolen or not) on a worker's own stack
    waits();
    f.join();
  });
}

// Units released while timed acquirers come and go: every unit is taken by an acquirer
// that reports success or is still in the count at the end. A unit handed to a waiter whose
// deadline had already claimed it would vanish, and the sum would come up short.
TEST_P(TimedWaits, NoSemaphoreUnitIsLostToAWaiterThatTimedOut) {
  weft::Runtime rt(weft_test::thread_config(GetParam(), 2));
  const int rounds = static_cast<int>(weft_test::scaled(200));
  rt.run([] {
    for (int round = 0; round < rounds; ++round) {
      weft::counting_semaphore<> sem(0);
      std::atomic<int> acquired{0};
      constexpr int kWaiters = 16;
      constexpr int kUnits = 12;
      std::vector<weft::thread> waiters;
      for (int i = 0; i < kWaiters; ++i) {
        waiters.emplace_back([&, i] {
          // Deadlines of 0 to 300 us: most end while the releases are under way.
          if (sem.try_acquire_for(std::chrono::microseconds(20 * i))) acquired.fetch_add(1);
        });
      }
      weft::thread releaser([&] {
        // One unit every 25 us, over the waiters' deadlines: releases meet timeouts.
        const auto start = Clock::now();
        for (int u = 0; u < kUnits; ++u) {
          while (Clock::now() < start + std::chrono::microseconds(25 * u)) {
            weft::this_thread::yield();
          }
          sem.release();
        }
      });
      releaser.join();
      for (weft::thread& t : waiters) t.join();
      int left = 0;
      while (sem.try_acquire()) ++left;
      ASSERT_EQ(acquired.load() + left, kUnits) << "round " << round;
    }
  });
}

// notify_one while timed waiters give up: each notify_one that finds a waiter wakes one that
// counts itself notified, so none is lost to a waiter that timed out (which pop_front skips).
TEST_P(TimedWaits, NoNotifyOneIsLostToAWaiterThatTimedOut) {
  weft::Runtime rt(weft_test::thread_config(GetParam(), 2));
  const int rounds = static_cast<int>(weft_test::scaled(200));
  rt.run([] {
    for (int round = 0; round < rounds; ++round) {
      weft::mutex m;
      weft::condition_variable cv;
      int tokens = 0;  // guarded by m: handed out by the notifier, taken by waiters
      int taken = 0;
      constexpr int kWaiters = 16;
      std::vector<weft::thread> waiters;
      for (int i = 0; i < kWaiters; ++i) {
        waiters.emplace_back([&, i] {
          std::unique_lock lock(m);
          if (cv.wait_for(lock, std::chrono::microseconds(20 * i), [&] { return tokens > 0; })) {
            --tokens;
            ++taken;
          }
        });
      }
      constexpr int kTokens = 8;
      const auto start = Clock::now();
      for (int k = 0; k < kTokens; ++k) {
        while (Clock::now() < start + std::chrono::microseconds(35 * k)) {
          weft::this_thread::yield();
        }
        {
          std::scoped_lock lock(m);
          ++tokens;
        }
        cv.notify_one();
      }
      for (weft::thread& t : waiters) t.join();
      std::scoped_lock lock(m);
      ASSERT_EQ(taken + tokens, kTokens) << "round " << round;
    }
  });
}

// A node of a task (woken by a flag) queued on its own list with a deadline already past,
// and armed in a Timers of its own.
struct ArmedNode {
  weft::detail::WaitList list;
  weft::detail::WaitNode node;
  weft::detail::Timers timers;
  ArmedNode() {
    node.deadline_ns = weft::detail::steady_now_ns() - 1;
    node.list = &list;
    list.lock();
    list.push_back(node);
    timers.add(node);
    list.unlock();
  }
};

// The claim protocol step by step, outside any runtime: whichever of the notifier and the
// deadline claims the node first wakes it, the other leaves it alone, and a notifier skips a
// node its deadline claimed.
TEST(TimedWaitProtocol, TheNotifierAndTheDeadlineWakeANodeExactlyOnce) {
  {  // The notifier first: the deadline, passing later, does nothing.
    ArmedNode a;
    a.list.lock();
    EXPECT_EQ(a.list.pop_front(), &a.node);
    a.list.unlock();
    a.timers.expire();
    EXPECT_TRUE(a.node.timer_done.load());
    EXPECT_FALSE(a.node.timed_out);
    EXPECT_FALSE(a.node.signaled.load());
  }
  {  // The deadline first: the node is unlinked and woken as timed out.
    ArmedNode a;
    EXPECT_TRUE(a.timers.armed());
    a.timers.expire();
    EXPECT_FALSE(a.timers.armed());
    EXPECT_TRUE(a.node.timed_out);
    EXPECT_TRUE(a.node.signaled.load());
    a.list.lock();
    EXPECT_EQ(a.list.pop_front(), nullptr);
    a.list.unlock();
  }
  {  // A node its deadline claimed (not yet unlinked) is skipped for the next one.
    weft::detail::WaitList list;
    weft::detail::WaitNode timed, plain;
    timed.deadline_ns = weft::detail::steady_now_ns() - 1;
    list.lock();
    list.push_back(timed);
    list.push_back(plain);
    timed.claim.store(1);
    EXPECT_EQ(list.pop_front(), &plain);
    EXPECT_EQ(list.pop_front(), nullptr);
    list.unlock();
  }
}

TEST(TimedWaitsDeadlock, ALongTimedWaitIsNoDeadlock) {
  weft::Config c = weft_test::thread_config(ThreadSched::kDf, 2);
  c.deadlock = weft::DeadlockAction::kAbort;
  c.deadlock_ms = 20;  // the sleep below outlasts it five times over
  weft::Runtime rt(c);
  rt.run([] {
    weft::thread t([] { weft::this_thread::sleep_for(milliseconds(100)); });
    t.join();
    weft::this_thread::sleep_for(milliseconds(100));  // a task's sleep
  });
  SUCCEED();
}

}  // namespace
