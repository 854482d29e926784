// Heap accounting (weft/memory.hpp) and the memory quota of the depth-first schedulers:
// allocate/deallocate and the pmr resource keep the process's figures; under df and dfd a
// thread whose allocation would take it past its quota is preempted before it, and a larger
// allocation forks one dummy per quota first and is then made, while fifo never does
// either; and on a tree of threads that each hold a block across their children, df and dfd
// stay within S1 + 4 p D K where fifo does not.
#include <gtest/gtest.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory_resource>
#include <thread>
#include <vector>

#include "thread_test_config.hpp"
#include "weft/detail/sanitizers.hpp"
#include "weft/weft.hpp"

namespace {

using weft::ThreadSched;

weft::Config config(ThreadSched sched, unsigned workers, std::size_t quota) {
  return weft_test::thread_config(sched, workers, quota);
}

TEST(HeapAccounting, CountsInUseAndHighWaterOutsideARuntime) {
  const std::size_t base = weft::heap_usage().in_use;
  weft::reset_heap_high_water();
  void* a = weft::allocate(1000);
  void* b = weft::allocate(3000, 64);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b) % 64, 0u);
  EXPECT_EQ(weft::heap_usage().in_use, base + 4000);
  weft::deallocate(b, 3000, 64);
  void* c = weft::allocate(500);
  EXPECT_EQ(weft::heap_usage().in_use, base + 1500);
  EXPECT_EQ(weft::heap_usage().high_water, base + 4000);
  weft::deallocate(a, 1000);
  weft::deallocate(c, 500);
  EXPECT_EQ(weft::heap_usage().in_use, base);
  weft::reset_heap_high_water();
  EXPECT_EQ(weft::heap_usage().high_water, base);
}

TEST(HeapAccounting, ThePmrResourceAllocatesThroughIt) {
  const std::size_t base = weft::heap_usage().in_use;
  {
    std::pmr::vector<int> v(weft::memory_resource());
    v.resize(1000);
    EXPECT_GE(weft::heap_usage().in_use, base + 1000 * sizeof(int));
  }
  EXPECT_EQ(weft::heap_usage().in_use, base);
  EXPECT_TRUE(weft::memory_resource()->is_equal(*weft::memory_resource()));
  EXPECT_FALSE(weft::memory_resource()->is_equal(*std::pmr::new_delete_resource()));
}

class Quota : public ::testing::TestWithParam<ThreadSched> {};

INSTANTIATE_TEST_SUITE_P(AllSchedulers, Quota,
                         ::testing::Values(ThreadSched::kFifo, ThreadSched::kLifo, ThreadSched::kDf,
                                           ThreadSched::kDfd),
                         weft_test::sched_name);

bool depth_first(ThreadSched s) { return s == ThreadSched::kDf || s == ThreadSched::kDfd; }

// The runtime's thread statistics once no thread is live. A thread that ended counts as live
// until the worker it ran on has released its stack, just after switching away from it; the
// joiner, and run(), may return a moment before that (seen under ThreadSanitizer). 10 s
// without it is a thread that never ended.
weft::ThreadStats stats_once_none_live(const weft::Runtime& rt) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  weft::ThreadStats s = rt.stats().threads;
  while (s.live != 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    s = rt.stats().threads;
  }
  return s;
}

TEST_P(Quota, PreemptsBeforeAnAllocationPastTheQuotaAndDelaysLargeAllocations) {
  constexpr std::size_t kQuota = 4096;
  weft::Runtime rt(config(GetParam(), 2, kQuota));
  rt.reset_stats();
  rt.run([] {
    weft::thread t([] {
      std::vector<void*> blocks;
      // Blocks 1-4 fill the first quota exactly; the 5th and the 9th would pass it, so the
      // thread is preempted before each and makes it with a fresh quota.
      for (int i = 0; i < 12; ++i) blocks.push_back(weft::allocate(1024));
      // 10 dummies first, which pay for it: no preemption.
      void* large = weft::allocate(10 * kQuota);
      weft::deallocate(large, 10 * kQuota);
      for (void* p : blocks) weft::deallocate(p, 1024);
    });
    t.join();
  });
  const weft::ThreadStats s = stats_once_none_live(rt);
  if (depth_first(GetParam())) {
    EXPECT_EQ(s.dummies, 10u);
    EXPECT_EQ(s.made, 11u);  // the thread and its dummies
    EXPECT_EQ(s.preemptions, 2u);
  } else {
    EXPECT_EQ(s.dummies, 0u);
    EXPECT_EQ(s.preemptions, 0u);
    EXPECT_EQ(s.made, 1u);
  }
  EXPECT_EQ(s.live, 0u);
}

