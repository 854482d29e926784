#include "tools/bench/cli/sweep.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <sstream>
#include <weft/weft.hpp>

#include "tools/bench/cli/fib.hpp"
#include "tools/bench/stats/randomized_blocks.hpp"
#include "tools/bench/stats/sequential_looks.hpp"
#include "workloads/common/text_format.hpp"
#include "workloads/kernels/fib.hpp"
#include "workloads/uts/presets.hpp"
#include "workloads/uts/tree_flags.hpp"
#include "workloads/uts/uts_seq.hpp"
#include "workloads/uts/uts_threads.hpp"
#include "workloads/uts/uts_weft.hpp"

namespace bench_cli {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// A weft record with the runtime it keeps across repetitions, so that thread start-up is
// not timed and every repetition meets the same warmed-up workers.
struct WeftSetup {
  std::size_t record;
  std::unique_ptr<weft::Runtime> rt;
};

std::vector<WeftSetup> make_runtimes(const Options& o, std::vector<Record>& records) {
  std::vector<WeftSetup> setups;
  for (const weft::StealMechanism mechanism : o.mechanisms) {
    for (std::size_t s = 0; s < o.steal.size(); ++s) {
      const std::string& steal = o.steal[s];
      for (unsigned w : o.workers) {
        weft::Config c = weft_run_config(o, mechanism, o.steal_policies[s], w);
        if (!o.trace.empty()) c.trace_events = kTraceEventsPerWorker;
        Record r;
        r.impl = Impl::kWeft;
        r.mechanism = mechanism;
        r.steal = steal;
        r.workers = w;
        records.push_back(std::move(r));
        setups.push_back({records.size() - 1, std::make_unique<weft::Runtime>(c)});
      }
    }
  }
  return setups;
}

void add_load(std::vector<std::uint64_t>& sum, const std::vector<std::uint64_t>& run) {
  if (sum.size() < run.size()) sum.resize(run.size());
  for (std::size_t i = 0; i < run.size(); ++i) sum[i] += run[i];
}

// Runs one weft repetition of `setup`, timing only rt.run, and records its counters (and
// profile). `load`, if given, is what the run counted (left empty: no load measured);
// otherwise the load is the spawns per worker, where the runtime counts them
// (WEFT_COUNT_SPAWNS=1, or --profile), and none is measured where it does not.
template <class F>
auto run_weft(WeftSetup& setup, Record& r, F&& f,
              const std::vector<std::uint64_t>* load = nullptr) {
  setup.rt->reset_stats();
  const auto t0 = Clock::now();
  auto result = f(*setup.rt);
  r.times.push_back(seconds_since(t0));
  const weft::Stats stats = setup.rt->stats();
  r.counters += stats.total;
  r.spawns_counted = stats.spawns_counted;
  r.frame_cost_ns = stats.frame_cost_ns;
  r.membarrier_ns = stats.membarrier_ns;
  if (r.per_worker.size() < stats.per_worker.size()) r.per_worker.resize(stats.per_worker.size());
  for (std::size_t i = 0; i < stats.per_worker.size(); ++i) r.per_worker[i] += stats.per_worker[i];
  if (load != nullptr) {
    add_load(r.load, *load);
  } else if (stats.spawns_counted) {
    std::vector<std::uint64_t> spawns;
    for (const auto& w : stats.per_worker) spawns.push_back(w.spawns);
    add_load(r.load, spawns);
  }
  return result;
}

void collect_traces(std::vector<WeftSetup>& setups, std::vector<Record>& records) {
  for (auto& s : setups) {
    if (s.rt->config().trace_events > 0) records[s.record].trace = s.rt->trace();
  }
}

std::string describe(const uts::Counts& c) {
  std::ostringstream os;
  os << c;
  return os.str();
}

void check_counts(const Record& r, const uts::Counts& got, const uts::Counts& expected,
                  const std::string& against) {
  if (got != expected) {
    throw VerifyError("WRONG COUNTS " + r.label() + ": " + describe(got) + ", " + against +
                      " gave " + describe(expected));
  }
}

// The sitting's driver for uts and fib: `run_record(i)` runs record i once (timing it and
// checking its answer); every repetition runs each record once in a shuffled order, the host's
// calibration kernel after it; the pairs with the baseline are summarised where the plan says.
void run_sitting(const Options& o, std::vector<Record>& records, SweepSitting& sitting,
                 const std::function<void(std::size_t)>& run_record, const Progress& progress,
                 const LookReport& look_report) {
  const auto t0 = Clock::now();
  std::vector<std::string_view> words(o.command_line.begin(), o.command_line.end());
  sitting.info = bench_stats::current_sitting(words, o.seed);
  sitting.until_decided = o.until_decided;
  sitting.budget_s = o.budget_s;
  sitting.resamples = o.resamples;
  for (std::size_t i = 1; i < records.size(); ++i) sitting.pairs.push_back({i, {}, 0, false});
  const auto undecided = [&sitting] {
    return static_cast<std::size_t>(
        std::count_if(sitting.pairs.begin(), sitting.pairs.end(),
                      [](const BaselinePair& p) { return !p.decided; }));
  };
  bench_stats::HostMonitor host;
  host.calibrate();
  bench_stats::RepetitionPlan plan(o.until_decided, o.repeat, o.budget_s);
  const std::uint64_t order_seed = bench_stats::derive_seed(o.seed, 1000);
  const std::uint64_t bootstrap_seed = bench_stats::derive_seed(o.seed, 2000);
  for (int rep = 1;; ++rep) {
    const double round_start = seconds_since(t0);
    for (const std::size_t i :
         bench_stats::block_order(records.size(), order_seed, static_cast<std::uint64_t>(rep))) {
      if (progress) {
        std::string label = records[i].label();
        if (o.until_decided) {
          label =
              common::format("%zu of %zu pairs undecided, %.0f s left: ", undecided(),
                             sitting.pairs.size(), std::max(0.0, o.budget_s - seconds_since(t0))) +
              label;
        }
        progress(rep, o.until_decided ? 0 : o.repeat, label);
      }
      run_record(i);
    }
    host.calibrate();
    sitting.repetitions = rep;
    const bench_stats::RepetitionPlan::Step step =
        plan.after(rep, seconds_since(t0), seconds_since(t0) - round_start);
    if (!step.look) continue;
    for (std::size_t k = 0; k < sitting.pairs.size(); ++k) {
      BaselinePair& p = sitting.pairs[k];
      if (p.decided) continue;
      p.summary = bench_stats::compare_paired(
          records[p.record].times, records[0].times,
          {o.resamples, step.confidence, bench_stats::derive_seed(bootstrap_seed, k)});
      p.look = step.look_index;
      p.decided = step.look_index > 0 && p.summary.verdict != bench_stats::Verdict::kUndecided;
    }
    if (o.until_decided && look_report) {
      look_report(common::format(
          "look %d at %d repetitions (%.2f %% intervals): %zu of %zu pairs decided, %.0f s left",
          step.look_index, rep, step.confidence * 100, sitting.pairs.size() - undecided(),
          sitting.pairs.size(), std::max(0.0, o.budget_s - seconds_since(t0))));
    }
    if (step.stop || (o.until_decided && undecided() == 0)) break;
  }
  sitting.looks = plan.looks();
  sitting.host = host.steadiness();
  sitting.elapsed_s = seconds_since(t0);
}

// Each weft run against the threads run at its worker count, over every repetition.
std::vector<ThreadsPair> threads_pairs(const Options& o, const std::vector<Record>& records) {
  std::vector<ThreadsPair> pairs;
  const std::uint64_t seed = bench_stats::derive_seed(o.seed, 3000);
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (records[i].impl != Impl::kWeft) continue;
    for (std::size_t j = 0; j < records.size(); ++j) {
      if (records[j].impl != Impl::kThreads || records[j].workers != records[i].workers) continue;
      pairs.push_back({i, j,
                       bench_stats::compare_paired(
                           records[i].times, records[j].times,
                           {o.resamples, 0.95, bench_stats::derive_seed(seed, pairs.size())})});
    }
  }
  return pairs;
}

}  // namespace

