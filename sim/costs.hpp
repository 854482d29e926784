// Every cost the simulator charges, in one place. `uncalibrated_costs()` are round figures
// of the right order for this machine kind, for tests and first runs only: calibration from
// the repository's microbenchmarks is not built yet (docs/SIMULATOR.md), and a result made
// with them says so ("costs": "uncalibrated").
#pragma once

#include "sim/engine.hpp"
#include "sim/fib_program.hpp"
#include "sim/uts_program.hpp"

namespace weft_sim {

struct Costs {
  EngineCosts engine;
  FibCosts fib;
  UtsCosts uts;
};

inline Costs uncalibrated_costs() {
  Costs c;
  c.engine = EngineCosts{.spawn_ns = 5,
                         .join_inline_ns = 5,
                         .join_stolen_ns = 100,
                         .attempt_ns = 150,
                         .claim_ns = 1000,
                         .proxy_ns = 20,
                         .poll_ns = 100};
  c.fib = FibCosts{.leaf_ns = 2, .node_ns = 3};
  c.uts = UtsCosts{.node_ns = 350, .per_child_ns = 10};
  return c;
}

}  // namespace weft_sim
