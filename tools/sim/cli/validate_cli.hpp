// `weft-sim validate --real FILE.json [--workload SPEC] [--costs FILE] [--scale-cost NAME=X]
// [--barrier B] [--seed N] [--json FILE|-]`: every weft run in a weft-bench JSON file (fib,
// uts or compare) simulated in the same configuration (mechanism, policy, workers), and the
// two side by side: times and their error, steals, the differences of the profile's shares
// and the total variation between the histograms of n seen at steal attempts. The workload
// comes from the file (fib:N, uts:PRESET) or from --workload (a compare workload is simulated
// as its recording, dag:FILE from `weft-sim record`; a tree in the reference's flags as
// uts:"FLAGS"). scripts/validate_sim.sh makes the whole grid of these in one sitting and
// its summary figures (docs/SIMULATOR.md, "Validation").
// Exit 0 when every simulated run is verified, 1 if one is not, 2 for bad arguments or a file
// that is not a weft-bench JSON with weft runs.
#pragma once

namespace sim {

int validate_command(int argc, char** argv);

}  // namespace sim
