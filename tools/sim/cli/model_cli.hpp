// `weft-sim model`: classic load-balancing models simulated and set beside what their
// theorems predict (docs/SIMULATOR.md, "Models").
#pragma once

namespace sim {

// argv[1] is "model". Prints the table (and the JSON with --json); returns 0 when every
// figure is within its theorem's value or bound, 1 when one is outside, 2 for bad arguments
// (then nothing is run and no --json file written).
int model_command(int argc, char** argv);

}  // namespace sim
