// Task-parallel UTS on weft (Olivier & Prins in docs/REFERENCES.md: Generate_and_Traverse,
// Sect. 3.1): every node is a task that spawns one task per child and sums its children's
// counts at the joins. All scheduling and load balancing is left to the runtime, which is
// the point: UTS is the adversary that measures it.
#pragma once

#include <cstdint>
#include <vector>
#include <weft/weft.hpp>

#include "workloads/uts/counts.hpp"
#include "workloads/uts/tree.hpp"

namespace uts {

// When the traversal stops spawning children as tasks (Olivier & Prins Sect. 4.4). A child
// not spawned runs at once on its parent's worker (weft::spawn_if), so the counts are
// exactly those of the plain traversal.
struct SpawnCutoff {
  enum class Kind { kNone, kLevel, kTasks };
  Kind kind = Kind::kNone;
  // kLevel: spawn while the parent's depth < value; kTasks: while fewer than value tasks
  // wait on the spawning worker's stack (weft::pending_tasks()).
  std::int64_t value = 0;
};

// Runs the traversal as the root task of `rt` and returns the whole tree's counts. With
// `nodes_per_worker`, also counts the nodes each worker visited (resized to rt.workers()):
// the load balance of Olivier & Prins's Fig. 11.
Counts traverse_weft(weft::Runtime& rt, const Tree& tree, SpawnCutoff cutoff = {},
                     std::vector<std::uint64_t>* nodes_per_worker = nullptr);

// The traversal for a caller that is already a task of a runtime. Outside any runtime the
// spawns run inline on the caller's own stack (weft's serial elision), which a deep tree
// can overflow: the recursion is one frame of a few hundred bytes per tree level.
Counts traverse_weft_task(const Tree& tree, SpawnCutoff cutoff = {});

}  // namespace uts
