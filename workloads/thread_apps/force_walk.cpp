#include "workloads/thread_apps/force_walk.hpp"

#include <cmath>

#include "workloads/thread_apps/thread_fork.hpp"

namespace thread_apps {
namespace {

void add_attraction(const Vec3& from, const Vec3& to, double mass, double softening2, Vec3& acc) {
  const Vec3 d = to - from;
  const double r2 = dot(d, d) + softening2;
  acc += (mass / (r2 * std::sqrt(r2))) * d;
}

bool contains(const OctCell& cell, const Vec3& p) {
  return std::abs(p.x - cell.centre.x) <= cell.half && std::abs(p.y - cell.centre.y) <= cell.half &&
         std::abs(p.z - cell.centre.z) <= cell.half;
}

struct Walk {
  std::span<const Body> bodies;
  std::uint32_t self;
  Vec3 pos;
  double theta2;
  double softening2;
  Vec3 acc;

  void visit(const OctCell& cell) {
    for (int octant = 0; octant < 8; ++octant) {
      const OctNode* node = child_of(cell, octant);
      if (node == nullptr) continue;
      if (node->is_leaf) {
        const auto& leaf = static_cast<const OctLeaf&>(*node);
        for (std::uint32_t i = 0; i < leaf.count; ++i) {
          const std::uint32_t j = leaf.bodies[i];
          if (j != self) add_attraction(pos, bodies[j].pos, bodies[j].mass, softening2, acc);
        }
        continue;
      }
      const auto& sub = static_cast<const OctCell&>(*node);
      const Vec3 d = sub.com - pos;
      const double side = 2.0 * sub.half;
      // A cell that contains the body is always opened, whatever theta: its centre of mass
      // may lie far from the body and still include the body's own mass.
      if (side * side < theta2 * dot(d, d) && !contains(sub, pos)) {
        add_attraction(pos, sub.com, sub.mass, softening2, acc);
      } else {
        visit(sub);
      }
    }
  }
};

void accelerate_leaf(const OctLeaf& leaf, const OctCell& root, std::span<Body> bodies,
                     const ForceLaw& law) {
  for (std::uint32_t i = 0; i < leaf.count; ++i) {
    const std::uint32_t j = leaf.bodies[i];
    bodies[j].acc = tree_acceleration(root, bodies, j, law);
  }
}

// Visits the bodies of `cell`'s subtree with tree-order ranks in [first, last), where the
// subtree's first body has rank `base`; skips whole subtrees outside the range.
void accelerate_ranks_below(const OctCell& cell, std::size_t base, std::size_t first,
                            std::size_t last, const OctCell& root, std::span<Body> bodies,
                            const ForceLaw& law) {
  for (int octant = 0; octant < 8 && base < last; ++octant) {
    const OctNode* node = child_of(cell, octant);
    if (node == nullptr) continue;
    if (node->is_leaf) {
      const auto& leaf = static_cast<const OctLeaf&>(*node);
      for (std::uint32_t i = 0; i < leaf.count; ++i, ++base) {
        if (base >= first && base < last) {
          const std::uint32_t j = leaf.bodies[i];
          bodies[j].acc = tree_acceleration(root, bodies, j, law);
        }
      }
      continue;
    }
    const auto& sub = static_cast<const OctCell&>(*node);
    if (base + sub.body_count > first) {
      accelerate_ranks_below(sub, base, first, last, root, bodies, law);
    }
    base += sub.body_count;
  }
}

}  // namespace

Vec3 tree_acceleration(const OctCell& root, std::span<const Body> bodies, std::uint32_t index,
                       const ForceLaw& law) {
  Walk walk{bodies, index, bodies[index].pos, law.theta * law.theta, law.softening * law.softening,
            Vec3{}};
  walk.visit(root);
  return walk.acc;
}

Vec3 direct_acceleration(std::span<const Body> bodies, std::uint32_t index, double softening) {
  const Vec3 pos = bodies[index].pos;
  Vec3 acc;
  for (std::size_t j = 0; j < bodies.size(); ++j) {
    if (j != index) add_attraction(pos, bodies[j].pos, bodies[j].mass, softening * softening, acc);
  }
  return acc;
}

void accelerate_subtree(const OctCell& subtree, const OctCell& root, std::span<Body> bodies,
                        const ForceLaw& law) {
  for (int octant = 0; octant < 8; ++octant) {
    const OctNode* node = child_of(subtree, octant);
    if (node == nullptr) continue;
    if (node->is_leaf) {
      accelerate_leaf(static_cast<const OctLeaf&>(*node), root, bodies, law);
    } else {
      accelerate_subtree(static_cast<const OctCell&>(*node), root, bodies, law);
    }
  }
}

void accelerate_subtree_forking(const OctCell& subtree, const OctCell& root, std::span<Body> bodies,
                                const ForceLaw& law, std::size_t cutoff) {
  if (subtree.body_count <= cutoff) {
    accelerate_subtree(subtree, root, bodies, law);
    return;
  }
  ThreadGroup<8> children;
  for (int octant = 0; octant < 8; ++octant) {
    const OctNode* node = child_of(subtree, octant);
    if (node == nullptr || node->is_leaf) continue;
    const auto& sub = static_cast<const OctCell&>(*node);
    children.start([&sub, &root, bodies, &law, cutoff] {
      accelerate_subtree_forking(sub, root, bodies, law, cutoff);
    });
  }
  for (int octant = 0; octant < 8; ++octant) {
    const OctNode* node = child_of(subtree, octant);
    if (node != nullptr && node->is_leaf) {
      accelerate_leaf(static_cast<const OctLeaf&>(*node), root, bodies, law);
    }
  }
  children.join_all();
}

void accelerate_rank_range(const OctCell& root, std::size_t first, std::size_t last,
                           std::span<Body> bodies, const ForceLaw& law) {
  accelerate_ranks_below(root, 0, first, last, root, bodies, law);
}

}  // namespace thread_apps
