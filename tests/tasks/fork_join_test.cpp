// Fork-join programs on a Runtime, under every steal policy at 1, 2, 4 and 8 workers, each
// checked against its serial answer; plus serial elision and the ways to call run().
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <numeric>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "test_support.hpp"
#include "weft/weft.hpp"

namespace {

using weft_test::scaled;
using weft_test::serial_fib;
using weft_test::weft_fib;

// ---- Random trees: a seeded shape, a serial sum and three parallel sums ----

// A node is its seed; its value and its children's seeds derive from it. Nodes above
// depth 3 have 2..4 children so that trees are never trivially small; below, 0..4.
struct TreeShape {
  int max_depth;

  static std::int64_t value(std::uint64_t seed) { return static_cast<std::int64_t>(seed % 1000); }
  int children(std::uint64_t seed, int depth) const {
    if (depth >= max_depth) return 0;
    const int c = static_cast<int>((seed >> 20) % 5);
    return depth < 3 ? 2 + c % 3 : c;
  }
  static std::uint64_t child(std::uint64_t seed, int i) {
    return weft_test::mix64(seed * 5 + static_cast<std::uint64_t>(i) + 1);
  }

  struct Sum {
    std::int64_t total = 0;
    std::int64_t nodes = 0;
  };

  Sum serial(std::uint64_t seed, int depth) const {
    Sum s{value(seed), 1};
    for (int i = 0; i < children(seed, depth); ++i) {
      const Sum c = serial(child(seed, i), depth + 1);
      s.total += c.total;
      s.nodes += c.nodes;
    }
    return s;
  }

  // Spawns every child into a vector of type-erased futures and joins them newest first.
  Sum with_futures(std::uint64_t seed, int depth) const {
    std::vector<weft::Future<Sum>> kids;
    const int n = children(seed, depth);
    kids.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
      kids.emplace_back(
          weft::spawn([this, seed, depth, i] { return with_futures(child(seed, i), depth + 1); }));
    }
    Sum s{value(seed), 1};
    while (!kids.empty()) {
      const Sum c = kids.back().join();
      kids.pop_back();
      s.total += c.total;
      s.nodes += c.nodes;
    }
    return s;
  }

  // The same with weft::scope: children write into an array of results.
  Sum with_scope(std::uint64_t seed, int depth) const {
    std::array<Sum, 5> results{};
    const int n = children(seed, depth);
    weft::scope([&](weft::Scope& sc) {
      for (int i = 0; i < n; ++i) {
        sc.spawn([&, i] {
          results[static_cast<std::size_t>(i)] = with_scope(child(seed, i), depth + 1);
        });
      }
      EXPECT_EQ(sc.size(), static_cast<std::size_t>(n));
    });
    Sum s{value(seed), 1};
    for (int i = 0; i < n; ++i) {
      s.total += results[static_cast<std::size_t>(i)].total;
      s.nodes += results[static_cast<std::size_t>(i)].nodes;
    }
    return s;
  }

  // The first child spawned, the rest computed here: the fib pattern with n children.
  Sum spawn_first(std::uint64_t seed, int depth) const {
    const int n = children(seed, depth);
    if (n == 0) return Sum{value(seed), 1};
    auto first =
        weft::spawn([this, seed, depth] { return spawn_first(child(seed, 0), depth + 1); });
    Sum s{value(seed), 1};
    for (int i = 1; i < n; ++i) {
      const Sum c = spawn_first(child(seed, i), depth + 1);
      s.total += c.total;
      s.nodes += c.nodes;
    }
    const Sum c = first.join();
    s.total += c.total;
    s.nodes += c.nodes;
    return s;
  }
};

// Divide-and-conquer sum of [lo, hi) with weft::invoke.
std::int64_t invoke_sum(std::int64_t lo, std::int64_t hi) {
  if (hi - lo <= 8) {
    std::int64_t s = 0;
    for (std::int64_t i = lo; i < hi; ++i) s += i * i % 7;
    return s;
  }
  const std::int64_t mid = lo + (hi - lo) / 2;
  const auto [a, b] =
      weft::invoke([=] { return invoke_sum(lo, mid); }, [=] { return invoke_sum(mid, hi); });
  return a + b;
}

