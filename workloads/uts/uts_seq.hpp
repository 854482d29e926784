// Sequential UTS: a depth-first traversal with an explicit stack, the baseline that every
// parallel traversal is checked and timed against. An explicit stack rather than recursion
// because some trees are thousands of levels deep (T3L: 17,844).
#pragma once

#include "workloads/uts/counts.hpp"
#include "workloads/uts/tree.hpp"

namespace uts {

Counts traverse_sequential(const Tree& tree);

}  // namespace uts
