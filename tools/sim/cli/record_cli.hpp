// weft-sim record: one serial run of a compare workload under RecordPar, verified as
// weft-bench compare verifies it, written as a .wdag (docs/WDAG.md).
//   weft-sim record --workload SPEC --out FILE.wdag
// Exit 0 on success, 1 if the workload's output is wrong (nothing is written), 2 for bad
// arguments or an output that cannot be written (the old file, if any, stays whole).
#pragma once

namespace sim {

// argv[1] is "record".
int record_command(int argc, char** argv);

}  // namespace sim