std::int64_t serial_sum(std::int64_t lo, std::int64_t hi) {
  std::int64_t s = 0;
  for (std::int64_t i = lo; i < hi; ++i) s += i * i % 7;
  return s;
}

// A chain through spawned tasks: each level spawns the next level and joins it at once. The
// join pops the slot before it runs the task, so the chain reuses one slot per worker and
// only the C++ stack grows (one frame group per level).
std::int64_t chain_through_children(int depth) {
  if (depth == 0) return 0;
  auto next = weft::spawn([depth] { return chain_through_children(depth - 1); });
  return next.join() + 1;
}

// A chain that holds a slot per level: each level spawns a leaf, recurses, then joins the
// leaf. All spawns happen on the worker running the root; its task stack fills after
// task_slots levels and every further spawn runs inline (an overflow spawn).
std::int64_t chain_holding_slots(int depth) {
  if (depth == 0) return 0;
  auto leaf = weft::spawn([] { return std::int64_t{1}; });
  const std::int64_t rest = chain_holding_slots(depth - 1);
  return rest + leaf.join();
}

using Param = std::tuple<std::string, unsigned>;

class ForkJoinTest : public ::testing::TestWithParam<Param> {
 protected:
  const std::string& policy() const { return std::get<0>(GetParam()); }
  unsigned workers() const { return std::get<1>(GetParam()); }
  weft::Config config() const { return weft_test::counting_config(policy(), workers()); }
};

TEST_P(ForkJoinTest, FibMatchesSerial) {
  weft::Runtime rt(config());
  ASSERT_EQ(rt.workers(), workers());
  for (int n : {0, 1, 2, 3, 10, 17}) {
    EXPECT_EQ(rt.run([n] { return weft_fib(n); }), serial_fib(n)) << "fib(" << n << ")";
  }
  const int big = weft_test::kSanitized ? 22 : 26;
  EXPECT_EQ(rt.run([] { return weft_fib(big); }), serial_fib(big));
  EXPECT_EQ(rt.stats().total.spawns, weft_test::fib_spawns(big) + weft_test::fib_spawns(17) +
                                         weft_test::fib_spawns(10) + weft_test::fib_spawns(3) +
                                         weft_test::fib_spawns(2));
}

TEST_P(ForkJoinTest, BusyTreeIsStolenFromAndMatchesSerial) {
  weft::Runtime rt(config());
  const int depth = 5;  // 3125 leaves of 2 us each
  const std::int64_t want = weft_test::busy_tree(depth, 42, false);
  // fixed:20 needs 20 available tasks on one victim, which this tree rarely has.
  const bool expect_steals = workers() > 1 && policy() != "fixed:20";
  // At least 3 rounds; on a loaded machine, more until some steal happened.
  int rounds = 0;
  while (rounds < 3 || (expect_steals && rt.stats().total.steals == 0 && rounds < 50)) {
    ASSERT_EQ(rt.run([] { return weft_test::busy_tree(depth, 42, true); }), want)
        << "round " << rounds;
    ++rounds;
  }
  const weft::Stats st = rt.stats();
  EXPECT_EQ(st.total.spawns, static_cast<std::uint64_t>(rounds) * 4u * (1 + 5 + 25 + 125 + 625));
  if (expect_steals) {
    EXPECT_GT(st.total.steals, 0u) << st.table();
    EXPECT_GT(st.total.stolen_joins, 0u) << st.table();
  }
}

TEST_P(ForkJoinTest, RandomTreesMatchSerialSums) {
  weft::Runtime rt(config());
  const TreeShape shape{weft_test::kSanitized ? 9 : 10};
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const TreeShape::Sum want = shape.serial(seed, 0);
    ASSERT_GT(want.nodes, 20);
    const auto a = rt.run([&] { return shape.with_futures(seed, 0); });
    const auto b = rt.run([&] { return shape.with_scope(seed, 0); });
    const auto c = rt.run([&] { return shape.spawn_first(seed, 0); });
    EXPECT_EQ(a.total, want.total);
    EXPECT_EQ(a.nodes, want.nodes);
    EXPECT_EQ(b.total, want.total);
    EXPECT_EQ(b.nodes, want.nodes);
    EXPECT_EQ(c.total, want.total);
    EXPECT_EQ(c.nodes, want.nodes);
  }
}

