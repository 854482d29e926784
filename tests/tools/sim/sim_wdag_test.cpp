// Recorded DAGs (tools/sim/dag/record_par.hpp, tools/sim/dag/wdag_file.hpp,
// tools/sim/dag/dag_program.hpp): a recorded workload survives the file unchanged; the reader
// refuses a truncated file at every offset, a bad magic or version, and each way a DAG can break
// weft's rules, naming the offset; and the simulated recording makes weft's own spawns and inline
// joins on one worker and runs every task once at any worker count. Nothing here depends on the
// times measured.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "tools/sim/calibrate/spawn_overhead.hpp"
#include "tools/sim/dag/dag_median.hpp"
#include "tools/sim/dag/dag_program.hpp"
#include "tools/sim/dag/dag_recorder.hpp"
#include "tools/sim/dag/dag_scale.hpp"
#include "tools/sim/dag/record_par.hpp"
#include "tools/sim/dag/wdag_file.hpp"
#include "tools/sim/engine/costs.hpp"
#include "tools/sim/engine/engine.hpp"
#include "weft/weft.hpp"
#include "workloads/kernels/fft.hpp"
#include "workloads/kernels/nqueens.hpp"
#include "workloads/kernels/sparselu.hpp"
#include "workloads/kernels/strassen.hpp"
#include "workloads/kernels/weft_par.hpp"

