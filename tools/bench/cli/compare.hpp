// weft-bench compare: the workloads of workloads/kernels run on the serial elision, on weft
// (each chosen steal mechanism and policy) and on every chosen peer (tools/peers: OpenMP tasks
// on libgomp and libomp, oneTBB, Rayon, chili, Java's ForkJoinPool, Go), at each worker count. A
// loop workload runs weft once per loop schedule and each peer once per loop variant (OpenMP
// taskloop, outer, nested; oneTBB's partitioners) and per schedule (the peer protocol's --schedule:
// each
// --schedule spec, mapped onto the peer's own as omp_par.hpp and tbb_par.hpp say; without
// --schedule the peer's "default"), each its own series. Within a workload the runs alternate
// implementation by implementation in every repetition, so that the machine's noise falls on all of
// them alike; every run is verified, a peer's by the peer itself.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>
#include <weft/stats.hpp>

#include "tools/bench/cli/args.hpp"
#include "tools/bench/cli/compare_pairs.hpp"
#include "tools/bench/cli/sweep.hpp"
#include "tools/bench/stats/host_steadiness.hpp"
#include "tools/bench/stats/sitting_info.hpp"
#include "workloads/kernels/suite.hpp"

namespace bench_cli {

// The peers compare knows, in the order it runs them.
const std::vector<std::string>& known_peers();

// One implementation of one workload at one worker count.
struct CompareRun {
  std::string impl;  // "serial", "weft", or a peer's name
  weft::StealMechanism mechanism = weft::StealMechanism::kConcurrent;  // weft only
  std::string steal;                                                   // weft only
  // A loop workload's schedule: weft's Schedule spec ("dynamic:1"); a peer's the same spec,
  // or "default" (its own) when compare got no --schedule; "" otherwise.
  std::string schedule;
  std::string variant;  // a peer on a loop workload: its loop variant ("nested")
  // weft on a loop workload: its loop settings (--loops, --frames, --adaptive, else the
  // environment's); none otherwise. Labelled only where show_loop_settings (any of the three
  // options given), so that the labels stay as they were without them.
  std::optional<LoopSettings> loop_settings;
  bool show_loop_settings = false;
  // weft: its mechanism, policy and (loop workloads) schedule and loop settings are those of
  // a default weft::Config, as for a user who sets none of them.
  bool defaults = false;
  unsigned workers = 1;
  unsigned threads = 0;             // threads the run used, where its peer reports them (else 0)
  std::vector<double> times;        // seconds, one per repetition; empty when skipped
  std::string result;               // the last run's account of its output
  std::string skipped;              // why a peer did not run ("" = it ran)
  weft::WorkerStats counters;       // weft: summed over the repetitions
  bool spawns_counted = false;      // weft: the runtime counted spawns (Stats::spawns_counted)
  std::uint64_t membarrier_ns = 0;  // weft: Stats::membarrier_ns after the last repetition
  std::vector<weft::WorkerStats> per_worker;  // weft: the same per worker

  // "serial", "weft request/half w=2", "weft concurrent/one dynamic:1 w=2",
  // "weft concurrent/one dynamic:1 pcb/stack/adapt=0 w=2", "gomp w=2",
  // "gomp/nested dynamic:1 w=2", "gomp/outer default w=2"
  std::string label() const;
  // weft: "request/half", the mechanism and the policy, then the schedule if any, then the
  // loop settings if shown ("concurrent/one dynamic:1 dlist/pool/adapt=1")
  std::string weft_config() const;
  bool is_peer() const { return impl != "serial" && impl != "weft"; }
};

struct CompareWorkload {
  kernels::Spec spec;
  std::vector<CompareRun> runs;  // runs[0] is the serial elision
  bool loops = false;            // a loop workload (kernels::is_loop_workload)
  std::uint64_t iterations = 0;  // a loop workload's innermost iterations per run
  // Its claims (compare_pairs.hpp), summarised by run_compare; empty in a workload put
  // together by hand, whose report then summarises them at 95 %.
  std::vector<ComparePair> pairs;
  int repetitions = 0;  // repetitions run (with --until-decided, each workload its own)
};

struct CompareResult {
  int repeat = 0;  // --repeat: the repetitions, or with --until-decided the first look's
  bool profiled = false;
  std::string peer_dir;
  std::vector<CompareWorkload> workloads;
  // The sitting: what made it, and how steady the host was (tools/bench/stats).
  bench_stats::SittingInfo sitting;
  bench_stats::Steadiness host;
  int resamples = 10000;  // bootstrap resamples per interval
  bool until_decided = false;
  double budget_s = 0;  // --until-decided: the time allowed
  int looks = 0;        // --until-decided: the looks taken
  double elapsed_s = 0;
};

// The ratio weft/peer at one worker count: weft's run for the peer (weft_run_for_peer: the
// defaults' series, else the first, never the fastest after the fact), among weft's runs of
// the peer's schedule where weft ran it, against the peer, per repetition (the two ran side
// by side), as median and range. < 1: weft faster.
struct PeerRatio {
  const CompareRun* weft = nullptr;
  const CompareRun* peer = nullptr;
  double median = 0, min = 0, max = 0;
};
std::vector<PeerRatio> peer_ratios(const CompareWorkload& workload);

// The paired ratio of two weft series that differ in one setting only (where --mechanism,
// --steal, --schedule, --loops, --frames or --adaptive gave two values or more; the last four
// on a loop workload only): the series of the setting's first value (as the runs are
// ordered) over that of another value, repetition r over repetition r (each repetition runs
// both, so each pair ran side by side), as median and range. < 1: the first faster. One per
// other value and per series of the first value (the other settings and workers alike), in
// the runs' order.
struct WeftPair {
  // The JSON field of the setting: "mechanism", "steal", "schedule", "loops", "frames" or
  // "adaptive_fork".
  std::string setting;
  std::string name;  // "concurrent/request", "adaptive/one", "pcb/dlist", "adapt=1/0"
  // What both share: "concurrent/one dynamic:1 stack/adapt=0 w=2"
  std::string context;
  const CompareRun* a = nullptr;
  const CompareRun* b = nullptr;
  double median = 0, min = 0, max = 0;
};
std::vector<WeftPair> weft_pairs(const CompareWorkload& workload);

// The directory of the peer executables: WEFT_PEER_DIR, else ../../peers from this program's
// folder.
std::string default_peer_dir();

// Runs the sitting: every workload planned first, then repetitions, each workload's runs in
// a randomized block (tools/bench/stats/randomized_blocks.hpp, from --seed), the host's
// calibration kernel between repetitions. With --repeat R alone, R repetitions and 95 %
// intervals. With --until-decided, the workloads take repetitions in turns, looking at
// R (the first look), then x1.5 each (sequential_looks.hpp); a workload whose pairs are all
// decided stops running, and the sitting ends when none is left or the next repetition
// would pass --budget (after a last look). Throws VerifyError when any run's output is wrong
// (a peer's included) and PeerError (peer_process.hpp) when a peer breaks the protocol.
CompareResult run_compare(const Options& options, const Progress& progress = {},
                          const LookReport& look_report = {});

}  // namespace bench_cli