TEST_P(ForkJoinTest, InvokeComputesBothSides) {
  weft::Runtime rt(config());
  const std::int64_t n = scaled(200000, 20000);
  EXPECT_EQ(rt.run([] { return invoke_sum(0, n); }), serial_sum(0, n));
  // void sides contribute weft::Unit; results may be move-only.
  std::atomic<int> ran{0};
  rt.run([&] {
    const auto [u, v] = weft::invoke([&] { ran.fetch_add(1); }, [&] { ran.fetch_add(10); });
    EXPECT_EQ(u, weft::Unit{});
    EXPECT_EQ(v, weft::Unit{});
    auto [p, s] = weft::invoke([] { return std::make_unique<int>(42); },
                               [] { return std::string(100, 'x'); });
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(*p, 42);
    EXPECT_EQ(s, std::string(100, 'x'));
    const auto [x, w] = weft::invoke([&] { ran.fetch_add(100); }, [] { return 7; });
    EXPECT_EQ(x, weft::Unit{});
    EXPECT_EQ(w, 7);
  });
  EXPECT_EQ(ran.load(), 111);
}

// invoke_if: the sum cut off below a grain. With the cut-off it runs serially, pushing nothing:
// the counted spawns are exactly the nodes above the grain.
std::int64_t invoke_if_sum(std::int64_t lo, std::int64_t hi, std::int64_t grain,
                           std::atomic<std::int64_t>& parallel_nodes) {
  if (hi - lo <= 1) return hi > lo ? lo * lo % 7 : 0;
  const std::int64_t mid = lo + (hi - lo) / 2;
  const bool parallel = hi - lo > grain;
  if (parallel) parallel_nodes.fetch_add(1, std::memory_order_relaxed);
  const auto [a, b] = weft::invoke_if(
      parallel, [&] { return invoke_if_sum(lo, mid, grain, parallel_nodes); },
      [&] { return invoke_if_sum(mid, hi, grain, parallel_nodes); });
  return a + b;
}

TEST_P(ForkJoinTest, InvokeIfPushesOnlyAboveItsCutOff) {
  weft::Runtime rt(config());
  const std::int64_t n = scaled(100000, 20000);
  for (std::int64_t grain : {std::int64_t{0}, std::int64_t{64}, n}) {
    SCOPED_TRACE("grain " + std::to_string(grain));
    rt.reset_stats();
    std::atomic<std::int64_t> parallel_nodes{0};
    EXPECT_EQ(rt.run([&] { return invoke_if_sum(0, n, grain, parallel_nodes); }), serial_sum(0, n));
    const weft::Stats st = rt.stats();
    EXPECT_EQ(st.total.spawns, static_cast<std::uint64_t>(parallel_nodes.load())) << st.table();
  }
  // Values as invoke gives them: weft::Unit for void, move-only values.
  rt.run([] {
    for (bool cond : {false, true}) {
      auto [p, u] = weft::invoke_if(
          cond, [] { return std::make_unique<int>(42); }, [] {});
      ASSERT_NE(p, nullptr);
      EXPECT_EQ(*p, 42);
      EXPECT_EQ(u, weft::Unit{});
    }
  });
}

TEST_P(ForkJoinTest, ScopeJoinsVariableNumbersOfChildren) {
  weft::Runtime rt(config());
  rt.run([] {
    for (int n = 0; n <= 70; n += (n < 10 ? 1 : 7)) {
      std::vector<std::int64_t> out(static_cast<std::size_t>(n), -1);
      weft::scope([&](weft::Scope& s) {
        for (int i = 0; i < n; ++i) {
          s.spawn([&out, i] { out[static_cast<std::size_t>(i)] = weft_fib(i % 12); });
        }
      });
      for (int i = 0; i < n; ++i) {
        ASSERT_EQ(out[static_cast<std::size_t>(i)], serial_fib(i % 12))
            << n << " children, child " << i;
      }
    }
  });
  // Nested scopes: each child opens its own.
  std::atomic<std::int64_t> leaves{0};
  rt.run([&] {
    weft::scope([&](weft::Scope& outer) {
      for (int i = 0; i < 12; ++i) {
        outer.spawn([&, i] {
          weft::scope([&](weft::Scope& inner) {
            for (int j = 0; j <= i; ++j) inner.spawn([&] { leaves.fetch_add(1); });
          });
        });
      }
    });
  });
  EXPECT_EQ(leaves.load(), 12 * 13 / 2);
}

