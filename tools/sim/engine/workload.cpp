#include "tools/sim/engine/workload.hpp"

#include <cstdio>

#include "tools/sim/dag/dag_program.hpp"
#include "tools/sim/dag/wdag_file.hpp"
#include "tools/sim/engine/fib_program.hpp"
#include "tools/sim/engine/uts_program.hpp"
#include "workloads/uts/tree_flags.hpp"
#include "workloads/uts/uts_seq.hpp"

namespace sim {

void load_workload(Workload& workload) {
  if (workload.kind == Workload::Kind::kDag && !workload.dag) {
    workload.dag = std::make_shared<const Dag>(read_wdag(workload.dag_path));
  }
}

std::uint64_t expected_tasks(const Workload& workload) {
  if (workload.kind == Workload::Kind::kFib) return fib_spawns(workload.fib_n) + 1;
  if (workload.kind == Workload::Kind::kDag) return workload.dag->tasks();
  if (workload.uts_nodes) return *workload.uts_nodes;
  std::fprintf(stderr, "weft-sim: no preset publishes the size of %s; counting it serially\n",
               uts::to_args(workload.uts_params).c_str());
  return uts::traverse_sequential(uts::Tree(workload.uts_params)).nodes;
}

SimResult simulate_workload(const Workload& workload, const Costs& costs,
                            const EngineConfig& config) {
  if (workload.kind == Workload::Kind::kFib) {
    return simulate(fib_program(workload.fib_n, costs.fib), config);
  }
  if (workload.kind == Workload::Kind::kDag) return simulate(dag_program(*workload.dag), config);
  const uts::Tree tree(workload.uts_params);  // outlives the simulation that reads it
  return simulate(uts_program(tree, costs.uts), config);
}

}  // namespace sim
