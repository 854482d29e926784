// A recorded DAG (tools/sim/dag/dag.hpp) as a program: task t's strand yields its ops in order, a
// work op as its units times the DAG's unit_ps, and makes each spawned child's strand only
// when the spawn is reached. A strand is the DAG's address and two indices, so a simulation
// holds no more per task than the tasks alive at once.
#pragma once

#include <memory>

#include "tools/sim/dag/dag.hpp"
#include "tools/sim/engine/program.hpp"

namespace sim {

// The root's task. `dag` must outlive the simulation and satisfy dag.hpp's invariants
// (read_wdag's and DagRecorder's DAGs do).
std::unique_ptr<Strand> dag_program(const Dag& dag);

}  // namespace sim