std::string Record::label() const {
  switch (impl) {
    case Impl::kSeq: return "seq";
    case Impl::kWeft:
      return "weft " + std::string(weft::mechanism_name(mechanism)) + "/" + steal +
             " w=" + std::to_string(workers);
    case Impl::kThreads: return "threads w=" + std::to_string(workers);
  }
  return "?";
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2;
}

double min_of(const std::vector<double>& v) {
  return v.empty() ? 0 : *std::min_element(v.begin(), v.end());
}

double max_of(const std::vector<double>& v) {
  return v.empty() ? 0 : *std::max_element(v.begin(), v.end());
}

double efficiency(const std::vector<std::uint64_t>& load) {
  std::uint64_t sum = 0, max = 0;
  for (std::uint64_t x : load) {
    sum += x;
    max = std::max(max, x);
  }
  if (max == 0) return 0;
  return static_cast<double>(sum) / static_cast<double>(load.size()) / static_cast<double>(max);
}

UtsResult run_uts(const Options& o, const Progress& progress, const LookReport& look_report) {
  const uts::Tree tree(o.tree);
  UtsResult result;
  result.tree_name = o.tree_name;
  result.tree_args = uts::to_args(o.tree);
  result.cutoff = o.cutoff;
  result.chunk = o.chunk;
  result.repeat = o.repeat;
  auto& records = result.records;
  records.push_back(Record{});  // the sequential baseline
  const bool want_weft = std::find(o.impls.begin(), o.impls.end(), Impl::kWeft) != o.impls.end();
  const bool want_threads =
      std::find(o.impls.begin(), o.impls.end(), Impl::kThreads) != o.impls.end();
  std::vector<WeftSetup> setups;
  if (want_weft) setups = make_runtimes(o, records);
  if (want_threads) {
    for (unsigned w : o.workers) {
      Record r;
      r.impl = Impl::kThreads;
      r.workers = w;
      records.push_back(std::move(r));
    }
  }

  // The reference counts: one sequential traversal, untimed, before any repetition (the
  // repetitions run in a shuffled order, so the timed sequential run may come last), checked
  // against the preset's published counts.
  const uts::Counts reference = uts::traverse_sequential(tree);
  if (const uts::Preset* preset = o.preset) {
    uts::Counts published = reference;
    published.nodes = preset->nodes;
    if (preset->leaves) published.leaves = *preset->leaves;
    if (preset->max_depth) published.max_depth = *preset->max_depth;
    check_counts(records[0], reference, published, "the published " + std::string(preset->name));
  }
  records[0].counts = reference;
  auto check = [&](Record& r, const uts::Counts& got) {
    check_counts(r, got, reference, "the sequential traversal");
    r.counts = got;
  };

  const auto run_record = [&](std::size_t i) {
    Record& r = records[i];
    if (r.impl == Impl::kSeq) {
      const auto t0 = Clock::now();
      const uts::Counts got = uts::traverse_sequential(tree);
      r.times.push_back(seconds_since(t0));
      check(r, got);
    } else if (r.impl == Impl::kWeft) {
      WeftSetup& s = *std::find_if(setups.begin(), setups.end(),
                                   [i](const WeftSetup& w) { return w.record == i; });
      // Nodes per worker are counted only when profiling: the count costs about 9
      // instructions per node (0.7%), which the timed runs should not carry. Otherwise
      // `nodes` stays empty, and so does the record's load.
      std::vector<std::uint64_t> nodes;
      std::vector<std::uint64_t>* counted = o.profile ? &nodes : nullptr;
      const uts::Counts got = run_weft(
          s, r, [&](weft::Runtime& rt) { return uts::traverse_weft(rt, tree, o.cutoff, counted); },
          &nodes);
      check(r, got);
    } else {
      const auto t0 = Clock::now();
      const uts::ThreadsResult got = uts::traverse_threads(tree, {r.workers, o.chunk});
      r.times.push_back(seconds_since(t0));
      add_load(r.load, got.nodes_per_thread);
      check(r, got.counts);
    }
  };
  run_sitting(o, records, result.sitting, run_record, progress, look_report);
  result.repeat = result.sitting.repetitions;
  result.vs_threads = threads_pairs(o, records);
  collect_traces(setups, records);
  result.profiled = o.profile;
  return result;
}

