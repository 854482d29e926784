// A parsed workload (cli_args.hpp's Workload) made into a program to simulate, with the
// number of tasks a correct run makes: what `run` and `paper` share.
#pragma once

#include <cstdint>
#include <memory>

#include "tools/sim/cli/cli_args.hpp"
#include "tools/sim/engine/costs.hpp"
#include "tools/sim/engine/engine.hpp"
#include "workloads/uts/tree.hpp"

namespace sim {

// Reads a dag workload's file into workload.dag (throws WdagError, tools/sim/dag/wdag_file.hpp);
// other workloads need nothing read.
void load_workload(Workload& workload);

// The task count a run of `workload` must make. A UTS tree that no preset publishes is
// counted by the serial traversal, once per call: call it once per workload.
std::uint64_t expected_tasks(const Workload& workload);

// Simulates `workload` (loaded) under `config` with `costs`' program costs.
SimResult simulate_workload(const Workload& workload, const Costs& costs,
                            const EngineConfig& config);

}  // namespace sim
