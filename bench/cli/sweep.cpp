#include "cli/sweep.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <sstream>
#include <weft/weft.hpp>

#include "cli/fib.hpp"
#include "uts/presets.hpp"
#include "uts/tree_flags.hpp"
#include "uts/uts_seq.hpp"
#include "uts/uts_threads.hpp"
#include "uts/uts_weft.hpp"
#include "workloads/fib.hpp"

namespace weft_bench {
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
    for (const auto& steal : o.steal) {
      for (unsigned w : o.workers) {
        weft::Config c = weft_run_config(o, mechanism, steal, w);
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
// otherwise the load is the spawns per worker.
template <class F>
auto run_weft(WeftSetup& setup, Record& r, F&& f,
              const std::vector<std::uint64_t>* load = nullptr) {
  setup.rt->reset_stats();
  const auto t0 = Clock::now();
  auto result = f(*setup.rt);
  r.times.push_back(seconds_since(t0));
  const weft::Stats stats = setup.rt->stats();
  r.counters += stats.total;
  r.frame_cost_ns = stats.frame_cost_ns;
  r.membarrier_ns = stats.membarrier_ns;
  if (r.per_worker.size() < stats.per_worker.size()) r.per_worker.resize(stats.per_worker.size());
  for (std::size_t i = 0; i < stats.per_worker.size(); ++i) r.per_worker[i] += stats.per_worker[i];
  if (load != nullptr) {
    add_load(r.load, *load);
  } else {
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

UtsResult run_uts(const Options& o, const Progress& progress) {
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
  const std::size_t first_threads = records.size();
  if (want_threads) {
    for (unsigned w : o.workers) {
      Record r;
      r.impl = Impl::kThreads;
      r.workers = w;
      records.push_back(std::move(r));
    }
  }

  const uts::Preset* preset = o.preset;
  auto check = [&](Record& r, const uts::Counts& got) {
    // The sequential run is checked against the preset; every other against the sequential.
    if (r.impl == Impl::kSeq) {
      if (preset != nullptr) {
        uts::Counts published = got;
        published.nodes = preset->nodes;
        if (preset->leaves) published.leaves = *preset->leaves;
        if (preset->max_depth) published.max_depth = *preset->max_depth;
        check_counts(r, got, published, "the published " + std::string(preset->name));
      }
      if (r.times.size() > 1) {  // a repetition: same counts as the first
        check_counts(r, got, records[0].counts, "the first sequential run");
      }
    } else {
      check_counts(r, got, records[0].counts, "the sequential run");
    }
    r.counts = got;
  };

  for (int rep = 1; rep <= o.repeat; ++rep) {
    if (progress) progress(rep, o.repeat, records[0].label());
    {
      Record& r = records[0];
      const auto t0 = Clock::now();
      const uts::Counts got = uts::traverse_sequential(tree);
      r.times.push_back(seconds_since(t0));
      check(r, got);
    }
    for (auto& s : setups) {
      Record& r = records[s.record];
      if (progress) progress(rep, o.repeat, r.label());
      // Nodes per worker are counted only when profiling: the count costs about 9
      // instructions per node (0.7%), which the timed runs should not carry. Otherwise
      // `nodes` stays empty, and so does the record's load.
      std::vector<std::uint64_t> nodes;
      std::vector<std::uint64_t>* counted = o.profile ? &nodes : nullptr;
      const uts::Counts got = run_weft(
          s, r, [&](weft::Runtime& rt) { return uts::traverse_weft(rt, tree, o.cutoff, counted); },
          &nodes);
      check(r, got);
    }
    for (std::size_t i = first_threads; i < records.size(); ++i) {
      Record& r = records[i];
      if (progress) progress(rep, o.repeat, r.label());
      const auto t0 = Clock::now();
      const uts::ThreadsResult got = uts::traverse_threads(tree, {r.workers, o.chunk});
      r.times.push_back(seconds_since(t0));
      add_load(r.load, got.nodes_per_thread);
      check(r, got.counts);
    }
  }
  collect_traces(setups, records);
  result.profiled = o.profile;
  return result;
}

FibResult run_fib(const Options& o, const Progress& progress) {
  FibResult result;
  result.n = o.fib_n;
  result.value = workloads::fib_by_iteration(o.fib_n);
  result.spawns = static_cast<std::uint64_t>(workloads::fib_by_iteration(o.fib_n + 1) - 1);
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
  for (int rep = 1; rep <= o.repeat; ++rep) {
    if (progress) progress(rep, o.repeat, "serial");
    const auto t0 = Clock::now();
    const long got = fib_serial(n);
    records[0].times.push_back(seconds_since(t0));
    check(records[0], got);
    for (auto& s : setups) {
      Record& r = records[s.record];
      if (progress) progress(rep, o.repeat, r.label());
      check(r,
            run_weft(s, r, [n](weft::Runtime& rt) { return rt.run([n] { return fib_weft(n); }); }));
    }
  }
  collect_traces(setups, records);
  result.profiled = o.profile;
  return result;
}

}  // namespace weft_bench
