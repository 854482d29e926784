// The bound on helping joins (docs/ARCHITECTURE.md, "Join and its bound"): a worker waiting
// for a stolen task starts stolen work only while its stack use is below
// help_stack_fraction * worker_stack_bytes. We measure the stack use at every start of
// stolen work (WorkerStats::max_steal_stack_bytes) on a program built to make deep waits
// common, and check it against the limit; and, so that the check can fail, that the same
// program with the limit lifted does start stolen work deeper than the small limit.
#include <gtest/gtest.h>

#include <cstdint>
#include <weft/weft.hpp>

namespace {

constexpr std::size_t kWorkerStack = std::size_t{64} << 20;
constexpr double kSmallFraction = 0.001;  // ~67 KB of 64 MiB
// The runtime's own frames between the limit check and the start of a stolen task
// (wait_for_stolen -> steal_from -> run_claim): generously a few kilobytes.
constexpr std::uint64_t kRuntimeFramesSlack = 16 << 10;

// A deep spine (each level spawns the rest of the spine, so thieves take whole sub-spines
// and then wait deep down for sub-spines stolen from them) with a small bushy side tree
// per level.
long bushy(int depth) {
  if (depth == 0) {
    volatile long sink = 0;  // a leaf's worth of work, so thieves wake and find work
    for (int i = 0; i < 200; ++i) sink = sink + i;
    return 1;
  }
  auto a = weft::spawn([depth] { return bushy(depth - 1); });
  const long b = bushy(depth - 1);
  return a.join() + b;
}

long spine(int level) {
  if (level == 0) return 0;
  // A fat frame makes stack use grow quickly with depth, as real recursive code does.
  volatile char pad[256];
  pad[0] = static_cast<char>(level);
  auto rest = weft::spawn([level] { return spine(level - 1); });
  const long side = bushy(6);
  return rest.join() + side + (pad[0] == static_cast<char>(level) ? 0 : 1);
}

long expected_spine(int levels) {
  return static_cast<long>(levels) * 64;
}

weft::Stats run_spine(double fraction, int levels) {
  weft::Config c;
  c.workers = 4;  // oversubscribed on a 2-core machine: many steals and waits
  c.steal = weft::StealPolicy::half();
  c.worker_stack_bytes = kWorkerStack;
  c.help_stack_fraction = fraction;
  weft::Runtime rt(c);
  for (int rep = 0; rep < 5; ++rep) {
    EXPECT_EQ(rt.run([levels] { return spine(levels); }), expected_spine(levels));
  }
  return rt.stats();
}

TEST(HelpBound, StolenWorkStartsOnlyBelowTheLimit) {
  const int levels = 2000;  // ~2000 * 300+ bytes: well past the small limit
  const weft::Stats s = run_spine(kSmallFraction, levels);
  const auto limit = static_cast<std::uint64_t>(kSmallFraction * static_cast<double>(kWorkerStack));
  EXPECT_GT(s.total.stolen_joins, 0u) << "the program must make joins wait";
  EXPECT_LE(s.total.max_steal_stack_bytes, limit + kRuntimeFramesSlack)
      << "stolen work started at a stack depth beyond the help limit";
}

TEST(HelpBound, WithoutTheLimitStolenWorkStartsDeeper) {
  // The same program, limit lifted: helping happens deep in the spine. This shows the
  // previous test measures something the limit actually changes.
  const int levels = 2000;
  const weft::Stats s = run_spine(0.9, levels);
  const auto small_limit =
      static_cast<std::uint64_t>(kSmallFraction * static_cast<double>(kWorkerStack));
  EXPECT_GT(s.total.max_steal_stack_bytes, small_limit + kRuntimeFramesSlack);
}

TEST(HelpBound, ZeroFractionNeverHelps) {
  weft::Config c;
  c.workers = 4;
  c.help_stack_fraction = 0.0;
  weft::Runtime rt(c);
  EXPECT_EQ(rt.run([] { return spine(300); }), expected_spine(300));
  EXPECT_EQ(rt.stats().total.leapfrogs, 0u);
}

}  // namespace
