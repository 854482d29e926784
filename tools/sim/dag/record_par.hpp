// RecordPar: a backend of the compare workloads (workloads/kernels/par.hpp) that runs a
// workload serially, in the order weft runs it on one worker, and records its task DAG with
// a DagRecorder (tools/sim/dag/dag_recorder.hpp). It spawns where WeftPar spawns:
//   invoke(f, g)  spawns g, runs f on, joins g, and g runs at the join (one worker's join
//                 finds its child on top of the stack and runs it inline);
//   scope(body)   each s.spawn(fn) is a spawn; the scope's end joins the children newest
//                 first, as weft::Scope::join_all does, each running at its join;
//   for_range     runs the whole range as work of the calling task. weft::parallel_for
//                 splits a loop into chunks through its own loop queue rather than spawns,
//                 which a DAG of spawns and joins does not express: loops are recorded
//                 serially, and the loop workloads' DAGs have no parallelism inside a loop.
// A child's code runs where its join is, but in the DAG it is the spawned task. What weft's
// invoke and scope cost beyond the engine's spawn and join (tools/sim/calibrate/spawn_overhead.hpp)
// is added to the work of the task that pays it, as weft's profile counts it: busy time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "tools/sim/calibrate/spawn_overhead.hpp"
#include "tools/sim/dag/dag_recorder.hpp"

namespace sim {

class RecordPar {
 public:
  static constexpr std::string_view kName = "record";

  explicit RecordPar(DagRecorder& recorder) : recorder_(&recorder) {}

  class Scope {
   public:
    template <class F>
    void spawn(F&& fn) {
      recorder_->pause();
      // weft copies this closure into its task slot: its size is what the child costs.
      children_ps_ += scope_child_overhead_ps<sizeof(std::decay_t<F>)>();
      children_.emplace_back(recorder_->spawn(), std::function<void()>(std::forward<F>(fn)));
      recorder_->resume();
    }

   private:
    friend class RecordPar;
    explicit Scope(DagRecorder* recorder) : recorder_(recorder) {}
    DagRecorder* recorder_;
    std::vector<std::pair<std::uint64_t, std::function<void()>>> children_;
    std::uint64_t children_ps_ = 0;
  };

  template <class F>
  void run(F&& f) {
    recorder_->start();
    std::forward<F>(f)();
    recorder_->pause();
    recorder_->end();
  }
  template <class F, class G>
  void invoke(F&& f, G&& g) {
    recorder_->pause();
    const std::uint64_t child = recorder_->spawn();
    recorder_->resume();
    std::forward<F>(f)();
    recorder_->pause();
    run_child(child, g);
    recorder_->add_to_next_segment(invoke_overhead_ps());
    recorder_->resume();
  }
  template <class Body>
  void scope(Body&& body) {
    Scope s(recorder_);
    std::forward<Body>(body)(s);
    recorder_->pause();
    for (auto it = s.children_.rbegin(); it != s.children_.rend(); ++it)
      run_child(it->first, it->second);
    s.children_.clear();  // the closures' destruction is the recording's, not the parent's
    recorder_->add_to_next_segment(scope_overhead_ps() + s.children_ps_);
    recorder_->resume();
  }
  template <class Body>
  void for_range(int /*depth*/, std::size_t lo, std::size_t hi, const Body& body) {
    if (lo < hi) body(lo, hi);
  }

 private:
  // While paused: joins `child` and runs `fn` as that task, and is paused again after.
  template <class Fn>
  void run_child(std::uint64_t child, Fn& fn) {
    recorder_->join(child);
    recorder_->resume();
    fn();
    recorder_->pause();
    recorder_->end();
  }

  DagRecorder* recorder_;
};

}  // namespace sim
