#include "sim/workload.hpp"

#include <cstdio>

#include "sim/fib_program.hpp"
#include "sim/uts_program.hpp"
#include "uts/tree_flags.hpp"
#include "uts/uts_seq.hpp"

namespace weft_sim {

std::uint64_t expected_tasks(const Workload& workload) {
  if (workload.kind == Workload::Kind::kFib) return fib_spawns(workload.fib_n) + 1;
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
  const uts::Tree tree(workload.uts_params);  // outlives the simulation that reads it
  return simulate(uts_program(tree, costs.uts), config);
}

}  // namespace weft_sim
