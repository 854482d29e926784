// tools/bench/stats: the paired bootstrap, the verdict rule, the randomized order, the looks of
// --until-decided and the host's steadiness. The interval endpoints are pinned to the exact
// bootstrap distribution of the median, computed with SciPy by tests/tools/bench/exact_bootstrap.py
// without any resampling; the Monte Carlo bootstrap must land on them.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <map>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "tools/bench/stats/host_steadiness.hpp"
#include "tools/bench/stats/paired.hpp"
#include "tools/bench/stats/randomized_blocks.hpp"
#include "tools/bench/stats/sequential_looks.hpp"
#include "tools/bench/stats/sitting_info.hpp"

namespace {

using bench_stats::Verdict;

const std::vector<double> kEleven{0.93, 1.02, 0.88, 0.97, 1.11, 0.95, 0.91, 1.04, 0.99, 0.86, 1.31};
const std::vector<double> kSeven{0.82, 0.91, 0.87, 0.95, 1.01, 0.89, 0.84};
const std::vector<double> kTwentyFive{1.0058, 1.0364, 0.9848, 0.9631, 1.0292, 1.0294, 0.9588,
                                      0.9857, 1.0449, 0.9983, 0.96,   1.012,  1.0324, 0.9841,
                                      0.9717, 1.0188, 1.028,  0.974,  0.9743, 1.037,  1.0162,
                                      0.9543, 1.0,    1.0457, 0.9837};

struct Exact {
  const std::vector<double>* sample;
  double confidence, low, high;
  int margin;  // the smaller of the script's two margins, in standard errors, rounded down
};

// tests/tools/bench/exact_bootstrap.py's output.
const Exact kExact[] = {
    {&kEleven, 0.95, 0.91, 1.04, 11},       {&kEleven, 0.99, 0.88, 1.11, 3},
    {&kSeven, 0.95, 0.84, 0.95, 9},         {&kSeven, 0.99, 0.82, 1.01, 7},
    {&kTwentyFive, 0.95, 0.9837, 1.028, 3}, {&kTwentyFive, 0.99, 0.9743, 1.0292, 3},
};

TEST(StatsMedian, OddAndEvenCountsAsNumpy) {
  EXPECT_DOUBLE_EQ(bench_stats::median_of(std::vector<double>{3, 1, 4, 1.5, 5, 9, 2, 6}), 3.5);
  EXPECT_DOUBLE_EQ(bench_stats::median_of(kEleven), 0.97);
  EXPECT_DOUBLE_EQ(bench_stats::median_of(kSeven), 0.89);
  EXPECT_DOUBLE_EQ(bench_stats::median_of(kTwentyFive), 1.0);
  EXPECT_DOUBLE_EQ(bench_stats::median_of(std::vector<double>{}), 0.0);
}

TEST(StatsQuantile, InvertedCdfAsNumpy) {
  std::vector<double> s{3, 1, 4, 1.5, 5, 9, 2, 6};
  std::sort(s.begin(), s.end());
  // numpy.quantile(s, q, method="inverted_cdf")
  const std::array<std::pair<double, double>, 8> expected{{{0.025, 1.0},
                                                           {0.1, 1.0},
                                                           {0.125, 1.0},
                                                           {0.5, 3.0},
                                                           {0.875, 6.0},
                                                           {0.9, 9.0},
                                                           {0.975, 9.0},
                                                           {1.0, 9.0}}};
  for (const auto& [q, value] : expected)
    EXPECT_DOUBLE_EQ(bench_stats::inverted_cdf_quantile(s, q), value) << "q = " << q;
  // q * size a whole number in decimal but not in binary: rank 250 of 10000, not 251.
  std::vector<double> ranks(10000);
  std::iota(ranks.begin(), ranks.end(), 1.0);
  EXPECT_DOUBLE_EQ(bench_stats::inverted_cdf_quantile(ranks, 0.025), 250.0);
  EXPECT_DOUBLE_EQ(bench_stats::inverted_cdf_quantile(ranks, 1 - 0.025), 9750.0);
}

TEST(StatsBootstrap, PercentileIntervalIsTheExactBootstrapDistributions) {
  for (const Exact& e : kExact) {
    // Where the exact thresholds stand 7 or more standard errors from the endpoints'
    // neighbours, any seed must land on them; nearer, the first seed is pinned.
    const int seeds = e.margin >= 7 ? 5 : 1;
    for (int seed = 1; seed <= seeds; ++seed) {
      const bench_stats::PairedSummary s = bench_stats::summarize_ratios(
          *e.sample, {10000, e.confidence, static_cast<std::uint64_t>(seed)});
      EXPECT_DOUBLE_EQ(s.ci_low, e.low) << e.sample->size() << " at " << e.confidence;
      EXPECT_DOUBLE_EQ(s.ci_high, e.high) << e.sample->size() << " at " << e.confidence;
      EXPECT_DOUBLE_EQ(s.ratio_median, bench_stats::median_of(*e.sample));
      EXPECT_EQ(s.n, e.sample->size());
    }
  }
  // Their verdicts: [0.91, 1.04] undecided, [0.84, 0.95] ahead, [0.9837, 1.028] level.
  EXPECT_EQ(bench_stats::summarize_ratios(kEleven, {}).verdict, Verdict::kUndecided);
  EXPECT_EQ(bench_stats::summarize_ratios(kSeven, {}).verdict, Verdict::kAhead);
  EXPECT_EQ(bench_stats::summarize_ratios(kTwentyFive, {}).verdict, Verdict::kLevel);
}

TEST(StatsBootstrap, ResamplesDrawWholePairs) {
  // Times that swing by a factor of 4 between repetitions, b always 5 % slower than a: every
  // ratio is 1/1.05, and so is every resample's median when pairs are drawn together. A
  // resample drawing a and b apart would spread over the swing.
  std::vector<double> a, b;
  for (int i = 0; i < 15; ++i) {
    const double t = 0.5 + 1.5 * ((i * 7) % 15) / 14.0;
    a.push_back(t);
    b.push_back(t * 1.05);
  }
  const bench_stats::PairedSummary s = bench_stats::compare_paired(a, b, {});
  EXPECT_DOUBLE_EQ(s.ci_low, 1 / 1.05);
  EXPECT_DOUBLE_EQ(s.ci_high, 1 / 1.05);
  EXPECT_EQ(s.verdict, Verdict::kAhead);
  // compare_paired is summarize_ratios of a[i] / b[i], pair by pair.
  std::vector<double> x{1.0, 2.0, 3.0, 4.0, 5.0, 6.0}, y{2.0, 1.0, 2.5, 5.0, 4.5, 6.5};
  const auto p = bench_stats::compare_paired(x, y, {4000, 0.9, 3});
  const auto r = bench_stats::summarize_ratios(bench_stats::paired_ratios(x, y), {4000, 0.9, 3});
  EXPECT_DOUBLE_EQ(p.ci_low, r.ci_low);
  EXPECT_DOUBLE_EQ(p.ci_high, r.ci_high);
  EXPECT_DOUBLE_EQ(p.ratio_median, r.ratio_median);
  EXPECT_DOUBLE_EQ(bench_stats::paired_ratios(x, y)[1], 2.0);
}

TEST(StatsBootstrap, ASeedGivesTheSameResamples) {
  const auto a = bench_stats::bootstrap_medians(kEleven, 3000, 77);
  const auto b = bench_stats::bootstrap_medians(kEleven, 3000, 77);
  const auto c = bench_stats::bootstrap_medians(kEleven, 3000, 78);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_TRUE(std::is_sorted(a.begin(), a.end()));
  EXPECT_EQ(a.size(), 3000u);
}

TEST(StatsBootstrap, RejectsTooFewResamplesAndABadConfidence) {
  EXPECT_THROW(bench_stats::summarize_ratios(kSeven, {1999, 0.95, 1}), std::invalid_argument);
  EXPECT_THROW(bench_stats::summarize_ratios(kSeven, {2000, 1.0, 1}), std::invalid_argument);
  EXPECT_THROW(bench_stats::summarize_ratios(kSeven, {2000, 0.0, 1}), std::invalid_argument);
  const auto none = bench_stats::summarize_ratios(std::vector<double>{}, {});
  EXPECT_EQ(none.n, 0u);
  EXPECT_EQ(none.verdict, Verdict::kUndecided);
}

TEST(StatsVerdict, EachBoundAsWritten) {
  using bench_stats::verdict_of;
  EXPECT_EQ(verdict_of(0.90, 0.9999, 5), Verdict::kAhead);
  EXPECT_EQ(verdict_of(0.90, 1.0, 5), Verdict::kUndecided);  // upper bound must be < 1
  EXPECT_EQ(verdict_of(1.0001, 1.2, 5), Verdict::kBehind);
  EXPECT_EQ(verdict_of(1.0, 1.2, 5), Verdict::kUndecided);  // lower bound must be > 1
  EXPECT_EQ(verdict_of(0.97, 1.03, 5), Verdict::kLevel);    // the band's bounds included
  EXPECT_EQ(verdict_of(0.9699, 1.0, 5), Verdict::kUndecided);
  EXPECT_EQ(verdict_of(1.0, 1.0301, 5), Verdict::kUndecided);
  EXPECT_EQ(verdict_of(0.98, 0.99, 5), Verdict::kAhead);  // ahead before level
  EXPECT_EQ(verdict_of(1.01, 1.02, 5), Verdict::kBehind);
  EXPECT_EQ(verdict_of(0.5, 0.6, 4), Verdict::kUndecided);  // too few pairs
  EXPECT_EQ(bench_stats::verdict_name(Verdict::kLevel), "level");
}

TEST(StatsBlocks, EveryRepetitionIsAPermutationReproducibleFromTheSeed) {
  const auto first = bench_stats::block_order(9, 42, 1);
  EXPECT_EQ(first, bench_stats::block_order(9, 42, 1));
  EXPECT_NE(first, bench_stats::block_order(9, 42, 2));
  EXPECT_NE(first, bench_stats::block_order(9, 43, 1));
  std::vector<std::size_t> sorted = first;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < sorted.size(); ++i) EXPECT_EQ(sorted[i], i);
  EXPECT_TRUE(bench_stats::block_order(0, 1, 1).empty());
}