FibResult run_fib(const Options& o, const Progress& progress, const LookReport& look_report) {
  FibResult result;
  result.n = o.fib_n;
  result.value = kernels::fib_by_iteration(o.fib_n);
  result.spawns = static_cast<std::uint64_t>(kernels::fib_by_iteration(o.fib_n + 1) - 1);
  result.repeat = o.repeat;
  auto& records = result.records;
  records.push_back(Record{});
  std::vector<WeftSetup> setups = make_runtimes(o, records);
  const int n = o.fib_n;
  auto check = [&](const Record& r, long got) {
    if (got != result.value) {
      throw VerifyError("WRONG ANSWER " + r.label() + ": fib(" + std::to_string(n) + ") = " +
                        std::to_string(got) + ", expected " + std::to_string(result.value));
    }
  };
  const auto run_record = [&](std::size_t i) {
    Record& r = records[i];
    if (i == 0) {
      const auto t0 = Clock::now();
      const long got = fib_serial(n);
      r.times.push_back(seconds_since(t0));
      check(r, got);
      return;
    }
    WeftSetup& s = *std::find_if(setups.begin(), setups.end(),
                                 [i](const WeftSetup& w) { return w.record == i; });
    check(r,
          run_weft(s, r, [n](weft::Runtime& rt) { return rt.run([n] { return fib_weft(n); }); }));
  };
  run_sitting(o, records, result.sitting, run_record, progress, look_report);
  result.repeat = result.sitting.repetitions;
  collect_traces(setups, records);
  result.profiled = o.profile;
  return result;
}

}  // namespace bench_cli
