// What a traversal reports: the tree's size, its leaves and its depth. Every traversal of
// one tree must report the same Counts, whatever the order or the number of threads.
#pragma once

#include <algorithm>
#include <cstdint>
#include <ostream>

namespace uts {

struct Counts {
  std::uint64_t nodes = 0;
  std::uint64_t leaves = 0;    // nodes with no children
  std::int32_t max_depth = 0;  // the deepest node's height; the root is at height 0

  // Records one node at `height` that has `children` children.
  void count_node(std::int32_t height, int children) {
    ++nodes;
    if (children == 0) ++leaves;
    max_depth = std::max(max_depth, height);
  }

  // Combines the counts of disjoint parts of a tree.
  Counts& operator+=(const Counts& other) {
    nodes += other.nodes;
    leaves += other.leaves;
    max_depth = std::max(max_depth, other.max_depth);
    return *this;
  }

  friend bool operator==(const Counts&, const Counts&) = default;
};

inline std::ostream& operator<<(std::ostream& os, const Counts& c) {
  return os << "{nodes " << c.nodes << ", leaves " << c.leaves << ", max_depth " << c.max_depth
            << "}";
}

}  // namespace uts
