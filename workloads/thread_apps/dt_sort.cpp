#include "workloads/thread_apps/dt_sort.hpp"

#include <algorithm>
#include <utility>

#include "workloads/thread_apps/thread_fork.hpp"

namespace thread_apps {
namespace {

float key(const Instance& inst, int attribute) {
  return inst.attr[static_cast<std::size_t>(attribute)];
}

float median_of_three(float a, float b, float c) {
  return std::max(std::min(a, b), std::min(std::max(a, b), c));
}

}  // namespace

void sort_by_attribute(std::span<Instance> items, int attribute, bool fork, std::size_t cutoff) {
  if (items.size() < cutoff || items.size() < 2) {
    std::sort(items.begin(), items.end(), [attribute](const Instance& a, const Instance& b) {
      return key(a, attribute) < key(b, attribute);
    });
    return;
  }
  const float pivot =
      median_of_three(key(items.front(), attribute), key(items[items.size() / 2], attribute),
                      key(items.back(), attribute));
  // Three ways (less, equal, greater), so that runs of equal keys never recurse.
  std::size_t less_end = 0, scan = 0, greater_begin = items.size();
  while (scan < greater_begin) {
    const float k = key(items[scan], attribute);
    if (k < pivot) {
      std::swap(items[less_end++], items[scan++]);
    } else if (k > pivot) {
      std::swap(items[scan], items[--greater_begin]);
    } else {
      ++scan;
    }
  }
  fork_join(
      fork, [&] { sort_by_attribute(items.first(less_end), attribute, fork, cutoff); },
      [&] { sort_by_attribute(items.subspan(greater_begin), attribute, fork, cutoff); });
}

}  // namespace thread_apps
