#include "workloads/thread_apps/octree.hpp"

#include <algorithm>
#include <limits>
#include <mutex>
#include <new>
#include <stdexcept>
#include <utility>

#include "weft/memory.hpp"

namespace thread_apps {
namespace {

// Bodies closer than half^-64 of the root apart would split leaves forever; positions that
// coincide this closely are an input error, not something to simulate.
constexpr std::size_t kMaxDepth = 64;

template <class Node, class... Args>
Node* new_node(Args&&... args) {
  void* memory = weft::allocate(sizeof(Node), alignof(Node));
  return new (memory) Node(std::forward<Args>(args)...);
}

template <class Node>
void delete_node(Node* node) noexcept {
  node->~Node();
  weft::deallocate(node, sizeof(Node), alignof(Node));
}

OctCell* new_child_cell(const OctCell& parent, int octant) {
  const double half = parent.half / 2.0;
  Vec3 centre = parent.centre;
  centre.x += (octant & 1) != 0 ? half : -half;
  centre.y += (octant & 2) != 0 ? half : -half;
  centre.z += (octant & 4) != 0 ? half : -half;
  return new_node<OctCell>(centre, half);
}

void insert_from(OctCell* cell, std::size_t depth, std::span<const Body> bodies,
                 std::uint32_t index);

// Puts bodies[index] into `cell`'s slot `octant`, which is empty or holds a leaf, for a caller
// that owns the slot (holds cell's lock, or is the tree's only user). A full leaf becomes a
// cell that is built completely before the release store publishes it.
void place_in_slot(OctCell& cell, int octant, std::size_t depth, std::span<const Body> bodies,
                   std::uint32_t index) {
  std::atomic<OctNode*>& slot = cell.child[static_cast<std::size_t>(octant)];
  OctNode* node = slot.load(std::memory_order_relaxed);
  if (node == nullptr) {
    OctLeaf* leaf = new_node<OctLeaf>();
    leaf->bodies[0] = index;
    leaf->count = 1;
    slot.store(leaf, std::memory_order_release);
    return;
  }
  auto* leaf = static_cast<OctLeaf*>(node);
  if (leaf->count < kLeafCapacity) {
    leaf->bodies[leaf->count++] = index;
    return;
  }
  OctCell* split = new_child_cell(cell, octant);
  for (std::uint32_t i = 0; i < leaf->count; ++i) {
    insert_from(split, depth + 1, bodies, leaf->bodies[i]);
  }
  insert_from(split, depth + 1, bodies, index);
  slot.store(split, std::memory_order_release);
  // release: a thread that sees the bit without the lock sees the slot's cell, built.
  cell.cell_slots.fetch_or(static_cast<std::uint8_t>(1u << octant), std::memory_order_release);
  delete_node(leaf);
}

void check_depth(std::size_t depth) {
  if (depth > kMaxDepth) throw std::runtime_error("octree: bodies (nearly) coincide");
}

// The single-user insertion, from `cell` at `depth` down.
void insert_from(OctCell* cell, std::size_t depth, std::span<const Body> bodies,
                 std::uint32_t index) {
  const Vec3& pos = bodies[index].pos;
  for (;;) {
    check_depth(depth);
    const int octant = octant_of(*cell, pos);
    OctNode* node = cell->child[static_cast<std::size_t>(octant)].load(std::memory_order_relaxed);
    if (node != nullptr && !node->is_leaf) {
      cell = static_cast<OctCell*>(node);
      ++depth;
      continue;
    }
    place_in_slot(*cell, octant, depth, bodies, index);
    return;
  }
}

}  // namespace

void BoundingBox::add(const Vec3& p) noexcept {
  lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
  hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
}

void BoundingBox::merge(const BoundingBox& other) noexcept {
  add(other.lo);
  add(other.hi);
}

BoundingBox bounding_box(std::span<const Body> bodies) noexcept {
  BoundingBox box;
  for (const Body& b : bodies) box.add(b.pos);
  return box;
}

TreePtr make_root(const BoundingBox& box) {
  // An empty box (no bodies) makes a unit cube at the origin.
  const bool empty = box.lo.x > box.hi.x;
  const Vec3 lo = empty ? Vec3{} : box.lo;
  const Vec3 hi = empty ? Vec3{} : box.hi;
  const Vec3 centre = 0.5 * (lo + hi);
  const double extent = std::max({hi.x - lo.x, hi.y - lo.y, hi.z - lo.z});
  // Enlarged by a relative hair, and an absolute one for a single body, so that the extreme
  // bodies are strictly inside.
  const double half = 0.5 * extent * (1.0 + 1e-9) + 1e-300;
  return TreePtr(new_node<OctCell>(centre, half));
}

void insert_body(OctCell* root, std::span<const Body> bodies, std::uint32_t index) {
  insert_from(root, 0, bodies, index);
}

void insert_body_locked(OctCell* root, std::span<const Body> bodies, std::uint32_t index) {
  const Vec3& pos = bodies[index].pos;
  OctCell* cell = root;
  for (std::size_t depth = 0;; ++depth) {
    check_depth(depth);
    const int octant = octant_of(*cell, pos);
    const auto bit = static_cast<std::uint8_t>(1u << octant);
    std::atomic<OctNode*>& slot = cell->child[static_cast<std::size_t>(octant)];
    if ((cell->cell_slots.load(std::memory_order_acquire) & bit) == 0) {
      std::lock_guard guard(cell->lock);
      // Under the lock the slot is stable. Another thread may have turned it into a cell
      // between our look and the lock; then we go on down through that cell.
      if ((cell->cell_slots.load(std::memory_order_relaxed) & bit) == 0) {
        place_in_slot(*cell, octant, depth, bodies, index);
        return;
      }
    }
    cell = static_cast<OctCell*>(slot.load(std::memory_order_relaxed));
  }
}

void free_tree(OctCell* root) noexcept {
  for (std::atomic<OctNode*>& slot : root->child) {
    OctNode* node = slot.load(std::memory_order_relaxed);
    if (node == nullptr) continue;
    if (node->is_leaf) {
      delete_node(static_cast<OctLeaf*>(node));
    } else {
      free_tree(static_cast<OctCell*>(node));
    }
  }
  delete_node(root);
}

namespace {
void add_shape(const OctCell& cell, std::size_t depth, TreeShape& shape) {
  ++shape.cells;
  for (int octant = 0; octant < 8; ++octant) {
    const OctNode* node = child_of(cell, octant);
    if (node == nullptr) continue;
    if (node->is_leaf) {
      ++shape.leaves;
      shape.depth = std::max(shape.depth, depth + 1);
    } else {
      add_shape(static_cast<const OctCell&>(*node), depth + 1, shape);
    }
  }
}
}  // namespace

TreeShape tree_shape(const OctCell& root) {
  TreeShape shape;
  add_shape(root, 0, shape);
  return shape;
}

}  // namespace thread_apps
