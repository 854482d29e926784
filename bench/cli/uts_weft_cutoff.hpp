// The weft UTS traversal with a cutoff (Olivier & Prins Sect. 4.4): a copy of
// bench/uts/uts_weft.cpp whose spawns are weft::spawn_if(cond, ...), because that traversal
// has no cutoff parameter. A child not spawned runs at once on its parent's worker, so the
// counts are exactly those of the plain traversal.
#pragma once

#include <weft/weft.hpp>

#include "cli/args.hpp"
#include "uts/counts.hpp"
#include "uts/tree.hpp"

namespace weft_bench {

// Runs the traversal as the root task of `rt`. Cutoff::Kind::kNone spawns every child.
uts::Counts traverse_weft_cutoff(weft::Runtime& rt, const uts::Tree& tree, const Cutoff& cutoff);

}  // namespace weft_bench
