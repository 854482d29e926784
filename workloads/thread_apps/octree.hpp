// The Barnes-Hut octree: cells with eight child slots, and leaves holding up to
// kLeafCapacity bodies (by index into the bodies array). Nodes come from weft::allocate, so
// the tree counts in the heap figures.
//
// Concurrent insertion follows the fine-grained program of Narlikar & Blelloch: threads insert
// bodies into one shared, partially built tree and lock only the cell whose child slot they
// change. A slot changes from empty to a leaf, or from a leaf to a cell, and never back, so a
// thread walks down through cells without locks; a leaf is read, written and replaced (freed)
// only under its parent's lock. Without the lock a thread therefore must not touch a node it
// has not seen to be a cell: it reads the parent's cell_slots mask instead, whose bit is set
// (release) after the slot holds the finished cell (and the acquire read of the bit sees it).
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>

#include "weft/thread.hpp"
#include "workloads/thread_apps/body.hpp"

namespace thread_apps {

inline constexpr std::uint32_t kLeafCapacity = 8;

struct OctNode {
  explicit OctNode(bool leaf) noexcept : is_leaf(leaf) {}
  const bool is_leaf;
};

struct OctLeaf : OctNode {
  OctLeaf() noexcept : OctNode(true) {}
  std::uint32_t count = 0;
  std::array<std::uint32_t, kLeafCapacity> bodies{};
};

struct OctCell : OctNode {
  OctCell(const Vec3& centre_, double half_) noexcept
      : OctNode(false), centre(centre_), half(half_) {}

  // The cube centre +- half on each axis.
  Vec3 centre;
  double half;
  std::array<std::atomic<OctNode*>, 8> child{};
  // Bit i: child[i] holds a cell, for good (see the file comment).
  std::atomic<std::uint8_t> cell_slots{0};
  // Guards this cell's child slots and the leaves in them while the tree is built in parallel.
  weft::mutex lock;

  // The summary the force walk uses (centre_of_mass.hpp fills it).
  double mass = 0.0;
  Vec3 com;
  std::uint32_t body_count = 0;
};

// The child slot of `cell` that holds position p.
inline int octant_of(const OctCell& cell, const Vec3& p) noexcept {
  return (p.x >= cell.centre.x ? 1 : 0) | (p.y >= cell.centre.y ? 2 : 0) |
         (p.z >= cell.centre.z ? 4 : 0);
}

inline const OctNode* child_of(const OctCell& cell, int octant) noexcept {
  // acquire: pairs with the release that published the node (see the file comment).
  return cell.child[static_cast<std::size_t>(octant)].load(std::memory_order_acquire);
}

// Frees every node below and including root.
void free_tree(OctCell* root) noexcept;

struct TreeDeleter {
  void operator()(OctCell* root) const noexcept { free_tree(root); }
};
using TreePtr = std::unique_ptr<OctCell, TreeDeleter>;

// The axis-aligned box around a set of points.
struct BoundingBox {
  Vec3 lo{kHuge, kHuge, kHuge};
  Vec3 hi{-kHuge, -kHuge, -kHuge};

  void add(const Vec3& p) noexcept;
  void merge(const BoundingBox& other) noexcept;

 private:
  static constexpr double kHuge = std::numeric_limits<double>::infinity();
};
BoundingBox bounding_box(std::span<const Body> bodies) noexcept;

// A root cell: the smallest cube around the box, slightly enlarged so that every body in the
// box lies strictly inside.
TreePtr make_root(const BoundingBox& box);

// Inserts bodies[index] below root. The locked form may run concurrently with itself on the
// same tree; the plain form must be the tree's only user.
void insert_body_locked(OctCell* root, std::span<const Body> bodies, std::uint32_t index);
void insert_body(OctCell* root, std::span<const Body> bodies, std::uint32_t index);

struct TreeShape {
  std::size_t cells = 0;
  std::size_t leaves = 0;
  std::size_t depth = 0;  // of the deepest leaf (the root is depth 0)
};
TreeShape tree_shape(const OctCell& root);

}  // namespace thread_apps
