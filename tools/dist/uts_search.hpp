// Unbalanced Tree Search as a user tree of weft::dist: workloads/uts's nodes (24 trivially
// copyable bytes) and its Tree's children, each node contributing its count.
#pragma once

#include <chrono>
#include <vector>

#include "tools/dist/fake_run.hpp"
#include "tools/dist/tree_search.hpp"
#include "workloads/uts/counts.hpp"
#include "workloads/uts/tree.hpp"

namespace dist {

struct UtsExpand {
  const uts::Tree* tree;
  // Extra time spent on each node (a test's slow rank); zero for none.
  std::chrono::nanoseconds extra{0};

  uts::Counts operator()(const uts::Node& node, Children<uts::Node>& children) const {
    if (extra.count() > 0) spin(extra);
    const int n = tree->num_children(node);
    for (int i = 0; i < n; ++i) children.push(tree->child(node, i));
    uts::Counts counts;
    counts.count_node(node.height, n);
    return counts;
  }

 private:
  static void spin(std::chrono::nanoseconds d) {
    const auto until = std::chrono::steady_clock::now() + d;
    while (std::chrono::steady_clock::now() < until) {
    }
  }
};

struct CombineCounts {
  uts::Counts operator()(uts::Counts a, const uts::Counts& b) const { return a += b; }
};

inline RankOutcome<uts::Counts> search_uts_rank(const uts::Tree& tree, Transport& transport,
                                                const SearchOptions& options,
                                                std::chrono::nanoseconds extra_per_node = {}) {
  return search_rank(transport, tree.root(), UtsExpand{&tree, extra_per_node}, CombineCounts{},
                     options);
}

inline std::vector<RankOutcome<uts::Counts>> run_uts_on_fake_network(const uts::Tree& tree,
                                                                     const SearchOptions& search,
                                                                     const FakeRunOptions& run) {
  return run_on_fake_network(tree.root(), UtsExpand{&tree}, CombineCounts{}, search, run);
}

// The counts of the whole tree: the ranks' counts combined.
inline uts::Counts combined_counts(const std::vector<RankOutcome<uts::Counts>>& ranks) {
  uts::Counts total;
  for (const auto& r : ranks) total += r.value;
  return total;
}

}  // namespace dist