TEST(StatsBlocks, EveryOrderIsEquallyLikely) {
  // 24,000 repetitions of 3 variants: each of the 6 orders 4,000 times, give or take 5
  // standard deviations (sqrt(24000 * 1/6 * 5/6) = 58). A shuffle that swaps with [0, i)
  // instead of [0, i] (Sattolo's cycles) or draws from [0, n) every time fails this.
  std::map<std::vector<std::size_t>, int> seen;
  for (std::uint64_t rep = 1; rep <= 24000; ++rep) ++seen[bench_stats::block_order(3, 5, rep)];
  EXPECT_EQ(seen.size(), 6u);
  for (const auto& [order, count] : seen) EXPECT_NEAR(count, 4000, 290);
}

TEST(StatsLooks, GeometricRepetitionsAndSpentError) {
  const bench_stats::LookPlan plan{10, 1.5, 0.05};
  const int expected[] = {10, 15, 23, 35, 53, 80};
  for (int k = 1; k <= 6; ++k) EXPECT_EQ(bench_stats::look_repetitions(plan, k), expected[k - 1]);
  EXPECT_DOUBLE_EQ(bench_stats::look_confidence(plan, 1), 0.975);
  EXPECT_DOUBLE_EQ(bench_stats::look_confidence(plan, 2), 1 - 0.05 / 6);
  double spent = 0;
  for (int k = 1; k <= 100000; ++k) spent += 1 - bench_stats::look_confidence(plan, k);
  EXPECT_LT(spent, 0.05);
  EXPECT_GT(spent, 0.0499);
  EXPECT_EQ(bench_stats::look_repetitions({5, 1.01, 0.05}, 2), 6);  // at least one more
}

