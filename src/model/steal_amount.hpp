// How many tasks a thief takes: the one place where a policy's answer becomes a claim size.
// Every site asks here, the cheap looks before a victim's port and the decisions under it,
// for both mechanisms, so they can never disagree about what a policy's answer means.
#pragma once

#include <cstdint>

#include "weft/config.hpp"

namespace weft::detail {

// The policy's amount for a victim with `n` available tasks and a thief whose recent steals
// measured `task_work_per_steal_cost` (StealView), as a claim size in [1, n]; 0 when there
// is nothing to take or the policy declines (fixed:D with fewer than D waiting) or answers
// out of range.
inline std::int64_t steal_amount(const StealPolicy& policy, std::int64_t n,
                                 double task_work_per_steal_cost) noexcept {
  if (n <= 0) return 0;
  const std::int64_t k = policy.amount(StealView{n, task_work_per_steal_cost});
  return (k > 0 && k <= n) ? k : 0;
}

}  // namespace weft::detail
