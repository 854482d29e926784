#include "workloads/thread_apps/centre_of_mass.hpp"

#include <algorithm>

#include "workloads/thread_apps/thread_fork.hpp"

namespace thread_apps {
namespace {

// The cell's summary from its children's: child cells must be summarised already; leaves are
// summed here.
void summarize_from_children(OctCell& cell, std::span<const Body> bodies) {
  double mass = 0.0;
  Vec3 moment;
  std::uint32_t count = 0;
  for (std::atomic<OctNode*>& slot : cell.child) {
    OctNode* node = slot.load(std::memory_order_relaxed);
    if (node == nullptr) continue;
    if (node->is_leaf) {
      auto& leaf = static_cast<OctLeaf&>(*node);
      std::sort(leaf.bodies.begin(), leaf.bodies.begin() + leaf.count);
      for (std::uint32_t i = 0; i < leaf.count; ++i) {
        const Body& b = bodies[leaf.bodies[i]];
        mass += b.mass;
        moment += b.mass * b.pos;
      }
      count += leaf.count;
    } else {
      const auto& sub = static_cast<const OctCell&>(*node);
      mass += sub.mass;
      moment += sub.mass * sub.com;
      count += sub.body_count;
    }
  }
  cell.mass = mass;
  // A cell of massless bodies has no meaningful centre; its geometric centre will do.
  cell.com = mass > 0.0 ? moment * (1.0 / mass) : cell.centre;
  cell.body_count = count;
}

template <class Visit>
void for_each_child_cell(OctCell& cell, const Visit& visit) {
  for (std::atomic<OctNode*>& slot : cell.child) {
    OctNode* node = slot.load(std::memory_order_relaxed);
    if (node != nullptr && !node->is_leaf) visit(static_cast<OctCell&>(*node));
  }
}

void collect_at_depth(OctCell& cell, std::size_t depth, std::vector<OctCell*>& out) {
  if (depth == 0) {
    out.push_back(&cell);
    return;
  }
  for_each_child_cell(cell, [&](OctCell& sub) { collect_at_depth(sub, depth - 1, out); });
}

}  // namespace

void summarize_subtree(OctCell& cell, std::span<const Body> bodies) {
  for_each_child_cell(cell, [&](OctCell& sub) { summarize_subtree(sub, bodies); });
  summarize_from_children(cell, bodies);
}

void summarize_subtree_forking(OctCell& cell, std::span<const Body> bodies,
                               std::size_t fork_levels) {
  if (fork_levels == 0) {
    summarize_subtree(cell, bodies);
    return;
  }
  ThreadGroup<8> children;
  for_each_child_cell(cell, [&](OctCell& sub) {
    children.start(
        [&sub, bodies, fork_levels] { summarize_subtree_forking(sub, bodies, fork_levels - 1); });
  });
  children.join_all();
  summarize_from_children(cell, bodies);
}

std::vector<OctCell*> cells_at_depth(OctCell& root, std::size_t depth) {
  std::vector<OctCell*> out;
  collect_at_depth(root, depth, out);
  return out;
}

void summarize_above(OctCell& root, std::span<const Body> bodies, std::size_t depth) {
  if (depth == 0) return;
  for_each_child_cell(root, [&](OctCell& sub) { summarize_above(sub, bodies, depth - 1); });
  summarize_from_children(root, bodies);
}

}  // namespace thread_apps