// The chance that a pair at parity is ever called ahead or behind, over six looks, with the
// looks' spending and without it (95 % at every look). Ratios are drawn around 1 with a 10 %
// spread, as on this machine; 300 sittings of up to 80 repetitions each.
double false_decisions(bool spend) {
  const bench_stats::LookPlan plan{10, 1.5, 0.05};
  std::mt19937_64 rng(2026);
  std::lognormal_distribution<double> ratio(0.0, 0.1);
  int decided = 0;
  const int sittings = 300;
  for (int s = 0; s < sittings; ++s) {
    std::vector<double> r;
    for (int k = 1; k <= 6; ++k) {
      while (static_cast<int>(r.size()) < bench_stats::look_repetitions(plan, k))
        r.push_back(ratio(rng));
      const double confidence = spend ? bench_stats::look_confidence(plan, k) : 0.95;
      const Verdict v =
          bench_stats::summarize_ratios(r, {2000, confidence, static_cast<std::uint64_t>(s)})
              .verdict;
      if (v == Verdict::kAhead || v == Verdict::kBehind) {
        ++decided;
        break;
      }
    }
  }
  return static_cast<double>(decided) / sittings;
}

TEST(StatsLooks, SpendingKeepsFalseDecisionsNearAlphaWhereNaiveLooksDoNot) {
  const double spent = false_decisions(true);
  const double naive = false_decisions(false);
  EXPECT_LT(spent, 0.08) << "with the looks' spending";
  EXPECT_GT(naive, 0.12) << "95 % at every look";
  std::printf("false decisions at parity over six looks: %.3f spending, %.3f naive\n", spent,
              naive);
}

TEST(StatsHost, ReadsStealFromProcStat) {
  const auto t = bench_stats::parse_cpu_times(
      "cpu  100 5 50 1000 20 3 2 40 0 0\ncpu0 50 2 25 500 10 1 1 20 0 0\nintr 1\n");
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->total, 100u + 5 + 50 + 1000 + 20 + 3 + 2 + 40);
  EXPECT_EQ(t->steal, 40u);
  EXPECT_FALSE(bench_stats::parse_cpu_times("cpu  100 5 50 1000\n").has_value());
  EXPECT_FALSE(bench_stats::parse_cpu_times("").has_value());
}

