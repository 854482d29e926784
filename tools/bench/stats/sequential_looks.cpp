#include "tools/bench/stats/sequential_looks.hpp"

#include <algorithm>
#include <cmath>

namespace bench_stats {

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

RepetitionPlan::RepetitionPlan(bool until_decided, int repeat, double budget_s)
    : until_decided_(until_decided),
      repeat_(repeat),
      budget_s_(budget_s),
      plan_{repeat, 1.5, 0.05} {}

RepetitionPlan::Step RepetitionPlan::after(int rep, double elapsed_s, double round_s) {
  Step step;
  if (!until_decided_) {
    step.look = step.stop = rep >= repeat_;
    return step;
  }
  step.stop = elapsed_s + round_s > budget_s_;
  step.look = step.stop || rep == look_repetitions(plan_, looks_ + 1);
  if (step.look) {
    step.look_index = ++looks_;
    step.confidence = look_confidence(plan_, looks_);
  }
  return step;
}

}  // namespace bench_stats
