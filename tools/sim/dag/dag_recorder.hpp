// Builds a Dag (tools/sim/dag/dag.hpp) from one serial run of a program, timing each strand
// segment: the stretch of a task between two of its ops, measured with steady_clock and less what a
// clock read costs (calibrated once, the median over batches of back-to-back reads).
//
// The caller (RecordPar) brackets its own bookkeeping with pause() and resume(), so that a
// segment holds the program's code and one clock read, and nothing of the recording: every
// op is added while paused. Tasks nest as a serial run nests them: a join starts its child
// as the running task, and the child's end() returns to its parent. Tasks are numbered in
// the order they are spawned, the root 0.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tools/sim/dag/dag.hpp"

namespace sim {

// What one steady_clock::now() costs on this machine, in picoseconds.
std::uint64_t measure_clock_cost_ps();

class DagRecorder {
 public:
  using Clock = std::chrono::steady_clock;

  // `progress`, if set, is called (while paused) every 2^16 spawns with the tasks so far.
  explicit DagRecorder(std::uint64_t clock_cost_ps,
                       std::function<void(std::uint64_t)> progress = nullptr);

  // Starts the root task's first segment. Once per recorder.
  void start();
  // Ends the running task's segment: adds a work op of its time less the clock's cost,
  // zero included, so that every recording of a workload has its work ops in the same
  // places (median_dag, tools/sim/dag/dag_median.hpp, merges them and drops the zeros).
  void pause();
  // Starts the running task's next segment.
  void resume() { segment_start_ = Clock::now(); }
  // While paused: adds `ps` to the running task's next segment, beyond what it measures
  // (weft's own cost of a spawn form beyond the engine's, tools/sim/calibrate/spawn_overhead.hpp).
  void add_to_next_segment(std::uint64_t ps) {
    extra_ps_ += ps;
    added_ps_ += ps;
  }
  // All that add_to_next_segment has added so far.
  std::uint64_t added_ps() const { return added_ps_; }

  // While paused: the running task spawns a new task; returns its index.
  std::uint64_t spawn();
  // While paused: the running task joins `child` (its newest unjoined), which becomes the
  // running task.
  void join(std::uint64_t child);
  // While paused: the running task ends; its parent, if any, is running again.
  void end();

  // The recorded DAG, once the root has ended, a work op before every spawn, join and end.
  Dag finish(std::string spec);

 private:
  struct Placed {
    std::uint64_t first = 0;  // in done_
    std::uint64_t count = 0;
  };
  std::vector<DagOp>& running() { return active_[depth_ - 1].ops; }
  void begin(std::uint64_t task);

  struct Active {
    std::uint64_t task = 0;
    std::vector<DagOp> ops;  // kept between tasks at this depth, for its capacity
  };
  std::uint64_t clock_cost_ps_;
  std::function<void(std::uint64_t)> progress_;
  Clock::time_point segment_start_;
  std::uint64_t extra_ps_ = 0;  // for the next pause()
  std::uint64_t added_ps_ = 0;  // in all
  std::vector<Active> active_;  // [0, depth_): the running task and those it was joined from
  std::size_t depth_ = 0;
  std::uint64_t tasks_ = 0;
  std::uint64_t ended_ = 0;
  std::vector<DagOp> done_;     // the ended tasks' ops, in the order they ended
  std::vector<Placed> placed_;  // by task index: where its ops are in done_
};

}  // namespace sim