TEST(StatsHost, CalibrationKernelAgreesWithItsJumpAndPython) {
  // x = (x * 6364136223846793005 + 1442695040888963407) mod 2^64 in Python.
  EXPECT_EQ(bench_stats::calibration_chain(12345, 1000), 3554153303644541409ULL);
  EXPECT_EQ(bench_stats::calibration_jump(12345, 1000), 3554153303644541409ULL);
  EXPECT_EQ(bench_stats::calibration_jump(0x5eed0000ULL, bench_stats::kCalibrationSteps),
            4356558463299289088ULL);
  EXPECT_EQ(bench_stats::calibration_jump(7, 0), 7u);
}

TEST(StatsHost, UnsteadyPastEitherThreshold) {
  const std::vector<double> steady{1.00, 1.02, 0.98, 1.01, 0.99};
  EXPECT_FALSE(bench_stats::judge_steadiness(steady, 0.001).unsteady);
  const std::vector<double> noisy{1.0, 1.2, 0.9, 1.1, 0.8};
  const auto n = bench_stats::judge_steadiness(noisy, std::nullopt);
  EXPECT_TRUE(n.unsteady);
  EXPECT_NE(n.why.find("calibration robust CV 0.148 > 0.05"), std::string::npos) << n.why;
  // MAD 0.1 of median 1.0: 0.148; the plain CV is reported beside it.
  EXPECT_NEAR(n.calibration_robust_cv, 1.4826 * 0.1, 1e-12);
  EXPECT_NEAR(n.calibration_cv, 0.158113883, 1e-6);
  // One run delayed fourfold among twenty steady ones: the plain CV passes 0.05, the host
  // was as fast as ever for the other runs, and the robust CV judges it steady.
  std::vector<double> one_outlier(20, 1.0);
  for (std::size_t i = 0; i < one_outlier.size(); ++i) one_outlier[i] += 0.001 * (i % 3);
  one_outlier[7] = 4.0;
  const auto o = bench_stats::judge_steadiness(one_outlier, std::nullopt);
  EXPECT_GT(o.calibration_cv, 0.5);
  EXPECT_FALSE(o.unsteady) << o.why;
  EXPECT_EQ(o.calibration_s, one_outlier);
  const auto st = bench_stats::judge_steadiness(steady, 0.021);
  EXPECT_TRUE(st.unsteady);
  EXPECT_NE(st.why.find("steal time 2.1 %"), std::string::npos) << st.why;
  EXPECT_FALSE(bench_stats::judge_steadiness(steady, 0.019).unsteady);
  EXPECT_NEAR(bench_stats::judge_steadiness(steady, std::nullopt).calibration_median_s, 1.0, 1e-12);
}

TEST(StatsHost, MonitorTimesTheKernelAndReadsItsProcStat) {
  const std::string path = ::testing::TempDir() + "stats_test_proc_stat";
  { std::ofstream(path) << "cpu  100 0 0 800 0 0 0 100 0 0\n"; }
  bench_stats::HostMonitor monitor(path);
  EXPECT_GT(monitor.calibrate(), 0.0);
  EXPECT_GT(monitor.calibrate(), 0.0);
  { std::ofstream(path) << "cpu  200 0 0 1600 0 0 0 200 0 0\n"; }
  const bench_stats::Steadiness s = monitor.steadiness();
  EXPECT_EQ(s.samples, 2);
  ASSERT_TRUE(s.steal_share.has_value());
  EXPECT_DOUBLE_EQ(*s.steal_share, 0.1);  // 100 of 1000 jiffies
  EXPECT_TRUE(s.unsteady);
  std::remove(path.c_str());
  EXPECT_FALSE(bench_stats::HostMonitor("/nonexistent/stat").steadiness().steal_share.has_value());
}

TEST(StatsSitting, CommandLineQuotedForAShell) {
  const std::vector<std::string_view> args{"weft-bench", "compare", "--json", "a b.json", "it's"};
  EXPECT_EQ(bench_stats::shell_command_line(args),
            "weft-bench compare --json 'a b.json' 'it'\\''s'");
  const bench_stats::SittingInfo info = bench_stats::current_sitting(args, 9);
  EXPECT_FALSE(info.commit.empty());
  EXPECT_EQ(info.seed, 9u);
  EXPECT_EQ(info.date_utc.size(), 20u);  // 2026-12-07T12:34:56Z
  const std::string json = bench_stats::sitting_json_members(info);
  EXPECT_NE(json.find("\"seed\":9"), std::string::npos) << json;
  EXPECT_NE(json.find("\"command_line\":\"weft-bench compare --json 'a b.json'"), std::string::npos)
      << json;
}

}  // namespace
