// A worker's own free list in front of a shared one: it takes from the shared list and gives
// to it half a list at a time, keeps what was pushed last, and loses or repeats nothing.
#include "threads/worker_free_list.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <vector>

namespace {

using weft::detail::WorkerFreeList;
constexpr std::size_t kCapacity = 8;
using List = WorkerFreeList<int, kCapacity>;

struct Shared {
  std::vector<int> items;
  int refills = 0;
  int spills = 0;

  std::size_t refill(int* into, std::size_t n) {
    ++refills;
    const std::size_t taken = std::min(n, items.size());
    for (std::size_t i = 0; i < taken; ++i) {
      into[i] = items.back();
      items.pop_back();
    }
    return taken;
  }
  void spill(const int* from, std::size_t n) {
    ++spills;
    items.insert(items.end(), from, from + n);
  }
};

TEST(WorkerFreeList, PopsWhatWasPushedLastWithoutTheSharedList) {
  List list;
  Shared shared;
  const auto spill = [&](const int* from, std::size_t n) { shared.spill(from, n); };
  const auto refill = [&](int* into, std::size_t n) { return shared.refill(into, n); };
  for (int i = 0; i < static_cast<int>(kCapacity); ++i) list.push(i, spill);
  EXPECT_EQ(list.count(), kCapacity);
  for (int i = static_cast<int>(kCapacity) - 1; i >= 0; --i) {
    int out = -1;
    ASSERT_TRUE(list.pop(out, refill));
    EXPECT_EQ(out, i);
  }
  EXPECT_EQ(shared.spills, 0);
  EXPECT_EQ(shared.refills, 0);
  int out = -1;
  EXPECT_FALSE(list.pop(out, refill)) << "empty here and in the shared list";
  EXPECT_EQ(shared.refills, 1);
}

TEST(WorkerFreeList, AFullListGivesItsOlderHalfAndKeepsTheNewer) {
  List list;
  Shared shared;
  const auto spill = [&](const int* from, std::size_t n) { shared.spill(from, n); };
  for (int i = 0; i <= static_cast<int>(kCapacity); ++i) list.push(i, spill);
  EXPECT_EQ(shared.spills, 1);
  EXPECT_EQ(shared.items, (std::vector<int>{0, 1, 2, 3})) << "the oldest half, in order";
  EXPECT_EQ(list.count(), List::kBatch + 1);
  const auto refill = [&](int* into, std::size_t n) { return shared.refill(into, n); };
  for (int expected : {8, 7, 6, 5, 4}) {
    int out = -1;
    ASSERT_TRUE(list.pop(out, refill));
    EXPECT_EQ(out, expected);
  }
  EXPECT_EQ(shared.refills, 0);
  int out = -1;
  ASSERT_TRUE(list.pop(out, refill));
  EXPECT_EQ(shared.refills, 1) << "an empty list refills from the shared one";
  EXPECT_TRUE(shared.items.empty()) << "a batch of half a list took all four";
  EXPECT_EQ(list.count(), List::kBatch - 1);
}

// A worker that ends threads another made, and one that makes threads another ends: every
// item comes back exactly once, whatever the interleaving of pushes, pops and the two lists.
TEST(WorkerFreeList, ItemsMovingBetweenTwoListsAreNeverLostOrRepeated) {
  List maker, ender;
  Shared shared;
  const auto spill = [&](const int* from, std::size_t n) { shared.spill(from, n); };
  const auto refill = [&](int* into, std::size_t n) { return shared.refill(into, n); };
  constexpr int kItems = 100;
  for (int i = 0; i < kItems; ++i) shared.items.push_back(i);
  unsigned state = 12345;
  std::vector<int> out_there;  // items "in use"
  for (int step = 0; step < 20000; ++step) {
    state = state * 1103515245u + 12345u;
    const bool take = (state >> 16) % 3 != 0 || out_there.empty();
    if (take) {
      int item = -1;
      if (maker.pop(item, refill)) out_there.push_back(item);
    } else {
      const std::size_t at = (state >> 8) % out_there.size();
      ender.push(out_there[at], spill);
      out_there.erase(out_there.begin() + static_cast<std::ptrdiff_t>(at));
    }
    ASSERT_LE(maker.count(), kCapacity);
    ASSERT_LE(ender.count(), kCapacity);
  }
  std::vector<int> all = out_there;
  const auto collect = [&](const int* from, std::size_t n) {
    all.insert(all.end(), from, from + n);
  };
  maker.drain(collect);
  ender.drain(collect);
  all.insert(all.end(), shared.items.begin(), shared.items.end());
  std::sort(all.begin(), all.end());
  std::vector<int> expected(kItems);
  for (int i = 0; i < kItems; ++i) expected[static_cast<std::size_t>(i)] = i;
  EXPECT_EQ(all, expected);
  EXPECT_EQ(maker.count(), 0u);
  EXPECT_EQ(ender.count(), 0u);
  EXPECT_GT(shared.spills, 0);
  EXPECT_GT(shared.refills, 0);
}

}  // namespace
