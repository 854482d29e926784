// Task-parallel UTS on weft (Olivier & Prins's Generate_and_Traverse, shared/seeds/002
// Sect. 3.1): every node is a task that spawns one task per child and sums its children's
// counts at the joins. All scheduling and load balancing is left to the runtime, which is
// the point: UTS is the adversary that measures it.
#pragma once

#include <weft/weft.hpp>

#include "uts/counts.hpp"
#include "uts/tree.hpp"

namespace uts {

// Runs the traversal as the root task of `rt` and returns the whole tree's counts.
Counts traverse_weft(weft::Runtime& rt, const Tree& tree);

// The traversal for a caller that is already a task of a runtime. Outside any runtime the
// spawns run inline on the caller's own stack (weft's serial elision), which a deep tree
// can overflow: the recursion is one frame of a few hundred bytes per tree level.
Counts traverse_weft_task(const Tree& tree);

}  // namespace uts
