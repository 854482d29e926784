// The decision-tree builder's sort: a divide-and-conquer quicksort of instances by one
// attribute that forks a weft::thread for one side of every partition of at least `cutoff`
// instances (the paper forks one per recursive call and goes serial below 2,000).
#pragma once

#include <cstddef>
#include <span>

#include "workloads/thread_apps/dt_instances.hpp"

namespace thread_apps {

// Sorts `items` by attr[attribute], ascending. With `fork` false it is the serial quicksort,
// which partitions exactly as the forking one does. Equal keys end in an unspecified order
// (the split search does not depend on it).
void sort_by_attribute(std::span<Instance> items, int attribute, bool fork, std::size_t cutoff);

}  // namespace thread_apps
