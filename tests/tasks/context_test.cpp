// The explicit-context forms (weft/context.hpp): the same answers as the other forms under
// every steal policy at 1, 2, 4 and 8 workers, thieves included; the same guarantees
// (exceptions at the join, an unjoined future joined on unwind, serial elision; the LIFO check
// is in misuse_death_test); a context that is not current falling back to the other forms;
// counting stacks; and a recursion inside a user-level thread that moves between workers.
#include "weft/context.hpp"

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "test_support.hpp"
#include "weft/weft.hpp"

namespace {

using weft_test::serial_fib;

std::int64_t invoke_fib(weft::Ctx c, int n) {
  if (n < 2) return n;
  const auto [a, b] = weft::invoke(
      c, [n](weft::Ctx c) { return invoke_fib(c, n - 1); },
      [n](weft::Ctx c) { return invoke_fib(c, n - 2); });
  return a + b;
}

std::int64_t spawn_fib(weft::Ctx c, int n) {
  if (n < 2) return n;
  auto a = weft::spawn(c, [n](weft::Ctx c) { return spawn_fib(c, n - 1); });
  const std::int64_t b = spawn_fib(c, n - 2);
  return weft::join(c, a) + b;
}

// A tree whose leaves take long enough for thieves to take the tasks above them; each node
// spawns three children with the context form and joins them newest first.
std::int64_t busy_tree(weft::Ctx c, int depth) {
  if (depth == 0) {
    weft_test::spin_for(std::chrono::microseconds(2));
    return 1;
  }
  auto x = weft::spawn(c, [depth](weft::Ctx c) { return busy_tree(c, depth - 1); });
  auto y = weft::spawn(c, [depth](weft::Ctx c) { return busy_tree(c, depth - 1); });
  const auto [z, w] = weft::invoke(
      c, [depth](weft::Ctx c) { return busy_tree(c, depth - 1); },
      [depth](weft::Ctx c) { return busy_tree(c, depth - 1); });
  return weft::join(c, y) + weft::join(c, x) + z + w;
}

using Param = std::tuple<std::string, unsigned>;

class CtxTest : public ::testing::TestWithParam<Param> {
 protected:
  weft::Config config() const {
    return weft_test::make_config(std::get<0>(GetParam()), std::get<1>(GetParam()));
  }
};

TEST_P(CtxTest, FibMatchesSerial) {
  weft::Runtime rt(config());
  for (int n : {0, 1, 2, 3, 10, 17, weft_test::kSanitized ? 21 : 25}) {
    EXPECT_EQ(rt.run([n] { return invoke_fib(weft::context(), n); }), serial_fib(n)) << n;
    EXPECT_EQ(rt.run([n] { return spawn_fib(weft::context(), n); }), serial_fib(n)) << n;
  }
}

TEST_P(CtxTest, StolenTasksRunWithTheirThiefsContext) {
  weft::Runtime rt(config());
  const int depth = 5;  // 4^5 = 1024 leaves of 2 us each
  int rounds = 0;
  do {
    rt.reset_stats();
    EXPECT_EQ(rt.run([] { return busy_tree(weft::context(), depth); }), 1024);
    ++rounds;
  } while (rt.workers() > 1 && rt.stats().total.steals == 0 && rounds < 20);
  if (rt.workers() > 1 && std::get<0>(GetParam()) != "fixed:20") {
    EXPECT_GT(rt.stats().total.steals, 0u) << "no task was stolen in " << rounds << " rounds";
  }
}

TEST_P(CtxTest, ExceptionsPropagateAsInvokesDo) {
  weft::Runtime rt(config());
  rt.run([] {
    // g throws: f is joined first, then g's exception propagates.
    std::atomic<bool> f_done{false};
    EXPECT_THROW(weft::invoke(
                     weft::context(),
                     [&] {
                       weft_test::spin_for(std::chrono::microseconds(200));
                       f_done = true;
                     },
                     [](weft::Ctx) { throw std::runtime_error("g"); }),
                 std::runtime_error);
    EXPECT_TRUE(f_done.load());
    // Both throw: f's exception wins.
    try {
      weft::invoke(
          weft::context(), [](weft::Ctx) -> int { throw std::logic_error("f"); },
          [](weft::Ctx) -> int { throw std::runtime_error("g"); });
      ADD_FAILURE() << "no exception";
    } catch (const std::logic_error& e) {
      EXPECT_STREQ(e.what(), "f");
    }
    // A spawned task's exception comes out of its join, and the context is current after it.
    weft::Ctx c = weft::context();
    auto a = weft::spawn(c, [](weft::Ctx) -> int { throw std::out_of_range("a"); });
    EXPECT_THROW((void)weft::join(c, a), std::out_of_range);
    EXPECT_EQ(c, weft::context());
    EXPECT_EQ(invoke_fib(c, 12), serial_fib(12));
  });
}

TEST_P(CtxTest, AnUnjoinedFutureIsJoinedWhenItsFrameUnwinds) {
  weft::Runtime rt(config());
  std::atomic<int> ran{0};
  rt.run([&] {
    try {
      weft::Ctx c = weft::context();
      auto a = weft::spawn(c, [&] {
        weft_test::spin_for(std::chrono::microseconds(200));
        ran.fetch_add(1);
      });
      throw std::runtime_error("before the join");
    } catch (const std::runtime_error&) {
      // The future's destructor joined the task (run here, or waited for its thief).
      EXPECT_EQ(ran.load(), 1);
    }
  });
}

TEST_P(CtxTest, ValuesAsInvokeGivesThem) {
  weft::Runtime rt(config());
  rt.run([] {
    // Tasks may take a Ctx or nothing; void gives weft::Unit; values may be move-only.
    auto [p, u] = weft::invoke(
        weft::context(), [] { return std::make_unique<int>(42); }, [](weft::Ctx) {});
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(*p, 42);
    EXPECT_EQ(u, weft::Unit{});
    weft::Ctx c = weft::context();
    auto s = weft::spawn(c, [](weft::Ctx) { return std::string(100, 'x'); });
    EXPECT_EQ(weft::join(c, s), std::string(100, 'x'));
    // A closure too large for its slot is boxed, and runs with its context all the same.
    std::array<std::int64_t, 32> big{};
    big[31] = 7;
    auto b = weft::spawn(c, [big](weft::Ctx c) { return big[31] + invoke_fib(c, 10); });
    EXPECT_EQ(weft::join(c, b), 7 + serial_fib(10));
  });
}

// A Ctx that is not the top (kept from before other pushes, or after a join without it)
// takes the other forms' path: the answers stay right, and the context is made current again.
TEST_P(CtxTest, AContextThatIsNotCurrentFallsBack) {
  weft::Runtime rt(config());
  rt.run([] {
    const weft::Ctx stale = weft::context();
    auto pending = weft::spawn([] { return serial_fib(15); });  // T is above `stale` now
    EXPECT_EQ(invoke_fib(stale, 18), serial_fib(18));
    weft::Ctx c = stale;
    auto a = weft::spawn(c, [](weft::Ctx c) { return invoke_fib(c, 14); });
    EXPECT_EQ(c, weft::context()) << "the slow spawn made the context current again";
    EXPECT_EQ(weft::join(c, a), serial_fib(14));
    EXPECT_EQ(pending.join(), serial_fib(15));
    // A future from spawn(c, f) joined without the context; c is then behind T, and falls
    // back until made current.
    weft::Ctx d = weft::context();
    auto e = weft::spawn(d, [](weft::Ctx c) { return spawn_fib(c, 12); });
    EXPECT_EQ(e.join(), serial_fib(12));
    EXPECT_EQ(spawn_fib(d, 13), serial_fib(13));
    // And a future from the other forms joined with a context.
    auto f = weft::spawn([] { return serial_fib(11); });
    EXPECT_EQ(weft::join(d, f), serial_fib(11));
    EXPECT_EQ(d, weft::context());
  });
}

INSTANTIATE_TEST_SUITE_P(PoliciesAndWorkers, CtxTest,
                         ::testing::Combine(::testing::Values("one", "fixed:2", "fixed:20", "half",
                                                              "adaptive"),
                                            ::testing::Values(1u, 2u, 4u, 8u)),
                         weft_test::PolicyCountName{});

TEST(Ctx, OutsideARuntimeEverySpawnRunsAtOnce) {
  EXPECT_EQ(invoke_fib(weft::context(), 15), serial_fib(15));
  EXPECT_EQ(spawn_fib(weft::context(), 15), serial_fib(15));
}

// A counting runtime diverts every push to the out-of-line path, which counts it: the
// context forms count exactly as the others.
TEST(Ctx, CountingStacksCountEveryPush) {
  weft::Runtime rt(weft_test::counting_config("adaptive", 2));
  constexpr int n = 18;
  EXPECT_EQ(rt.run([] { return invoke_fib(weft::context(), n); }), serial_fib(n));
  EXPECT_EQ(rt.stats().total.spawns, weft_test::fib_spawns(n));
  rt.reset_stats();
  EXPECT_EQ(rt.run([] { return spawn_fib(weft::context(), n); }), serial_fib(n));
  EXPECT_EQ(rt.stats().total.spawns, weft_test::fib_spawns(n));
}

// A user-level thread's recursion yields at its leaves, so the thread resumes on either
// worker; its context names its own task stack, which moves with it.
TEST(Ctx, ARecursionInAUserLevelThreadMayMoveBetweenWorkers) {
  weft::Runtime rt(weft_test::make_config("adaptive", 2));
  struct Yielding {
    static std::int64_t fib(weft::Ctx c, int n) {
      if (n < 2) {
        weft::this_thread::yield();
        return n;
      }
      const auto [a, b] = weft::invoke(
          c, [n](weft::Ctx c) { return fib(c, n - 1); },
          [n](weft::Ctx c) { return fib(c, n - 2); });
      return a + b;
    }
  };
  rt.run([] {
    std::vector<std::int64_t> got(4, -1);
    std::vector<weft::thread> threads;
    for (std::size_t t = 0; t < got.size(); ++t) {
      threads.emplace_back([&got, t] { got[t] = Yielding::fib(weft::context(), 14); });
    }
    for (auto& t : threads) t.join();
    for (std::int64_t v : got) EXPECT_EQ(v, serial_fib(14));
  });
}

}  // namespace
