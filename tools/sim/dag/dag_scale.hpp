// Scales a recording's work to a time measured without the recorder's clocks.
//
// A recorded strand runs slower than the same code untimed: each one is bracketed by two
// clock reads and the recorder's bookkeeping, and on a program of strands of a few tens of
// nanoseconds (nqueens) that comes to half again the untimed run's time, although the clock
// read's own cost is subtracted. The shape of the DAG and the relative sizes of its strands are
// what the recording is for; its total work is better taken from an untimed serial run, as the
// UTS node costs are taken from whole traversals rather than timed nodes. That run is
// TaskCallPar's (tools/sim/dag/task_call_par.hpp): the tasks' code as weft calls it, not the serial
// elision, which the compiler may inline into itself where weft's tasks cannot be.
#pragma once

#include "tools/sim/dag/dag.hpp"

namespace sim {

// Multiplies every work op's duration by `factor` (rounded to the nearest unit; a zero stays
// zero), leaving spawns, joins and ends alone. Throws std::invalid_argument unless `factor`
// is finite and positive.
void scale_work(Dag& dag, double factor);

// The factor that makes the recording's work equal to the untimed serial run's time plus
// weft's own costs added to the recording (tools/sim/calibrate/spawn_overhead.hpp), which that run
// does not have: (serial_ps + added_ps) / the recording's work. Throws std::invalid_argument when
// the recording has no work or `serial_ps` is 0.
double work_scale_to_serial(const Dag& dag, std::uint64_t serial_ps, std::uint64_t added_ps);

}  // namespace sim
