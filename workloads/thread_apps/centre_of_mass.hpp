// The upward pass of Barnes-Hut: each cell's mass, centre of mass and body count, from its
// children's. Every sum runs in a fixed order (children by octant, a leaf's bodies by index,
// which the pass sorts first), so the summaries do not depend on the order in which threads
// inserted the bodies and every version of the program computes the same bits.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "workloads/thread_apps/octree.hpp"

namespace thread_apps {

// Summarises every cell of the subtree rooted at `cell`, in this thread.
void summarize_subtree(OctCell& cell, std::span<const Body> bodies);

// The same, forking a weft::thread per child cell for the top `fork_levels` levels.
void summarize_subtree_forking(OctCell& cell, std::span<const Body> bodies,
                               std::size_t fork_levels);

// For a caller that divides the pass among its own threads: the cells exactly `depth` levels
// below root (each to be summarised by summarize_subtree), then summarize_above, which
// summarises the cells above that depth from them.
std::vector<OctCell*> cells_at_depth(OctCell& root, std::size_t depth);
void summarize_above(OctCell& root, std::span<const Body> bodies, std::size_t depth);

}  // namespace thread_apps
