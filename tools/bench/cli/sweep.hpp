// The sweep runner: every combination of implementation, steal mechanism and policy (weft)
// and worker count run `repeat` times, the combinations alternated within each repetition so
// that a noisy machine disturbs all of them alike, and every run checked against the baseline.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>
#include <weft/profile.hpp>
#include <weft/stats.hpp>

#include "tools/bench/cli/args.hpp"
#include "tools/bench/stats/host_steadiness.hpp"
#include "tools/bench/stats/paired.hpp"
#include "tools/bench/stats/sitting_info.hpp"
#include "workloads/uts/counts.hpp"

namespace bench_cli {

// A run whose result differs from the expected one. main reports it and exits 1.
class VerifyError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Called before each run with the repetition (1-based), the total and a label such as
// "weft concurrent/one w=2". May be empty.
using Progress = std::function<void(int rep, int repeat, const std::string& label)>;

// One combination and everything measured of it over all repetitions. A weft combination
// is (mechanism, steal policy, workers), in the order mechanism, policy, workers.
struct Record {
  Impl impl = Impl::kSeq;  // fib: kSeq is the serial recursion
  weft::StealMechanism mechanism = weft::StealMechanism::kConcurrent;  // weft only
  std::string steal;                                                   // weft only, else ""
  unsigned workers = 1;                                                // seq: 1
  std::vector<double> times;    // seconds, one per repetition, in order
  uts::Counts counts;           // uts: of the last run (all runs were checked equal)
  weft::WorkerStats counters;   // weft: rt.stats().total summed over the repetitions
  bool spawns_counted = false;  // weft: the runtime counted spawns (Stats::spawns_counted)
  // weft: rt.stats().per_worker summed over the repetitions (the profile per worker).
  std::vector<weft::WorkerStats> per_worker;
  double frame_cost_ns = 0;         // weft, profiled: the runtime's calibrated spawn+join cost
  std::uint64_t membarrier_ns = 0;  // weft: Stats::membarrier_ns after the last repetition
  // The load balance, summed over the repetitions: nodes per thread (threads) or per worker
  // (weft UTS); spawns per worker for weft fib.
  std::vector<std::uint64_t> load;
  weft::Trace trace;  // weft with --trace: the runtime's timeline over all repetitions

  std::string label() const;  // "seq", "weft concurrent/one w=2", "threads w=2"
};

// A record's claim against the baseline (records[0], the sequential or serial run): the
// record's time over the baseline's, repetition by repetition (< 1: the record faster).
struct BaselinePair {
  std::size_t record = 0;
  bench_stats::PairedSummary summary;
  int look = 0;          // the look whose data the summary holds (0: a fixed --repeat run)
  bool decided = false;  // an --until-decided look gave it a verdict, which it keeps
};

// What a uts or fib sitting records beyond its runs (docs/MEASURING.md): what made it, the
// host's steadiness, and each record's pair with the baseline.
struct SweepSitting {
  bench_stats::SittingInfo info;
  bench_stats::Steadiness host;
  std::vector<BaselinePair> pairs;  // records 1.. in order
  bool until_decided = false;
  double budget_s = 0;
  int looks = 0;
  double elapsed_s = 0;
  int resamples = 10000;
  int repetitions = 0;  // repetitions run
};

// A weft run against the thread-level version at the same worker count (a uts sitting that
// runs both): the weft record's time over the threads record's, paired by repetition, over
// all the sitting's repetitions at 95 % (< 1: weft faster). Computed once the sitting ends;
// not part of --until-decided's stopping rule, which follows the pairs with seq.
struct ThreadsPair {
  std::size_t weft = 0;     // records[weft] is a weft run
  std::size_t threads = 0;  // records[threads] the threads run at its worker count
  bench_stats::PairedSummary summary;
};

struct UtsResult {
  std::string tree_name;  // preset or "custom"
  std::string tree_args;  // the reference's flags
  Cutoff cutoff;
  std::size_t chunk = 64;
  int repeat = 0;
  bool profiled = false;
  std::vector<Record> records;  // records[0] is the sequential baseline
  SweepSitting sitting;
  std::vector<ThreadsPair> vs_threads;  // one per weft run, when threads ran at its count
};

struct FibResult {
  int n = 0;
  long value = 0;            // fib(n)
  std::uint64_t spawns = 0;  // spawns per weft run: the call tree's internal nodes
  int repeat = 0;
  bool profiled = false;
  std::vector<Record> records;  // records[0] is the serial recursion
  SweepSitting sitting;
};

// Called after each look of --until-decided with a line such as "look 2 at 15 repetitions
// (99.17 % intervals): 3 of 4 pairs decided, 41 s left". May be empty.
using LookReport = std::function<void(const std::string& line)>;

// Both run every record once per repetition, in an order shuffled from --seed
// (randomized_blocks.hpp), the host's calibration kernel between repetitions, for --repeat
// repetitions or, with --until-decided, until every record's pair with the baseline is
// decided or --budget is spent (sequential_looks.hpp).
// Throws VerifyError if a run's counts differ from the sequential traversal's (run once,
// untimed, before the repetitions) or the preset's.
UtsResult run_uts(const Options& options, const Progress& progress = {},
                  const LookReport& look_report = {});
// Throws VerifyError if a run's value differs from fib(n) by iteration.
FibResult run_fib(const Options& options, const Progress& progress = {},
                  const LookReport& look_report = {});

double median(std::vector<double> v);
double min_of(const std::vector<double>& v);
double max_of(const std::vector<double>& v);
// Load-balance efficiency avg/max of `load` (1 = perfect); 0 if all are 0.
double efficiency(const std::vector<std::uint64_t>& load);

}  // namespace bench_cli
