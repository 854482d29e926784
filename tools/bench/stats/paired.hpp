// Paired comparisons on a noisy machine. Two things timed side by side in each repetition
// (weft and a peer, weft and the serial elision, one setting and another) give one ratio per
// repetition, a[i] / b[i]; the noise the machine puts on a repetition falls on both, so the
// ratio carries less of it than either time. A comparison is summarised by the median of
// those ratios, a bootstrap confidence interval of that median, and a verdict read off the
// interval:
//   ahead      the interval's upper bound < 1 (a is faster, at the interval's confidence)
//   behind     the interval's lower bound > 1
//   level      the interval lies inside [0.97, 1.03] (bounds included)
//   undecided  anything else, and always with fewer than kMinPairsForVerdict pairs
// The interval is the bootstrap's percentile interval (docs/MEASURING.md says why: the median
// is not smooth, so BCa's jackknife acceleration is unreliable for it, and a studentized
// interval needs a standard error of the median that small samples cannot give; the
// percentile interval maps through 1/x, so b/a's interval is a/b's reciprocal to within one
// resample's rank). Resamples draw whole repetitions, the pair (a[i], b[i]) together: a
// resample that drew a and b apart would add back the noise the pairing removed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace bench_stats {

enum class Verdict { kAhead, kBehind, kLevel, kUndecided };

// "ahead", "behind", "level", "undecided"
std::string_view verdict_name(Verdict v);

// The band a level verdict's interval must lie in.
inline constexpr double kLevelLow = 0.97;
inline constexpr double kLevelHigh = 1.03;
// Below this many pairs no verdict is given: with 4 or fewer, the 95 % percentile interval of
// a median is the sample's whole range, which all 4 ratios on one side of 1 leave with a
// one-sided chance of 1/16 at parity.
inline constexpr std::size_t kMinPairsForVerdict = 5;

// The rule above, on an interval of n pairs.
Verdict verdict_of(double ci_low, double ci_high, std::size_t n);

// The median of `v` (the mean of the middle two for an even count); 0 for none.
double median_of(std::span<const double> v);

// The q-quantile (0 < q <= 1) of an ascending `sorted` by the inverted empirical distribution
// function: the smallest element whose share of the elements at or below it is at least q,
// sorted[ceil(q * size) - 1] (numpy's method "inverted_cdf"). Requires a non-empty `sorted`.
double inverted_cdf_quantile(std::span<const double> sorted, double q);

// a[i] / b[i] for each i < min(a.size(), b.size()).
std::vector<double> paired_ratios(std::span<const double> a, std::span<const double> b);

// The medians of `resamples` bootstrap resamples of `sample` (each `sample.size()` draws with
// replacement), ascending. Draws come from std::mt19937_64 seeded with `seed`, each index
// mapped onto [0, n) by the high half of a 128-bit product (Lemire's method without its
// rejection step: a bias below n / 2^64), so a seed gives the same medians with any standard
// library.
std::vector<double> bootstrap_medians(std::span<const double> sample, int resamples,
                                      std::uint64_t seed);

struct BootstrapOptions {
  int resamples = 10000;     // at least 2,000 (kMinResamples)
  double confidence = 0.95;  // two-sided: alpha / 2 in each tail
  std::uint64_t seed = 1;
};
inline constexpr int kMinResamples = 2000;

struct PairedSummary {
  double ratio_median = 0;  // median of a[i] / b[i]
  double ci_low = 0, ci_high = 0;
  double confidence = 0.95;
  Verdict verdict = Verdict::kUndecided;
  std::size_t n = 0;  // pairs
  double min = 0, max = 0;
};

// The summary of the pairs (a[i], b[i]); with no pair, everything 0 and undecided. Throws
// std::invalid_argument for fewer than kMinResamples resamples or a confidence outside (0, 1).
PairedSummary compare_paired(std::span<const double> a, std::span<const double> b,
                             const BootstrapOptions& options);

// The same on ratios already formed.
PairedSummary summarize_ratios(std::span<const double> ratios, const BootstrapOptions& options);

}  // namespace bench_stats
