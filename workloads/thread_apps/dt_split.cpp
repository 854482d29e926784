#include "workloads/thread_apps/dt_split.hpp"

#include <cmath>

namespace thread_apps {
namespace {

// Entropy in bits of a set of `total` instances of which `positives` are positive.
double entropy(std::size_t positives, std::size_t total) {
  if (total == 0 || positives == 0 || positives == total) return 0.0;
  const double p = static_cast<double>(positives) / static_cast<double>(total);
  return -(p * std::log2(p) + (1.0 - p) * std::log2(1.0 - p));
}

// Gains below this are rounding, not information.
constexpr double kMinGain = 1e-12;

}  // namespace

Split best_threshold(std::span<const Instance> sorted, int attribute, std::size_t positives,
                     std::size_t min_side) {
  const std::size_t n = sorted.size();
  const auto a = static_cast<std::size_t>(attribute);
  const double total = static_cast<double>(n);
  const double parent_entropy = entropy(positives, n);
  Split best;
  std::size_t left_positives = 0;
  if (min_side == 0) min_side = 1;
  for (std::size_t i = 0; i + 1 < n; ++i) {
    left_positives += sorted[i].label;
    const std::size_t left = i + 1;
    if (left < min_side || n - left < min_side) continue;
    if (!(sorted[i].attr[a] < sorted[i + 1].attr[a])) continue;  // not a boundary
    const double gain =
        parent_entropy - (static_cast<double>(left) / total) * entropy(left_positives, left) -
        (static_cast<double>(n - left) / total) * entropy(positives - left_positives, n - left);
    if (gain > best.gain && gain > kMinGain) {
      best.attribute = attribute;
      best.threshold = sorted[i].attr[a];
      best.gain = gain;
      best.left_count = left;
    }
  }
  if (best.attribute >= 0) {
    best.gain_ratio = best.gain / entropy(best.left_count, n);
  }
  return best;
}

bool better_split(const Split& candidate, const Split& best) {
  if (candidate.attribute < 0) return false;
  return best.attribute < 0 || candidate.gain_ratio > best.gain_ratio;
}

}  // namespace thread_apps
