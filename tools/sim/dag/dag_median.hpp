// One DAG from several recordings of a workload (weft-sim record --repeat): a deterministic
// workload spawns and joins the same way in every run, and the recorder puts a work op
// before each spawn, join and end, zero or not, so the runs agree op for op but in their
// times. Each work op of the result is the median of its times over the runs (the lower of
// the two middle ones for an even count), which leaves out a segment an interrupt or a
// cache miss of one run lengthened; then work ops of 0 are dropped, as no time to simulate.
#pragma once

#include <stdexcept>
#include <vector>

#include "tools/sim/dag/dag.hpp"

namespace sim {

// Runs that spawned or joined differently; the message names the run, task and op.
class RecordingMismatch : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// `runs` is at least one recording, as DagRecorder::finish returns them; the result takes
// the first's spec and clock cost.
Dag median_dag(const std::vector<Dag>& runs);

}  // namespace sim