namespace {

using sim::Dag;
using sim::DagOp;
using sim::DagOpKind;
using sim::WdagError;

// Records one serial run of W; the run must verify.
template <class W>
Dag record(const typename W::Params& params, const char* spec) {
  sim::DagRecorder recorder(sim::measure_clock_cost_ps());
  sim::RecordPar par(recorder);
  const kernels::Outcome outcome = kernels::measure<W>(params, par);
  EXPECT_EQ(outcome.error, "") << spec;
  return recorder.finish(spec);
}

// Strassen at 64 with base 16: two levels, 56 product tasks.
const kernels::Strassen::Params kStrassen{.n = 64, .base = 16};

DagOp work(std::uint64_t units) { return DagOp::make(DagOpKind::kWork, units); }
DagOp spawn(std::uint64_t child) { return DagOp::make(DagOpKind::kSpawn, child); }
DagOp join(std::uint64_t child) { return DagOp::make(DagOpKind::kJoin, child); }
DagOp end() { return DagOp::make(DagOpKind::kEnd, 0); }

// A DAG from each task's ops.
Dag dag_of(const std::vector<std::vector<DagOp>>& tasks) {
  Dag dag;
  dag.spec = "hand";
  dag.clock_cost_ps = 20'000;
  for (const std::vector<DagOp>& ops : tasks) {
    dag.ops.insert(dag.ops.end(), ops.begin(), ops.end());
    dag.first_op.push_back(dag.ops.size());
  }
  return dag;
}

// Four tasks: nested spawns, joins newest first, a work op of three varint bytes.
Dag small_dag() {
  return dag_of({{work(3), spawn(1), spawn(2), work(200), join(2), join(1), end()},
                 {work(1), end()},
                 {spawn(3), work(70000), join(3), end()},
                 {end()}});
}

// The message of the WdagError that decoding `bytes` throws, or "" if none is thrown.
std::string decode_error(const std::string& bytes) {
  try {
    (void)sim::decode_wdag(bytes, "f.wdag");
  } catch (const WdagError& e) {
    return e.what();
  }
  return "";
}

void expect_error(const std::string& bytes, const std::string& where, const std::string& what) {
  const std::string error = decode_error(bytes);
  EXPECT_NE(error.find("f.wdag: offset " + where), std::string::npos) << error;
  EXPECT_NE(error.find(what), std::string::npos) << error;
}

TEST(SimWdag, ARecordedWorkloadSurvivesTheFile) {
  const Dag dag = record<kernels::Strassen>(kStrassen, "strassen:64");
  EXPECT_EQ(dag.tasks(), 57u);  // the root and 7 + 49 products
  EXPECT_EQ(sim::decode_wdag(sim::encode_wdag(dag), "f.wdag"), dag);

  const std::string path = ::testing::TempDir() + "sim_wdag_test.wdag";
  ASSERT_EQ(sim::write_wdag(path, dag), "");
  const Dag read = sim::read_wdag(path);
  std::remove(path.c_str());
  EXPECT_EQ(read, dag);
  EXPECT_EQ(read.spec, "strassen:64");
  EXPECT_EQ(read.unit_ps, 1000u);
}

TEST(SimWdag, EveryTruncationIsRefusedWithItsOffset) {
  const std::string bytes = sim::encode_wdag(small_dag());
  ASSERT_EQ(decode_error(bytes), "");
  for (std::size_t size = 0; size < bytes.size(); ++size) {
    const std::string error = decode_error(bytes.substr(0, size));
    EXPECT_NE(error.find("f.wdag: offset "), std::string::npos) << size << ": " << error;
  }
}

// A corrupt byte anywhere is refused or read as another valid DAG, and never read out of
// bounds (the sanitized builds run this).
TEST(SimWdag, ACorruptByteIsRefusedOrReadSafely) {
  const std::string good = sim::encode_wdag(small_dag());
  int refused = 0;
  for (std::size_t at = 0; at < good.size(); ++at) {
    for (const char byte : {'\x00', '\x01', '\x7f', '\x80', '\xff'}) {
      std::string bytes = good;
      bytes.replace(at, 1, 1, byte);
      refused += decode_error(bytes).empty() ? 0 : 1;
    }
  }
  EXPECT_GT(refused, 0);
}

// `bytes` with `with` written over it from `offset`.
std::string patched(std::string bytes, std::size_t offset, std::string_view with) {
  return bytes.replace(offset, with.size(), with);
}

TEST(SimWdag, TheHeaderIsChecked) {
  const std::string good = sim::encode_wdag(dag_of({{work(5), end()}}));
  expect_error(patched(good, 1, "X"), "0: magic", "not a .wdag file");
  expect_error(patched(good, 8, "\x02"), "8: version", "version 2");
  // "hand" is 4 bytes from offset 16: tasks at 20, ops at 28, unit_ps (1000) at 44.
  expect_error(patched(good, 20, "\x09"), "20: tasks", "9 tasks");
  expect_error(patched(good, 28, "\x03"), "28: ops", "the header says 3, the tasks have 2");
  expect_error(patched(good, 44, std::string(2, '\0')), "44: unit_ps", "zero");
  expect_error(good + '\0', std::to_string(good.size()) + ": end of file", "1 bytes after");
}

TEST(SimWdag, ADagThatBreaksWeftsRulesIsRefused) {
  // The body starts at 52: task 0's op count, then its ops, a byte each here.
  expect_error(sim::encode_wdag(dag_of({{spawn(1), join(2), end()}, {end()}, {end()}})),
               "54: task 0 op 1", "join of task 2, which this task has not spawned");
  expect_error(sim::encode_wdag(dag_of({{spawn(1), spawn(2), join(1), end()}, {end()}, {end()}})),
               "55: task 0 op 2", "join of task 1, not the newest unjoined child (task 2)");
  expect_error(sim::encode_wdag(dag_of({{spawn(5), join(5), end()}, {end()}})), "53: task 0 op 0",
               "spawn of task 0 + 5, out of range");
  expect_error(sim::encode_wdag(dag_of({{spawn(1), join(1), spawn(1), join(1), end()}, {end()}})),
               "55: task 0 op 2", "task 1 spawned twice");
  expect_error(sim::encode_wdag(dag_of({{work(1), end()}, {end()}})), "55: task 1 op_count",
               "never spawned");
  expect_error(sim::encode_wdag(dag_of({{spawn(1), end()}, {end()}})), "54: task 0 op 1",
               "1 children not joined");
  expect_error(sim::encode_wdag(dag_of({{end(), work(1)}})), "53: task 0 op 0",
               "an end before the task's last op");
  expect_error(sim::encode_wdag(dag_of({{work(1)}})), "53: task 0 op 0", "last op is not an end");
}

TEST(SimWdag, RepeatedRecordingsMergeIntoTheMedianTimes) {
  const Dag a = dag_of({{work(4), spawn(1), work(0), join(1), work(9), end()}, {work(7), end()}});
  const Dag b = dag_of({{work(2), spawn(1), work(0), join(1), work(1), end()}, {work(0), end()}});
  const Dag c = dag_of({{work(3), spawn(1), work(0), join(1), work(5), end()}, {work(9), end()}});
  // The medians 3, 0 (dropped), 5 and 7.
  EXPECT_EQ(sim::median_dag({a, b, c}),
            dag_of({{work(3), spawn(1), join(1), work(5), end()}, {work(7), end()}}));
  EXPECT_EQ(sim::median_dag({b}), dag_of({{work(2), spawn(1), join(1), work(1), end()}, {end()}}));
  const Dag other = dag_of({{work(3), spawn(1), join(1), work(5), end()}, {work(9), end()}});
  EXPECT_THROW((void)sim::median_dag({a, other}), sim::RecordingMismatch);
  // Two recordings of a workload agree op for op but in their times.
  const Dag first = record<kernels::NQueens>({.n = 6}, "nqueens:6");
  const Dag second = record<kernels::NQueens>({.n = 6}, "nqueens:6");
  EXPECT_EQ(sim::median_dag({first, second}).tasks(), first.tasks());
}

TEST(SimWdag, ScalingTheWorkScalesEveryWorkOpAndNothingElse) {
  Dag dag = dag_of({{work(10), spawn(1), work(0), join(1), work(5), end()}, {work(4), end()}});
  // 19 units of 1 ns; a serial elision of 12 ns and 3 ns of weft's own costs: 15/19.
  const double factor = sim::work_scale_to_serial(dag, 12'000, 3'000);
  EXPECT_DOUBLE_EQ(factor, 15.0 / 19.0);
  sim::scale_work(dag, factor);
  // 7.89 -> 8, 0 stays 0, 3.95 -> 4, 3.16 -> 3: each rounded to the nearest unit.
  EXPECT_EQ(dag, dag_of({{work(8), spawn(1), work(0), join(1), work(4), end()}, {work(3), end()}}));
  sim::scale_work(dag, 2.0);
  EXPECT_EQ(dag.work_units(), 30u);
  for (const double bad : {0.0, -1.0, std::numeric_limits<double>::infinity(),
                           std::numeric_limits<double>::quiet_NaN()}) {
    EXPECT_THROW(sim::scale_work(dag, bad), std::invalid_argument) << bad;
  }
  EXPECT_THROW((void)sim::work_scale_to_serial(dag, 0, 0), std::invalid_argument);
  EXPECT_THROW((void)sim::work_scale_to_serial(dag_of({{end()}}), 1000, 0), std::invalid_argument);
}

// The spawns and inline joins of one run on a one-worker weft::Runtime.
template <class W>
weft::WorkerStats weft_one_worker(const typename W::Params& params) {
  weft::Config config;
  config.workers = 1;
  config.count_spawns = true;
  weft::Runtime runtime(config);
  weft::Stats stats;
  kernels::WeftPar par(runtime, &stats);
  EXPECT_EQ(kernels::measure<W>(params, par).error, "");
  return stats.total;
}

sim::SimResult simulate(const Dag& dag, unsigned workers, weft::StealMechanism mechanism) {
  return sim::simulate(
      sim::dag_program(dag),
      sim::EngineConfig{
          .workers = workers, .mechanism = mechanism, .costs = sim::uncalibrated_costs().engine});
}

template <class W>
void expect_weft_counts_on_one_worker(const typename W::Params& params, const char* spec) {
  const Dag dag = record<W>(params, spec);
  const weft::WorkerStats real = weft_one_worker<W>(params);
  const sim::SimResult sim = simulate(dag, 1, weft::StealMechanism::kConcurrent);
  EXPECT_GT(real.spawns, 0u) << spec;
  EXPECT_EQ(real.overflow_spawns, 0u) << spec;
  EXPECT_EQ(sim.counters.spawns, real.spawns) << spec;
  EXPECT_EQ(sim.counters.inline_joins, real.inline_joins) << spec;
  EXPECT_EQ(dag.tasks(), real.spawns + 1) << spec;
}

TEST(SimWdag, OnOneWorkerARecordingMakesWeftsSpawnsAndInlineJoins) {
  expect_weft_counts_on_one_worker<kernels::Strassen>(kStrassen, "strassen:64");
  // Invokes (fft), scopes wider than weft::Scope's inline futures (sparselu) and
  // data-dependent scopes (nqueens).
  expect_weft_counts_on_one_worker<kernels::Fft>({.log2_points = 14}, "fft:2^14");
  expect_weft_counts_on_one_worker<kernels::SparseLu>({.blocks = 12, .block_size = 4},
                                                      "sparselu:12x4");
  expect_weft_counts_on_one_worker<kernels::NQueens>({.n = 6}, "nqueens:6");
}

TEST(SimWdag, EveryRecordedTaskRunsOnceAtAnyWorkerCount) {
  const Dag dag = record<kernels::Strassen>(kStrassen, "strassen:64");
  for (weft::StealMechanism mechanism :
       {weft::StealMechanism::kConcurrent, weft::StealMechanism::kRequest}) {
    for (unsigned p : {1u, 2u, 4u}) {
      const sim::SimResult r = simulate(dag, p, mechanism);
      EXPECT_EQ(r.tasks, dag.tasks()) << p;
      EXPECT_EQ(r.counters.spawns + 1, dag.tasks()) << p;
    }
  }
}

TEST(SimWdag, OneWorkerTakesTheRecordedWorkPlusTheFrames) {
  // 3 + 200 + 1 + 70000 units of 1000 ps, and three spawns with their inline joins.
  const Dag dag = small_dag();
  const sim::EngineCosts costs = sim::uncalibrated_costs().engine;
  const sim::SimResult r = simulate(dag, 1, weft::StealMechanism::kConcurrent);
  EXPECT_EQ(r.makespan_ps, 70204u * 1000 + 3 * (costs.spawn_ps + costs.join_inline_ps));
}

}  // namespace

