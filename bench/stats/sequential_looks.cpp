#include "stats/sequential_looks.hpp"

#include <algorithm>
#include <cmath>

namespace weft_stats {

int look_repetitions(const LookPlan& plan, int k) {
  int n = std::max(plan.first, 1);
  for (int look = 2; look <= k; ++look)
    n = std::max(n + 1, static_cast<int>(std::ceil(n * plan.growth - 1e-9)));
  return n;
}

double look_confidence(const LookPlan& plan, int k) {
  const double kk = std::max(k, 1);
  return 1 - plan.alpha / (kk * (kk + 1));
}

}  // namespace weft_stats
