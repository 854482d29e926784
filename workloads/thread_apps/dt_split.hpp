// Choosing a node's split, C4.5's way for continuous attributes: for each attribute, the
// threshold with the largest information gain among the boundaries between distinct values
// of the sorted instances; across attributes, the one whose best threshold has the largest
// gain ratio (gain over the split's own information). Everything is computed from integer
// counts in a fixed order, so the same instances give the same split bit for bit, whatever
// order equal keys were sorted in.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "workloads/thread_apps/dt_instances.hpp"

namespace thread_apps {

struct Split {
  int attribute = -1;      // -1: no split improves on a leaf
  float threshold = 0.0f;  // left: attr <= threshold
  double gain = 0.0;
  double gain_ratio = 0.0;
  std::size_t left_count = 0;
};

// The best threshold of `attribute` over `sorted` (ascending by it) holding `positives`
// positive instances; each side keeps at least `min_side` instances.
Split best_threshold(std::span<const Instance> sorted, int attribute, std::size_t positives,
                     std::size_t min_side);

// True when `candidate` should replace `best` (a larger gain ratio; ties keep the earlier).
bool better_split(const Split& candidate, const Split& best);

}  // namespace thread_apps
