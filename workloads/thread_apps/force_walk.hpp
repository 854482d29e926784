// The force phase of Barnes-Hut: a body's acceleration from a walk of the summarised octree,
// which treats a cell as one mass at its centre of mass when the cell looks small from the
// body (side / distance < theta), and the exact O(N) sum the walk is checked against.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "workloads/thread_apps/octree.hpp"

namespace thread_apps {

struct ForceLaw {
  double theta = 0.5;       // the opening criterion
  double softening = 0.05;  // Plummer softening length: 1/(r^2 + eps^2) instead of 1/r^2
};

Vec3 tree_acceleration(const OctCell& root, std::span<const Body> bodies, std::uint32_t index,
                       const ForceLaw& law);
Vec3 direct_acceleration(std::span<const Body> bodies, std::uint32_t index, double softening);

// Sets the acceleration of every body in `subtree`'s leaves from a walk of the whole tree
// (`root`), in tree order, so that consecutive walks touch mostly the same cells. The bodies
// of different subtrees are disjoint, so threads may run this on different subtrees at once.
void accelerate_subtree(const OctCell& subtree, const OctCell& root, std::span<Body> bodies,
                        const ForceLaw& law);

// The same, forking a weft::thread per child cell of any cell with more than `cutoff` bodies
// (the leaves of such a cell are done by the forking thread).
void accelerate_subtree_forking(const OctCell& subtree, const OctCell& root, std::span<Body> bodies,
                                const ForceLaw& law, std::size_t cutoff);

// Sets the acceleration of the bodies whose rank in tree order (the order
// accelerate_subtree visits them in) lies in [first, last): a static partition of the bodies
// into equal counts of spatially close bodies, for the coarse version's threads. Needs the
// body counts of the upward pass.
void accelerate_rank_range(const OctCell& root, std::size_t first, std::size_t last,
                           std::span<Body> bodies, const ForceLaw& law);

}  // namespace thread_apps