TEST_P(ForkJoinTest, NestedSpawnsWithLargeClosuresAndResults) {
  weft::Runtime rt(config());
  // Closures over 48 bytes are boxed; results over 48 bytes are boxed; strings are not
  // trivially movable. Every kind must survive being stolen and joined.
  struct Big {
    std::array<std::int64_t, 12> v;
  };
  const auto result = rt.run([] {
    std::int64_t total = 0;
    for (int round = 0; round < scaled(200, 20); ++round) {
      std::array<std::int64_t, 16> captured{};
      std::iota(captured.begin(), captured.end(), round);
      auto big_closure = weft::spawn([captured] {
        return std::accumulate(captured.begin(), captured.end(), std::int64_t{0});
      });
      auto big_result = weft::spawn([round] {
        Big b{};
        for (std::size_t i = 0; i < b.v.size(); ++i) b.v[i] = round * static_cast<std::int64_t>(i);
        return b;
      });
      auto text = weft::spawn([round] {
        auto inner = weft::spawn([round] { return std::to_string(round); });
        return std::string(64, 'a') + inner.join();
      });
      const std::string t = text.join();
      const Big b = big_result.join();
      const std::int64_t c = big_closure.join();
      EXPECT_EQ(t, std::string(64, 'a') + std::to_string(round));
      EXPECT_EQ(b.v[11], round * 11);
      EXPECT_EQ(c, 16 * round + 120);
      total += c;
    }
    return total;
  });
  std::int64_t want = 0;
  for (int round = 0; round < scaled(200, 20); ++round) want += 16 * round + 120;
  EXPECT_EQ(result, want);
}

// 100,000 levels in a plain build; fewer in sanitized ones. ThreadSanitizer cannot record a
// call stack deeper than 65,536 frames (it crashes, then hangs), and a level is several frames.
constexpr int kDeepLevels =
    weft_test::kThreadSanitizer ? 8000 : static_cast<int>(weft_test::scaled(100000));

TEST_P(ForkJoinTest, DeepChainOfSpawnedChildren) {
  weft::Config c = config();
  c.worker_stack_bytes = std::size_t{512} << 20;
  weft::Runtime rt(c);
  const int depth = kDeepLevels;
  EXPECT_EQ(rt.run([] { return chain_through_children(depth); }), depth);
  EXPECT_EQ(rt.stats().total.spawns, static_cast<std::uint64_t>(depth));
}

TEST_P(ForkJoinTest, DefaultTaskStackHoldsADeepChainOfPendingTasks) {
  weft::Config c = config();
  c.worker_stack_bytes = std::size_t{512} << 20;
  weft::Runtime rt(c);
  const int depth = kDeepLevels;
  EXPECT_EQ(rt.run([] { return chain_holding_slots(depth); }), depth);
  // The default task stack follows the worker stack (one slot per 64 bytes), so a chain that
  // fits the thread stack never runs out of slots: no spawn ran at once.
  EXPECT_EQ(rt.stats().total.spawns, static_cast<std::uint64_t>(depth));
  EXPECT_EQ(rt.stats().total.overflow_spawns, 0u);
}