namespace {

// weft's cost of a scope and its children beyond the engine's spawns and joins is in the
// work of the segment after the scope: with a clock cost so large that every measured part
// is 0, a recording of a scope with three 40-byte children holds exactly that there, and
// the segment before it nothing.
TEST(SimWdag, AScopesOwnCostIsInTheSegmentAfterIt) {
  struct Child40 {
    std::array<std::int64_t, 5> pad{};
    void operator()() const {}
  };
  const std::uint64_t extra =
      sim::scope_overhead_ps() + 3 * sim::scope_child_overhead_ps<sizeof(Child40)>();
  ASSERT_GT(extra, 0u) << "a scope costs more than nothing";
  sim::DagRecorder recorder(/*clock_cost_ps=*/1'000'000'000);  // so measured parts are 0
  sim::RecordPar par(recorder);
  par.run([&] {
    par.scope([](auto& s) {
      for (int i = 0; i < 3; ++i) s.spawn(Child40{});
    });
  });
  const Dag dag = recorder.finish("scope");
  ASSERT_EQ(dag.tasks(), 4u);
  // The root: work, 3 spawns (each after a work op), the joins, then the work after the
  // scope, and its end.
  const DagOp after_scope = dag.ops[dag.first_op[1] - 2];
  ASSERT_EQ(after_scope.kind(), DagOpKind::kWork);
  EXPECT_EQ(after_scope.operand(), (extra + dag.unit_ps / 2) / dag.unit_ps);
  EXPECT_EQ(dag.ops[0], work(0)) << "nothing was added before the scope";
}

}  // namespace
