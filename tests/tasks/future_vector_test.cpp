// FutureVector: futures kept in a loop of spawns are joined newest first, whether the loop
// finishes, returns early or throws; values come back in spawn order and the first task
// exception is rethrown once every task was joined.
#include "weft/future_vector.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "test_support.hpp"
#include "weft/weft.hpp"

namespace {

using weft_test::serial_fib;
using weft_test::weft_fib;

class FutureVectorTest : public ::testing::TestWithParam<unsigned> {
 protected:
  weft::Runtime rt_{weft_test::make_config("half", GetParam())};
};

TEST_P(FutureVectorTest, JoinAllReturnsTheValuesInSpawnOrder) {
  for (std::int64_t rep = 0; rep < weft_test::scaled(50, 5); ++rep) {
    const std::vector<std::int64_t> values = rt_.run([] {
      weft::FutureVector<std::int64_t> futures;
      for (int i = 0; i < 40; ++i) futures.spawn([i] { return weft_fib(i % 16) * 100 + i; });
      EXPECT_EQ(futures.size(), 40u);
      return futures.join_all();
    });
    ASSERT_EQ(values.size(), 40u);
    for (int i = 0; i < 40; ++i) EXPECT_EQ(values[i], serial_fib(i % 16) * 100 + i) << i;
  }
}

TEST_P(FutureVectorTest, AnEarlyReturnJoinsEveryTaskOnce) {
  for (std::int64_t rep = 0; rep < weft_test::scaled(50, 5); ++rep) {
    std::vector<std::atomic<int>> ran(64);
    const int kept = rt_.run([&ran] {
      weft::FutureVector<int> futures;
      for (int i = 0; i < 64; ++i) {
        futures.spawn([&ran, i] {
          ran[static_cast<std::size_t>(i)].fetch_add(1, std::memory_order_relaxed);
          return static_cast<int>(weft_fib(10));
        });
        if (i == 40) return static_cast<int>(futures.size());  // leaves 41 unjoined
      }
      return -1;
    });
    ASSERT_EQ(kept, 41);
    for (int i = 0; i < 64; ++i)
      EXPECT_EQ(ran[static_cast<std::size_t>(i)].load(), i <= 40 ? 1 : 0);
  }
}

TEST_P(FutureVectorTest, AnExceptionInTheLoopPropagatesAfterEveryTaskIsJoined) {
  std::atomic<int> ran{0};
  EXPECT_THROW(rt_.run([&ran] {
    weft::FutureVector<void> futures;
    for (int i = 0; i < 30; ++i) {
      futures.spawn([&ran] {
        (void)weft_fib(12);
        ran.fetch_add(1, std::memory_order_relaxed);
      });
      if (i == 20) throw std::runtime_error("stop");
    }
  }),
               std::runtime_error);
  EXPECT_EQ(ran.load(), 21);
}

TEST_P(FutureVectorTest, TheFirstTaskExceptionIsRethrownOnceAllAreJoined) {
  std::atomic<int> ran{0};
  try {
    rt_.run([&ran] {
      weft::FutureVector<int> futures;
      for (int i = 0; i < 16; ++i) {
        futures.spawn([&ran, i]() -> int {
          ran.fetch_add(1, std::memory_order_relaxed);
          if (i == 3 || i == 9) throw std::runtime_error(std::to_string(i));
          return i;
        });
      }
      (void)futures.join_all();
      ADD_FAILURE() << "join_all did not throw";
    });
    FAIL() << "run did not throw";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "9") << "newest first: task 9 is joined before task 3";
  }
  EXPECT_EQ(ran.load(), 16);
}

TEST_P(FutureVectorTest, FuturesSpawnedByTheCallerCanBeKept) {
  const int sum = rt_.run([] {
    weft::FutureVector<int> futures;
    futures.reserve(8);
    for (int i = 0; i < 8; ++i) futures.push_back(weft::spawn([i] { return i; }));
    const std::vector<int> v = futures.join_all();
    EXPECT_TRUE(futures.empty());
    return std::accumulate(v.begin(), v.end(), 0);
  });
  EXPECT_EQ(sum, 28);
}

INSTANTIATE_TEST_SUITE_P(Workers, FutureVectorTest, ::testing::Values(1u, 2u, 4u));

}  // namespace
