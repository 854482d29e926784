// Cutoffs (include/weft/cutoff.hpp) keep results exact and do what they say about spawning.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>
#include <weft/weft.hpp>

#include "test_support.hpp"

namespace {

// fib with a max-level cutoff: spawn only above depth `cut`.
long fib_max_level(int n, int depth, int cut) {
  if (n < 2) return n;
  auto a = weft::spawn_if(depth < cut, [=] { return fib_max_level(n - 1, depth + 1, cut); });
  const long b = fib_max_level(n - 2, depth + 1, cut);
  return a.join() + b;
}

// fib with a max-tasks cutoff: spawn only while fewer than k tasks wait on this worker.
long fib_max_tasks(int n, int k) {
  if (n < 2) return n;
  auto a = weft::spawn_if(weft::pending_tasks() < k, [=] { return fib_max_tasks(n - 1, k); });
  const long b = fib_max_tasks(n - 2, k);
  return a.join() + b;
}

long fib_ref(int n) { return n < 2 ? n : fib_ref(n - 1) + fib_ref(n - 2); }

TEST(Cutoff, MaxLevelIsExactAndBoundsTheSpawns) {
  weft::Config c = weft_test::counting_config();
  c.workers = 2;
  weft::Runtime rt(c);
  for (int cut : {0, 1, 5, 12, 100}) {
    rt.reset_stats();
    EXPECT_EQ(rt.run([cut] { return fib_max_level(22, 0, cut); }), fib_ref(22)) << cut;
    // Nodes above depth `cut` number at most 2^cut - 1, so spawns do too.
    const std::uint64_t bound = cut >= 40 ? ~0ull : (1ull << cut) - 1;
    EXPECT_LE(rt.stats().total.spawns, bound) << "cut " << cut;
  }
  rt.reset_stats();
  (void)rt.run([] { return fib_max_level(22, 0, 0); });
  EXPECT_EQ(rt.stats().total.spawns, 0u) << "a cut at depth 0 spawns nothing";
}

TEST(Cutoff, MaxTasksIsExactAndKeepsTheStackShallow) {
  weft::Config c = weft_test::counting_config();
  c.workers = 1;  // on one worker nothing is stolen, so the bound on pending tasks is exact
  weft::Runtime rt(c);
  for (int k : {0, 1, 3, 8}) {
    EXPECT_EQ(rt.run([k] { return fib_max_tasks(20, k); }), fib_ref(20)) << k;
  }
  rt.reset_stats();
  (void)rt.run([] { return fib_max_tasks(20, 0); });
  EXPECT_EQ(rt.stats().total.spawns, 0u);
}

TEST(Cutoff, SpawnIfFalseRunsAtOnceAndKeepsExceptions) {
  int ran = 0;
  auto f = weft::spawn_if(false, [&ran] { return ++ran; });
  EXPECT_EQ(ran, 1) << "an if-clause that is false runs the task at the spawn";
  EXPECT_EQ(f.join(), 1);
  auto g = weft::spawn_if(false, []() -> int { throw std::runtime_error("cut"); });
  EXPECT_THROW(g.join(), std::runtime_error);
}

// A cut-off task's outcome kept as a Future<T> (a MaybeFuture converted) waits in a ready slot
// that its thread reuses after the join. Many pending cut-off futures at once, values larger
// than a word and exceptions, joined in order, must each get their own outcome back, however
// the slots are recycled.
TEST(Cutoff, RecycledReadySlotsKeepEachOutcome) {
  weft::Config c = weft_test::counting_config();
  c.workers = 2;
  weft::Runtime rt(c);
  const long total = rt.run([] {
    long sum = 0;
    for (int round = 0; round < 50; ++round) {
      std::vector<weft::Future<std::string>> futures;
      for (int i = 0; i < 300; ++i) {  // more than a worker keeps on its free list
        futures.push_back(weft::spawn_if(false, [i]() -> std::string {
          if (i % 7 == 3) throw std::runtime_error("cut");
          return std::string(40, static_cast<char>('a' + i % 26));
        }));
      }
      for (int i = 299; i >= 0; --i) {
        if (i % 7 == 3) {
          EXPECT_THROW(futures[static_cast<std::size_t>(i)].join(), std::runtime_error);
          futures.pop_back();
          continue;
        }
        const std::string v = futures[static_cast<std::size_t>(i)].join();
        futures.pop_back();
        EXPECT_EQ(v, std::string(40, static_cast<char>('a' + i % 26))) << i;
        sum += static_cast<long>(v.size());
      }
    }
    return sum;
  });
  EXPECT_EQ(total, 50L * 40 * (300 - 43));
}

// A cut-off future made on a worker (converted to Future<int>, so in a ready slot) may be
// joined on another thread, here outside any runtime after run() returned: its slot then goes
// to that thread's list.
TEST(Cutoff, ReadySlotJoinedOnAnotherThread) {
  weft::Config c = weft_test::counting_config();
  c.workers = 2;
  std::vector<weft::Future<int>> made;
  {
    weft::Runtime rt(c);
    made = rt.run([] {
      std::vector<weft::Future<int>> v;
      for (int i = 0; i < 10; ++i) v.push_back(weft::spawn_if(false, [i] { return i * i; }));
      return v;
    });
  }
  int sum = 0;
  while (!made.empty()) {
    sum += made.back().join();
    made.pop_back();
  }
  EXPECT_EQ(sum, 285);
}

TEST(Cutoff, PendingTasksOutsideARuntimeIsZero) { EXPECT_EQ(weft::pending_tasks(), 0); }

}  // namespace