TEST_P(ForkJoinTest, DeepRecursionOverflowsIntoInlineSpawns) {
  weft::Config c = config();
  c.worker_stack_bytes = std::size_t{512} << 20;
  c.task_slots = weft_test::kSanitized ? 1024 : 8192;  // well below the depth
  weft::Runtime rt(c);
  const int depth = kDeepLevels;
  EXPECT_EQ(rt.run([] { return chain_holding_slots(depth); }), depth);
  const weft::Stats st = rt.stats();
  EXPECT_EQ(st.total.spawns, static_cast<std::uint64_t>(depth));
  // Stolen leaves keep their slots until joined, so the root's stack fills after exactly
  // task_slots spawns whatever the thieves do.
  EXPECT_EQ(st.total.overflow_spawns, static_cast<std::uint64_t>(depth) - c.task_slots);
  EXPECT_EQ(st.total.inline_joins + st.total.stolen_joins, c.task_slots);
}

// A task's closure lives in its slot, and a join pops the slot before it calls the closure.
// The task's own spawns must not then reuse that slot while the closure still runs: its
// captures are read after them (and destroyed after them).
TEST_P(ForkJoinTest, TaskCapturesSurviveTheTasksOwnSpawns) {
  weft::Runtime rt(config());
  const int rounds = 100;
  const auto typed = rt.run([] {
    std::int64_t total = 0;
    for (int i = 0; i < rounds; ++i) {
      const std::int64_t a = i;
      const std::int64_t b = 1000 + i;
      auto f = weft::spawn([a, b] {
        const std::int64_t k = 7777;
        auto g = weft::spawn([] { return k; });
        const std::int64_t x = g.join();
        return a + b + x;  // a and b are read after the nested spawn
      });
      total += f.join();
    }
    return total;
  });
  std::int64_t want = 0;
  for (int i = 0; i < rounds; ++i) want += i + (1000 + i) + 7777;
  EXPECT_EQ(typed, want) << "Future<T, C> (direct inline call)";

  const auto erased = rt.run([] {
    std::int64_t total = 0;
    for (int i = 0; i < rounds; ++i) {
      const std::int64_t a = i;
      const std::int64_t b = 1000 + i;
      weft::Future<std::int64_t> f = weft::spawn([a, b] {
        const std::int64_t k = 7777;
        auto g = weft::spawn([] { return k; });
        const std::int64_t x = g.join();
        return a + b + x;
      });
      total += f.join();
    }
    return total;
  });
  EXPECT_EQ(erased, want) << "Future<T> (type-erased, through exec)";

  const auto text = rt.run([] {
    std::string out;
    for (int i = 0; i < 20; ++i) {
      auto f = weft::spawn([s = std::string(30, static_cast<char>('a' + i % 26))] {
        auto g = weft::spawn([t = std::string(30, '#')] { return t.size(); });
        const std::size_t n = g.join();
        return s + std::to_string(n);
      });
      out += f.join();
    }
    return out;
  });
  std::string want_text;
  for (int i = 0; i < 20; ++i) want_text += std::string(30, static_cast<char>('a' + i % 26)) + "30";
  EXPECT_EQ(text, want_text) << "a std::string capture";
}

// Tiny task stacks: most spawns overflow into inline calls, and a thief that claims several
// tasks finds no room for its proxies and runs the rest directly (run_claim's full path).
TEST_P(ForkJoinTest, TinyTaskStacksStillComputeCorrectly) {
  for (std::size_t slots : {2, 3, 5}) {
    SCOPED_TRACE("task_slots = " + std::to_string(slots));
    weft::Config c = config();
    c.task_slots = slots;
    weft::Runtime rt(c);
    const int n = weft_test::kSanitized ? 20 : 23;
    EXPECT_EQ(rt.run([] { return weft_fib(n); }), serial_fib(n));
    const TreeShape shape{8};
    EXPECT_EQ(rt.run([&] { return shape.with_futures(7, 0); }).total, shape.serial(7, 0).total);
    const weft::Stats st = rt.stats();
    EXPECT_GT(st.total.overflow_spawns, 0u);
    EXPECT_EQ(st.total.spawns,
              st.total.inline_joins + st.total.stolen_joins + st.total.overflow_spawns);
  }
}

