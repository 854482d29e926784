// The decision tree and its builder: top-down, divide and conquer. At each node the
// instances are sorted by every attribute in turn to find the best split (dt_split.hpp), then
// partitioned, and the two halves built recursively: the fine-grained builder forks a
// weft::thread per recursive call (and the sort forks its own) while a node has at least
// `fork_cutoff` instances; the serial builder runs the same code with plain calls.
//
// A node's sort buffer and its children's instance arrays come from weft::allocate; the sort
// buffer lives while the node searches for its split (also while it waits for its sort's
// threads) and the children's arrays until both children are built. How many such arrays
// exist at once is the scheduler's doing: about N instances' worth in a depth-first order,
// a level's worth per open level in a breadth-first one (Fig. 9(b) of the paper).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "workloads/thread_apps/dt_instances.hpp"

namespace thread_apps {

struct TreeNode {
  int attribute = -1;       // -1 for a leaf
  float threshold = 0.0f;   // instances with attr <= threshold go left
  std::uint32_t label = 0;  // the majority class of the instances that reached the node
  std::uint32_t count = 0;
  std::uint32_t positives = 0;
  TreeNode* left = nullptr;
  TreeNode* right = nullptr;
};

void free_decision_tree(TreeNode* root) noexcept;
struct DecisionTreeDeleter {
  void operator()(TreeNode* root) const noexcept { free_decision_tree(root); }
};
using DecisionTreePtr = std::unique_ptr<TreeNode, DecisionTreeDeleter>;

struct TreeLimits {
  std::size_t min_split = 16;  // a node with fewer instances is a leaf
  std::size_t min_side = 4;    // neither side of a split has fewer
  std::size_t max_depth = 24;  // the root is depth 0
};

struct BuildOptions {
  bool fork = false;               // fork weft::threads (must then run under a Runtime)
  std::size_t fork_cutoff = 2000;  // and only for nodes and sorts of at least this many
  TreeLimits limits;
};

DecisionTreePtr build_decision_tree(std::span<const Instance> instances,
                                    const BuildOptions& options);

// The class the tree predicts for `inst`.
std::uint32_t classify(const TreeNode& root, const Instance& inst) noexcept;

struct DecisionTreeShape {
  std::size_t nodes = 0;
  std::size_t leaves = 0;
  std::size_t depth = 0;
};
DecisionTreeShape decision_tree_shape(const TreeNode& root) noexcept;

// A node as a comparable value, in preorder: two trees are equal when these sequences are.
struct FlatNode {
  int attribute;
  float threshold;
  std::uint32_t label, count, positives;
  friend bool operator==(const FlatNode&, const FlatNode&) = default;
};
std::vector<FlatNode> flatten(const TreeNode& root);

}  // namespace thread_apps