// Under dfd a dummy stands for K of its allocation's bytes, so the worker whose dummy ended
// has spent its quota: it gives up its deque and steals from the leftmost one (DFDeques),
// under the scheduler's lock, where it would otherwise pop its own deque without it.
TEST(QuotaDfd, EachDummysEndSendsItsWorkerToTheLeftmostDequeUnderTheLock) {
  constexpr std::size_t kQuota = 4096;
  constexpr std::uint64_t kDummies = 64;
  weft::Runtime rt(config(ThreadSched::kDfd, 1, kQuota));
  rt.run([] {
    weft::thread t([] { weft::deallocate(weft::allocate(kDummies * kQuota), kDummies * kQuota); });
    t.join();
  });
  const weft::ThreadStats s = stats_once_none_live(rt);
  EXPECT_EQ(s.dummies, kDummies);
  EXPECT_GE(s.sched_lock_acquisitions, kDummies);
}

TEST_P(Quota, ZeroTurnsItOff) {
  weft::Runtime rt(config(GetParam(), 1, 0));
  rt.reset_stats();
  rt.run([] {
    weft::thread t([] { weft::deallocate(weft::allocate(1 << 20), 1 << 20); });
    t.join();
  });
  EXPECT_EQ(rt.stats().threads.preemptions, 0u);
  EXPECT_EQ(rt.stats().threads.dummies, 0u);
}

// A complete binary tree of threads, `depth` levels of forks below the root; each node
// allocates `block` bytes, holds them while its two children run, and frees them. Serially
// (depth-first) at most depth + 1 blocks are held at once: S1.
void tree(int depth, std::size_t block) {
  void* held = weft::allocate(block);
  if (depth > 0) {
    weft::thread left([=] { tree(depth - 1, block); });
    weft::thread right([=] { tree(depth - 1, block); });
    left.join();
    right.join();
  }
  weft::deallocate(held, block);
}

std::size_t tree_high_water(ThreadSched sched, unsigned workers, int depth, std::size_t block) {
  weft::Runtime rt(config(sched, workers, block));
  const std::size_t base = weft::heap_usage().in_use;
  weft::reset_heap_high_water();
  rt.run([&] {
    weft::thread root([&] { tree(depth, block); });
    root.join();
  });
  return weft::heap_usage().high_water - base;
}

TEST_P(Quota, HoldsTheDepthFirstBoundOnATreeWhereFifoDoesNot) {
  constexpr int kDepth = 10;
  constexpr std::size_t kBlock = 4096;  // = K: no dummies; each node's block fills its quota
  constexpr unsigned kWorkers = 2;
  const std::size_t s1 = (kDepth + 1) * kBlock;
  const std::size_t bound = s1 + 4 * kWorkers * kDepth * kBlock;
  const std::size_t high = tree_high_water(GetParam(), kWorkers, kDepth, kBlock);
  if (depth_first(GetParam())) {
    EXPECT_LE(high, bound) << "S1 " << s1;
  } else if (GetParam() == ThreadSched::kFifo) {
    EXPECT_GE(high, 20 * s1);  // breadth-first: most of the tree's 2047 blocks at once
  }
}

// A tree of threads whose nodes allocate, sum their subtree and yield now and then, with
// 8 workers on this machine's cores and a quota small enough to preempt at every node (its
// second block would pass it): the schedulers' steal, preempt and deque-overflow paths run under
// contention, and a lost or doubly-run thread shows in the sum.
constexpr std::size_t kStressBlock = 512;
constexpr std::size_t kStressQuota = 768;  // one block fits, two do not

std::uint64_t counting_tree(int depth, std::uint64_t label) {
  void* held = weft::allocate(kStressBlock);
  void* second = weft::allocate(kStressBlock);  // df, dfd: preempted before this one
  std::uint64_t sum = label;
  if (depth > 0) {
    std::uint64_t left_sum = 0;
    weft::thread left([&] { left_sum = counting_tree(depth - 1, 2 * label); });
    if (label % 7 == 0) weft::this_thread::yield();
    sum += counting_tree(depth - 1, 2 * label + 1);
    left.join();
    sum += left_sum;
  }
  weft::deallocate(second, kStressBlock);
  weft::deallocate(held, kStressBlock);
  return sum;
}

TEST_P(Quota, StressForksJoinsYieldsAndPreemptionsOversubscribed) {
  constexpr int kDepth = 10;
  std::uint64_t expected = 0;  // the labels of a heap-numbered complete tree: 1 .. 2^(d+1)-1
  for (std::uint64_t i = 1; i < (std::uint64_t{2} << kDepth); ++i) expected += i;
  // Sanitized builds are some 100 times slower here: fewer rounds, the same paths.
  const int rounds = (WEFT_DETAIL_ASAN || WEFT_DETAIL_TSAN) ? 3 : 30;
  for (int round = 0; round < rounds; ++round) {
    weft::Runtime rt(config(GetParam(), 8, kStressQuota));
    const std::uint64_t got = rt.run([] {
      std::uint64_t result = 0;
      weft::thread root([&] { result = counting_tree(kDepth, 1); });
      root.join();
      return result;
    });
    ASSERT_EQ(got, expected) << "round " << round;
    // One preemption per node, every node (2^(d+1) - 1 of them).
    if (depth_first(GetParam())) {
      ASSERT_EQ(rt.stats().threads.preemptions, (std::uint64_t{2} << kDepth) - 1);
    }
  }
}

}  // namespace
