// The dfd scheduler's list R of deques, driven by hand on one OS thread (no runtime; the
// scheduler only moves thread records between deques): where a thief's deque goes in the
// depth-first order, and the worker that gives up its deque when a dummy spent its quota.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "threads/thread_scheduler.hpp"

namespace {

using weft::ThreadSched;
using weft::detail::ThreadScheduler;
using weft::detail::UThread;

constexpr int kW0 = 0;
constexpr int kW1 = 1;

class DfdScheduler : public ::testing::Test {
 protected:
  DfdScheduler() : sched_(ThreadSched::kDfd) {
    sched_.set_workers(2);
    sched_.set_waker([](void*) {}, nullptr);
  }

  UThread* thread() {
    threads_.push_back(std::make_unique<UThread>());
    return threads_.back().get();
  }

  // Leaves R = [D1, D0]: worker 1's deque left of worker 0's, both empty and owned.
  // Worker 0 preempts `c` onto its deque, which holds `a` beneath it, and leaves it. Worker 1
  // takes the leftmost of that ownerless deque, `c`, and so must sit just left of it: `c`
  // and what it makes precede `a`. Worker 0 then takes `a` and starts a deque right of D1.
  void two_deques_worker1_leftmost() {
    UThread* const a = thread();
    UThread* const c = thread();
    sched_.resume_creator(a, kW0);  // a waits on worker 0's deque
    sched_.preempt(c, kW0);         // c on top of it; the deque is left to anyone
    ASSERT_EQ(sched_.take(kW1), c) << "the leftmost thread of an ownerless deque";
    ASSERT_EQ(sched_.take(kW0), a);
  }

  ThreadScheduler sched_;
  std::vector<std::unique_ptr<UThread>> threads_;
};

TEST_F(DfdScheduler, AThiefOfAnOwnerlessDequesLeftmostThreadSitsLeftOfIt) {
  UThread* const a = thread();
  UThread* const c = thread();
  UThread* const d = thread();
  sched_.resume_creator(a, kW0);
  sched_.preempt(c, kW0);  // worker 0's deque [a, c], c leftmost, now ownerless
  ASSERT_EQ(sched_.take(kW1), c);
  sched_.resume_creator(d, kW1);  // c made d and waits: d comes before a in the order
  // Worker 0 has no deque: it steals from the leftmost deque with a thread, which must be
  // worker 1's (holding d), not the ownerless one still holding a.
  EXPECT_EQ(sched_.take(kW0), d);
  EXPECT_EQ(sched_.take(kW0), a);
  EXPECT_EQ(sched_.take(kW1), nullptr);
}

TEST_F(DfdScheduler, AfterADummyTheWorkerStealsFromTheLeftmostDeque) {
  two_deques_worker1_leftmost();
  UThread* const x = thread();
  UThread* const y = thread();
  sched_.resume_creator(y, kW1);  // D1 = [y]
  sched_.resume_creator(x, kW0);  // D0 = [x], right of D1
  // A plain take would pop x from worker 0's own deque; a spent quota sends the worker to
  // the leftmost deque that has a thread instead.
  EXPECT_EQ(sched_.take_after_quota(kW0), y);
  // Worker 0's old deque was left to anyone: worker 1, out of threads, takes x from it.
  EXPECT_EQ(sched_.take(kW1), x);
  EXPECT_EQ(sched_.take(kW0), nullptr);
}

TEST_F(DfdScheduler, AfterADummyTheWorkerTakesBackItsOwnThreadWhenNothingIsLeftOfIt) {
  UThread* const x = thread();
  UThread* const z = thread();
  sched_.resume_creator(z, kW0);
  sched_.resume_creator(x, kW0);  // worker 0's deque [z, x], x newest and leftmost
  EXPECT_EQ(sched_.take_after_quota(kW0), x);
  EXPECT_EQ(sched_.take(kW0), z);
  EXPECT_EQ(sched_.take(kW0), nullptr);
}

}  // namespace
