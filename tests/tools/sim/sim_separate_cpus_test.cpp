// SeparateCpus (tools/sim/calibrate/separate_cpus.hpp): while one lives, its thread runs on one CPU
// and a helper it places on another; afterwards the thread has its CPUs back. calibrate's claim and
// round-trip costs depend on it (on one CPU a membarrier interrupts nobody).
#include <gtest/gtest.h>
#include <sched.h>

#include <algorithm>
#include <thread>
#include <vector>

#include "platform/native_thread.hpp"
#include "tools/sim/calibrate/separate_cpus.hpp"

namespace {

using sim::SeparateCpus;

// Restores the calling thread's CPUs at the end of a test, whatever it did to them.
struct RestoreCpus {
  std::vector<int> saved = weft::platform::thread_cpus();
  ~RestoreCpus() { (void)weft::platform::set_thread_cpus(saved); }
};

TEST(SeparateCpusTest, TheCallerKeepsOneCpuAndAHelperRunsOnAnother) {
  const RestoreCpus restore;
  const std::vector<int> before = weft::platform::thread_cpus();
  if (before.size() < 2) GTEST_SKIP() << "needs two CPUs";
  {
    const SeparateCpus placement;
    ASSERT_GE(placement.own(), 0);
    EXPECT_EQ(weft::platform::thread_cpus(), std::vector<int>{placement.own()});
    EXPECT_EQ(sched_getcpu(), placement.own());
    ASSERT_EQ(placement.others().size(), before.size() - 1);
    for (const int cpu : placement.others()) {
      EXPECT_NE(cpu, placement.own());
      EXPECT_NE(std::find(before.begin(), before.end(), cpu), before.end());
    }
    const int target = placement.others().front();
    bool placed = false;
    std::vector<int> helper_cpus;
    int helper_ran_on = -1;
    std::thread helper([&] {
      placed = SeparateCpus::place_helper(target);
      helper_cpus = weft::platform::thread_cpus();
      helper_ran_on = sched_getcpu();
    });
    helper.join();
    EXPECT_TRUE(placed);
    EXPECT_EQ(helper_cpus, std::vector<int>{target});
    EXPECT_EQ(helper_ran_on, target);
  }
  EXPECT_EQ(weft::platform::thread_cpus(), before);
}

TEST(SeparateCpusTest, OnOneCpuNothingIsPlaced) {
  const RestoreCpus restore;
  const std::vector<int> before = weft::platform::thread_cpus();
  ASSERT_FALSE(before.empty());
  ASSERT_TRUE(weft::platform::set_thread_cpus({before.back()}));
  {
    const SeparateCpus placement;
    EXPECT_EQ(placement.own(), -1);
    EXPECT_TRUE(placement.others().empty());
    EXPECT_EQ(weft::platform::thread_cpus(), std::vector<int>{before.back()});
  }
  EXPECT_EQ(weft::platform::thread_cpus(), std::vector<int>{before.back()});
}

TEST(SeparateCpusTest, BadCpuListsAreRefused) {
  const RestoreCpus restore;
  const std::vector<int> before = weft::platform::thread_cpus();
  EXPECT_FALSE(weft::platform::set_thread_cpus({}));
  EXPECT_FALSE(weft::platform::set_thread_cpus({-1}));
  EXPECT_FALSE(weft::platform::set_thread_cpus({CPU_SETSIZE}));
  EXPECT_EQ(weft::platform::thread_cpus(), before);
}

}  // namespace