// A join waiting for a stolen task must finish even when it may not help at all (the help
// limit is 0 bytes of stack): it only polls until the thief is done.
TEST_P(ForkJoinTest, JoinsFinishWithoutHelping) {
  weft::Config c = config();
  c.help_stack_fraction = 0.0;
  weft::Runtime rt(c);
  weft_test::with_watchdog(std::chrono::seconds(60), "fib without helping", [&] {
    const int n = weft_test::kSanitized ? 20 : 24;
    EXPECT_EQ(rt.run([] { return weft_fib(n); }), serial_fib(n));
  });
  EXPECT_EQ(rt.stats().total.leapfrogs, 0u) << "no help means no leapfrogging either";
}

TEST_P(ForkJoinTest, RunNestedInATaskCallsInline) {
  weft::Runtime rt(config());
  const auto r = rt.run([&rt] {
    const auto outer_thread = std::this_thread::get_id();
    auto f = weft::spawn([] { return weft_fib(12); });
    const std::int64_t inner = rt.run([&] {
      EXPECT_EQ(std::this_thread::get_id(), outer_thread) << "nested run must call inline";
      return weft_fib(15);
    });
    return f.join() + inner;
  });
  EXPECT_EQ(r, serial_fib(12) + serial_fib(15));
}

TEST_P(ForkJoinTest, RunFromSeveralExternalThreads) {
  weft::Runtime rt(config());
  const int threads = 4;
  const int runs = static_cast<int>(scaled(25, 5));
  std::atomic<int> correct{0};
  std::vector<std::thread> callers;
  for (int t = 0; t < threads; ++t) {
    callers.emplace_back([&, t] {
      for (int i = 0; i < runs; ++i) {
        const int n = 10 + (t + i) % 8;
        if (rt.run([n] { return weft_fib(n); }) == serial_fib(n)) correct.fetch_add(1);
      }
    });
  }
  for (auto& c : callers) c.join();
  EXPECT_EQ(correct.load(), threads * runs);
}

INSTANTIATE_TEST_SUITE_P(PoliciesAndWorkers, ForkJoinTest,
                         ::testing::Combine(::testing::Values("one", "fixed:2", "fixed:20", "half",
                                                              "adaptive"),
                                            ::testing::Values(1u, 2u, 4u, 8u)),
                         weft_test::PolicyCountName{});

// ---- Outside any runtime ----

TEST(SerialElision, SpawnOutsideARuntimeRunsAtOnce) {
  int side_effect = 0;
  auto f = weft::spawn([&] {
    side_effect = 1;
    return 41;
  });
  EXPECT_EQ(side_effect, 1) << "outside a runtime, spawn runs the task before returning";
  EXPECT_EQ(f.join() + 1, 42);
  EXPECT_FALSE(f.valid());
  EXPECT_EQ(weft_fib(20), serial_fib(20));
  // Out-of-order joins are harmless here: nothing was pushed.
  auto a = weft::spawn([] { return 1; });
  auto b = weft::spawn([] { return 2; });
  EXPECT_EQ(a.join(), 1);
  EXPECT_EQ(b.join(), 2);
  auto e = weft::spawn([]() -> int { throw std::runtime_error("serial"); });
  EXPECT_THROW((void)e.join(), std::runtime_error);
  const auto [x, y] = weft::invoke([] { return 1; }, [] { return 2; });
  EXPECT_EQ(x + y, 3);
}

TEST(SerialElision, SpawnOnAPlainThreadRunsAtOnce) {
  std::int64_t r = 0;
  std::thread t([&] { r = weft_fib(18); });
  t.join();
  EXPECT_EQ(r, serial_fib(18));
}

TEST(RunAcrossRuntimes, RunFromATaskOfAnotherRuntimeBlocksAndReturns) {
  weft::Runtime outer(weft_test::counting_config("half", 2));
  weft::Runtime inner(weft_test::counting_config("one", 2));
  const auto r = outer.run([&] {
    auto f = weft::spawn([] { return weft_fib(14); });
    const std::int64_t in = inner.run([] { return weft_fib(16); });
    return f.join() + in;
  });
  EXPECT_EQ(r, serial_fib(14) + serial_fib(16));
  EXPECT_EQ(inner.stats().total.spawns, weft_test::fib_spawns(16));
  EXPECT_EQ(outer.stats().total.spawns, weft_test::fib_spawns(14) + 1);
}

}  // namespace
