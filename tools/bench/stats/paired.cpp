#include "tools/bench/stats/paired.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

#include "tools/bench/stats/randomized_blocks.hpp"

namespace bench_stats {

std::string_view verdict_name(Verdict v) {
  switch (v) {
    case Verdict::kAhead: return "ahead";
    case Verdict::kBehind: return "behind";
    case Verdict::kLevel: return "level";
    case Verdict::kUndecided: return "undecided";
  }
  return "undecided";
}

Verdict verdict_of(double ci_low, double ci_high, std::size_t n) {
  if (n < kMinPairsForVerdict || !(ci_low <= ci_high)) return Verdict::kUndecided;
  if (ci_high < 1.0) return Verdict::kAhead;
  if (ci_low > 1.0) return Verdict::kBehind;
  if (ci_low >= kLevelLow && ci_high <= kLevelHigh) return Verdict::kLevel;
  return Verdict::kUndecided;
}

double median_of(std::span<const double> v) {
  if (v.empty()) return 0;
  std::vector<double> s(v.begin(), v.end());
  const std::size_t m = s.size() / 2;
  std::nth_element(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(m), s.end());
  if (s.size() % 2 == 1) return s[m];
  const double upper = s[m];
  const double lower = *std::max_element(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(m));
  return (lower + upper) / 2;
}

double inverted_cdf_quantile(std::span<const double> sorted, double q) {
  const double size = static_cast<double>(sorted.size());
  // q * size within rounding of a whole number k is k: 0.025 * 10000 is 250.00000000000003
  // in doubles, which must not become rank 251.
  double rank = std::ceil(q * size - 1e-9 * size);
  rank = std::clamp(rank, 1.0, size);
  return sorted[static_cast<std::size_t>(rank) - 1];
}

std::vector<double> paired_ratios(std::span<const double> a, std::span<const double> b) {
  std::vector<double> r;
  const std::size_t n = std::min(a.size(), b.size());
  r.reserve(n);
  for (std::size_t i = 0; i < n; ++i) r.push_back(a[i] / b[i]);
  return r;
}

std::vector<double> bootstrap_medians(std::span<const double> sample, int resamples,
                                      std::uint64_t seed) {
  std::vector<double> medians;
  if (sample.empty() || resamples <= 0) return medians;
  medians.reserve(static_cast<std::size_t>(resamples));
  std::mt19937_64 rng(seed);
  const std::size_t n = sample.size();
  std::vector<double> draw(n);
  for (int k = 0; k < resamples; ++k) {
    for (std::size_t i = 0; i < n; ++i) {
      draw[i] = sample[index_below(rng(), n)];
    }
    medians.push_back(median_of(draw));
  }
  std::sort(medians.begin(), medians.end());
  return medians;
}

PairedSummary summarize_ratios(std::span<const double> ratios, const BootstrapOptions& o) {
  if (o.resamples < kMinResamples)
    throw std::invalid_argument("a bootstrap needs at least 2000 resamples");
  if (!(o.confidence > 0 && o.confidence < 1))
    throw std::invalid_argument("a confidence level lies strictly between 0 and 1");
  PairedSummary s;
  s.confidence = o.confidence;
  s.n = ratios.size();
  if (ratios.empty()) return s;
  s.ratio_median = median_of(ratios);
  s.min = *std::min_element(ratios.begin(), ratios.end());
  s.max = *std::max_element(ratios.begin(), ratios.end());
  const std::vector<double> medians = bootstrap_medians(ratios, o.resamples, o.seed);
  const double tail = (1 - o.confidence) / 2;
  s.ci_low = inverted_cdf_quantile(medians, tail);
  s.ci_high = inverted_cdf_quantile(medians, 1 - tail);
  s.verdict = verdict_of(s.ci_low, s.ci_high, s.n);
  return s;
}

PairedSummary compare_paired(std::span<const double> a, std::span<const double> b,
                             const BootstrapOptions& o) {
  const std::vector<double> ratios = paired_ratios(a, b);
  return summarize_ratios(ratios, o);
}

}  // namespace bench_stats
