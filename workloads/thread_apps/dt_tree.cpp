#include "workloads/thread_apps/dt_tree.hpp"

#include <algorithm>
#include <new>
#include <utility>

#include "weft/memory.hpp"
#include "workloads/thread_apps/dt_sort.hpp"
#include "workloads/thread_apps/dt_split.hpp"
#include "workloads/thread_apps/heap_array.hpp"
#include "workloads/thread_apps/thread_fork.hpp"

namespace thread_apps {
namespace {

TreeNode* new_tree_node() {
  return new (weft::allocate(sizeof(TreeNode), alignof(TreeNode))) TreeNode{};
}

std::size_t count_positives(std::span<const Instance> items) {
  std::size_t positives = 0;
  for (const Instance& inst : items) positives += inst.label;
  return positives;
}

// The best split of `items` over all attributes, sorting a copy by each in turn.
Split choose_split(std::span<const Instance> items, std::size_t positives,
                   const BuildOptions& options) {
  HeapArray<Instance> sorted(items.size());
  Split best;
  for (int attribute = 0; attribute < kAttributes; ++attribute) {
    std::copy(items.begin(), items.end(), sorted.begin());
    sort_by_attribute({sorted.data(), sorted.size()}, attribute, options.fork, options.fork_cutoff);
    const Split candidate = best_threshold({sorted.data(), sorted.size()}, attribute, positives,
                                           options.limits.min_side);
    if (better_split(candidate, best)) best = candidate;
  }
  return best;
}

// Builds the subtree of the instances in `items`. The children's instances are copied out
// into arrays this call frees when both children are built, as a plain recursive builder
// does: a serial (or depth-first) build holds the arrays along one path, about N instances,
// while a breadth-first schedule holds a whole level's for every level it has opened.
TreeNode* build_node(std::span<const Instance> items, std::size_t depth,
                     const BuildOptions& options) {
  DecisionTreePtr node(new_tree_node());
  const std::size_t n = items.size();
  const std::size_t positives = count_positives(items);
  node->count = static_cast<std::uint32_t>(n);
  node->positives = static_cast<std::uint32_t>(positives);
  // Ties go to the positive class.
  node->label = 2 * positives >= n ? 1u : 0u;
  const bool pure = positives == 0 || positives == n;
  if (pure || n < options.limits.min_split || depth >= options.limits.max_depth) {
    return node.release();
  }
  const Split split = choose_split(items, positives, options);
  if (split.attribute < 0) return node.release();

  // Partition in the instances' current order (stable), so the children see the same
  // sequences in every version.
  HeapArray<Instance> left(split.left_count), right(n - split.left_count);
  const auto a = static_cast<std::size_t>(split.attribute);
  std::size_t l = 0, r = 0;
  for (const Instance& inst : items) {
    if (inst.attr[a] <= split.threshold) {
      left[l++] = inst;
    } else {
      right[r++] = inst;
    }
  }
  node->attribute = split.attribute;
  node->threshold = split.threshold;
  TreeNode* self = node.get();
  fork_join(
      options.fork && n >= options.fork_cutoff,
      [&] {
        self->left = build_node({left.data(), left.size()}, depth + 1, options);
      },
      [&] {
        self->right = build_node({right.data(), right.size()}, depth + 1, options);
      });
  return node.release();
}

void add_shape(const TreeNode& node, std::size_t depth, DecisionTreeShape& shape) {
  ++shape.nodes;
  shape.depth = std::max(shape.depth, depth);
  if (node.attribute < 0) {
    ++shape.leaves;
    return;
  }
  add_shape(*node.left, depth + 1, shape);
  add_shape(*node.right, depth + 1, shape);
}

void flatten_into(const TreeNode& node, std::vector<FlatNode>& out) {
  out.push_back({node.attribute, node.threshold, node.label, node.count, node.positives});
  if (node.attribute < 0) return;
  flatten_into(*node.left, out);
  flatten_into(*node.right, out);
}

}  // namespace

void free_decision_tree(TreeNode* root) noexcept {
  if (root == nullptr) return;
  free_decision_tree(root->left);
  free_decision_tree(root->right);
  root->~TreeNode();
  weft::deallocate(root, sizeof(TreeNode), alignof(TreeNode));
}

DecisionTreePtr build_decision_tree(std::span<const Instance> instances,
                                    const BuildOptions& options) {
  return DecisionTreePtr(build_node(instances, 0, options));
}

std::uint32_t classify(const TreeNode& root, const Instance& inst) noexcept {
  const TreeNode* node = &root;
  while (node->attribute >= 0) {
    node = inst.attr[static_cast<std::size_t>(node->attribute)] <= node->threshold ? node->left
                                                                                   : node->right;
  }
  return node->label;
}

DecisionTreeShape decision_tree_shape(const TreeNode& root) noexcept {
  DecisionTreeShape shape;
  add_shape(root, 0, shape);
  return shape;
}

std::vector<FlatNode> flatten(const TreeNode& root) {
  std::vector<FlatNode> out;
  flatten_into(root, out);
  return out;
}

}  // namespace thread_apps
