// Scales a recording's work to a time measured without the recorder's clocks.
//
// A recorded strand runs slower than the same code untimed: each one is bracketed by two
// clock reads and the recorder's bookkeeping, and on a program of strands of a few tens of
// nanoseconds (nqueens) that comes to half again the serial elision's time, although the clock
// read's own cost is subtracted. The shape of the DAG and the relative sizes of its strands are
// what the recording is for; its total work is better taken from the serial elision timed
// alone, as the UTS node costs are taken from whole traversals rather than timed nodes.
#pragma once

#include "sim/dag.hpp"

namespace weft_sim {

// Multiplies every work op's duration by `factor` (rounded to the nearest unit; a zero stays
// zero), leaving spawns, joins and ends alone. Throws std::invalid_argument unless `factor`
// is finite and positive.
void scale_work(Dag& dag, double factor);

// The factor that makes the recording's work equal to the serial elision's time plus weft's
// own costs added to the recording (sim/spawn_overhead.hpp), which the serial elision does not
// have: (serial_ps + added_ps) / the recording's work. Throws std::invalid_argument when the
// recording has no work or `serial_ps` is 0.
double work_scale_to_serial(const Dag& dag, std::uint64_t serial_ps, std::uint64_t added_ps);

}  // namespace weft_sim
