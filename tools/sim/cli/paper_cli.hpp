// `weft-sim paper [--workers 24] [--fib N] [--seed N] [--costs FILE] [--scale-cost NAME=X]
// [--json FILE|-]`: tools/sim/cli/paper.hpp's experiments, a table on stdout and the rows and runs
// as JSON. Exit 0 whatever the verdicts (they are findings), 1 if a run's task count is wrong, 2
// for bad arguments.
#pragma once

namespace sim {

int paper_command(int argc, char** argv);

}  // namespace sim
