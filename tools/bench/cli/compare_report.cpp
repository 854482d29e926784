#include "tools/bench/cli/compare_report.hpp"

#include <algorithm>
#include <optional>
#include <sstream>

#include "tools/bench/cli/report.hpp"
#include "tools/bench/stats/sitting_report.hpp"
#include "workloads/common/text_format.hpp"

namespace bench_cli {
namespace {

using bench_stats::host_json;
using bench_stats::host_line;
using bench_stats::interval_text;
using bench_stats::sitting_line;
using bench_stats::summary_json;
using bench_stats::verdict_counts;

using common::format;
using common::number;
using common::quote;

double serial_median(const CompareWorkload& w) { return median(w.runs.front().times); }

// The workload's pairs as run_compare summarised them; for a workload put together by hand
// (no pairs), planned and summarised now at 95 %.
std::vector<ComparePair> pairs_of(const CompareWorkload& w) {
  if (!w.pairs.empty()) return w.pairs;
  CompareWorkload copy = w;
  copy.pairs = plan_pairs(copy);
  summarize_pairs(copy, 0.95, 10000, 1, 0);
  return copy.pairs;
}

// The pair whose ratio the table shows beside `run`: a weft run's over serial, a peer's
// weft/peer.
const ComparePair* pair_beside(const std::vector<ComparePair>& pairs, const CompareWorkload& w,
                               const CompareRun& run) {
  const std::size_t i = static_cast<std::size_t>(&run - w.runs.data());
  for (const ComparePair& p : pairs) {
    if (p.kind == "weft/serial" && p.a == i) return &p;
    if (p.kind == "weft/peer" && p.b == i) return &p;
  }
  return nullptr;
}

const ComparePair* pair_of_runs(const std::vector<ComparePair>& pairs, const CompareWorkload& w,
                                const CompareRun* a, const CompareRun* b) {
  for (const ComparePair& p : pairs)
    if (&w.runs[p.a] == a && &w.runs[p.b] == b) return &p;
  return nullptr;
}

double per_run(std::uint64_t total, int repeat) {
  return static_cast<double>(total) / static_cast<double>(repeat);
}

// One weft run's profile line; the steals per run that fenced rather than paid a membarrier,
// and the request mechanism's counters (per run), when nonzero.
std::string profile_cells(const CompareRun& run, int repeat) {
  const weft::WorkerStats& c = run.counters;
  const weft::ProfileShares s = c.shares();
  std::string line = format(
      "    %-30s R_busy %.3f  R_steal %.3f  R_idle %.3f  R_switch %.3f  R_frame %.3f"
      "  tasks/steal %.2f",
      run.label().c_str(), s.busy, s.steal, s.idle, s.switch_, s.frame, c.tasks_per_steal());
  if (c.fenced_steals != 0)
    line += format("  fenced_steals %.0f", per_run(c.fenced_steals, repeat));
  if (run.membarrier_ns != 0)
    line += format("  membarrier_ns %llu", static_cast<unsigned long long>(run.membarrier_ns));
  if (c.requests_served != 0 || c.request_timeouts != 0) {
    line += format("  requests_served %.0f  request_timeouts %.0f",
                   per_run(c.requests_served, repeat), per_run(c.request_timeouts, repeat));
  }
  return line + "\n";
}

// The threads a run used: what its peer reported, else its workers.
unsigned threads_of(const CompareRun& run) { return run.threads != 0 ? run.threads : run.workers; }

// Nanoseconds per innermost iteration of a loop workload (per chunk under dynamic:1).
double ns_per_iteration(const CompareWorkload& w, double seconds) {
  return seconds * 1e9 / static_cast<double>(w.iterations);
}

void workload_table(std::ostringstream& out, const CompareWorkload& w, bool profiled, int repeat) {
  const bool per_iteration = w.loops && w.iterations != 0;
  out << "\n"
      << w.spec.text() << "    (" << w.runs.front().result << "; " << w.repetitions
      << " repetitions)\n";
  // The label column: 36 wide, or the longest label's width (weft's loop settings).
  int width = 36;
  for (const CompareRun& run : w.runs)
    width = std::max(width, static_cast<int>(run.label().size()));
  out << format("  %-*s %10s %10s %10s %8s %10s", width, "implementation", "median s", "min s",
                "max s", "speedup", "cost s");
  if (per_iteration) out << format(" %9s %7s", "ns/iter", "threads");
  out << "  weft/serial or weft/peer: median [interval] verdict"
      << (w.loops ? " (weft of the peer's schedule)\n" : "\n");
  const double base = serial_median(w);
  const std::vector<ComparePair> pairs = pairs_of(w);
  for (const CompareRun& run : w.runs) {
    if (!run.skipped.empty()) {
      out << format("  %-*s skipped: %s\n", width, run.label().c_str(), run.skipped.c_str());
      continue;
    }
    const double m = median(run.times);
    out << format("  %-*s %10.4f %10.4f %10.4f %8.2f %10.4f", width, run.label().c_str(), m,
                  min_of(run.times), max_of(run.times), base / m, m * run.workers);
    if (per_iteration) out << format(" %9.2f %7u", ns_per_iteration(w, m), threads_of(run));
    if (const ComparePair* p = pair_beside(pairs, w, run)) {
      out << "  " << interval_text(p->summary);
      if (p->kind == "weft/peer") out << "  " << w.runs[p->a].weft_config();
    }
    out << "\n";
  }
  const std::vector<WeftPair> settings = weft_pairs(w);
  if (!settings.empty()) {
    out << "  weft settings, paired repetitions, median [interval] verdict (< 1: the first "
           "faster):\n";
    std::size_t name_width = 0;
    for (const WeftPair& p : settings) name_width = std::max(name_width, p.name.size());
    for (const WeftPair& p : settings) {
      const ComparePair* pair = pair_of_runs(pairs, w, p.a, p.b);
      out << format("    %-*s %s  %s\n", static_cast<int>(name_width), p.name.c_str(),
                    pair != nullptr ? interval_text(pair->summary).c_str() : "-",
                    p.context.c_str());
    }
  }
  if (!profiled) return;
  out << "  profile (weft, fractions of the workers' time):\n";
  for (const CompareRun& run : w.runs)
    if (run.impl == "weft") out << profile_cells(run, repeat);
}

void run_json(std::ostringstream& out, const CompareWorkload& w, const CompareRun& run, double base,
              int repeat) {
  // "mechanism" and "steal" are null for serial and the peers, as in the fib and UTS JSON;
  // "schedule" is weft's or a peer's on a loop workload (a peer's "default" without
  // --schedule), "variant" a peer's, null otherwise.
  const bool weft = run.impl == "weft";
  const auto or_null = [](const std::string& v) { return v.empty() ? "null" : quote(v); };
  out << "{\"impl\":" << quote(run.impl)
      << ",\"mechanism\":" << (weft ? quote(weft::mechanism_name(run.mechanism)) : "null")
      << ",\"steal\":" << (weft ? quote(run.steal) : "null")
      << ",\"schedule\":" << or_null(run.schedule) << ",\"variant\":" << or_null(run.variant)
      << ",\"workers\":" << run.workers << ",\"label\":" << quote(run.label());
  // A weft run's loop settings on a loop workload, null otherwise (as "schedule").
  const std::optional<LoopSettings>& loops = run.loop_settings;
  out << ",\"loops\":" << (loops ? quote(weft::loop_scheme_name(loops->scheme)) : "null")
      << ",\"frames\":" << (loops ? quote(weft::loop_frames_name(loops->frames)) : "null")
      << ",\"adaptive_fork\":"
      << (loops ? quote(weft::adaptive_fork_name(loops->adaptive)) : "null");
  // Whether a weft run has the defaults' mechanism, policy, schedule and loop settings (null
  // for the other implementations).
  out << ",\"defaults\":" << (weft ? (run.defaults ? "true" : "false") : "null");
  if (!run.skipped.empty()) {
    out << ",\"skipped\":" << quote(run.skipped) << "}";
    return;
  }
  out << ",\"times_s\":[";
  for (std::size_t i = 0; i < run.times.size(); ++i) out << (i ? "," : "") << number(run.times[i]);
  const double m = median(run.times);
  out << "],\"median_s\":" << number(m) << ",\"min_s\":" << number(min_of(run.times))
      << ",\"max_s\":" << number(max_of(run.times)) << ",\"speedup\":" << number(base / m)
      << ",\"cost_s\":" << number(m * run.workers) << ",\"result\":" << quote(run.result);
  if (w.loops && w.iterations != 0) {
    out << ",\"ns_per_iteration\":" << number(ns_per_iteration(w, m))
        << ",\"threads\":" << threads_of(run);
  }
  if (run.impl == "weft") {
    const weft::WorkerStats& c = run.counters;
    out << ",\"counters_per_run\":";
    counters_json(out, c, run.spawns_counted, repeat);
    out << ",\"membarrier_ns\":" << run.membarrier_ns;
    if (c.window_ns != 0) {
      const weft::ProfileShares s = c.shares();
      out << ",\"profile\":{\"r_busy\":" << number(s.busy) << ",\"r_steal\":" << number(s.steal)
          << ",\"r_idle\":" << number(s.idle) << ",\"r_switch\":" << number(s.switch_)
          << ",\"r_frame\":" << number(s.frame) << "}";
    }
  }
  out << "}";
}

// Every pair's summary, for verdict_counts.
std::vector<bench_stats::PairedSummary> all_summaries(const CompareResult& result) {
  std::vector<bench_stats::PairedSummary> all;
  for (const CompareWorkload& w : result.workloads)
    for (const ComparePair& p : pairs_of(w)) all.push_back(p.summary);
  return all;
}

}  // namespace

std::string compare_table(const CompareResult& result) {
  std::ostringstream out;
  const bench_stats::SittingInfo& s = result.sitting;
  if (result.until_decided) {
    out << format("weft-bench compare --until-decided: %d look%s in %.0f s of a %.0f s budget",
                  result.looks, result.looks == 1 ? "" : "s", result.elapsed_s, result.budget_s);
  } else {
    out << "weft-bench compare: " << result.repeat << " repetitions";
  }
  out << " in randomized blocks (seed " << s.seed
      << "); speedup = serial median / median; cost = median x workers; ratios a/b < 1: a "
         "faster\n";
  if (!s.commit.empty()) out << sitting_line(s) << "\n";
  for (const CompareWorkload& w : result.workloads)
    workload_table(out, w, result.profiled, result.repeat);
  out << "\n" << verdict_counts(all_summaries(result)) << "\n" << host_line(result.host) << "\n";
  return out.str();
}

std::string compare_json(const CompareResult& result) {
  std::ostringstream out;
  out << "{\"command\":\"compare\",\"repeat\":" << result.repeat
      << ",\"profiled\":" << (result.profiled ? "true" : "false")
      << ",\"peer_dir\":" << quote(result.peer_dir) << ","
      << bench_stats::sitting_json_members(result.sitting)
      << ",\"until_decided\":" << (result.until_decided ? "true" : "false")
      << ",\"budget_s\":" << (result.until_decided ? number(result.budget_s) : "null")
      << ",\"looks\":" << result.looks << ",\"elapsed_s\":" << number(result.elapsed_s)
      << ",\"resamples\":" << result.resamples << ",\"interval\":\"percentile bootstrap\",";
  host_json(out, result.host);
  out << ",\"workloads\":[";
  for (std::size_t k = 0; k < result.workloads.size(); ++k) {
    const CompareWorkload& w = result.workloads[k];
    const double base = serial_median(w);
    out << (k ? "," : "") << "{\"spec\":" << quote(w.spec.text())
        << ",\"name\":" << quote(w.spec.name) << ",\"size\":" << quote(w.spec.size)
        << ",\"loops\":" << (w.loops ? "true" : "false") << ",\"iterations\":" << w.iterations
        << ",\"repetitions\":" << w.repetitions << ",\"runs\":[";
    for (std::size_t i = 0; i < w.runs.size(); ++i) {
      out << (i ? "," : "");
      run_json(out, w, w.runs[i], base, result.repeat);
    }
    const std::vector<ComparePair> pairs = pairs_of(w);
    out << "],\"pairs\":[";
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      const ComparePair& p = pairs[i];
      out << (i ? "," : "") << "{\"kind\":" << quote(p.kind) << ",\"name\":" << quote(p.name)
          << ",\"a\":" << quote(w.runs[p.a].label()) << ",\"b\":" << quote(w.runs[p.b].label())
          << ",\"workers\":" << w.runs[p.a].workers;
      summary_json(out, p.summary);
      out << ",\"min\":" << number(p.summary.min) << ",\"max\":" << number(p.summary.max)
          << ",\"look\":" << p.look << "}";
    }
    out << "],\"ratios\":[";
    const std::vector<PeerRatio> ratios = peer_ratios(w);
    for (std::size_t i = 0; i < ratios.size(); ++i) {
      const PeerRatio& r = ratios[i];
      out << (i ? "," : "") << "{\"peer\":" << quote(r.peer->impl)
          << ",\"variant\":" << (r.peer->variant.empty() ? "null" : quote(r.peer->variant))
          << ",\"schedule\":" << (r.peer->schedule.empty() ? "null" : quote(r.peer->schedule))
          << ",\"workers\":" << r.peer->workers
          << ",\"weft_mechanism\":" << quote(weft::mechanism_name(r.weft->mechanism))
          << ",\"weft_steal\":" << quote(r.weft->steal)
          << ",\"weft_schedule\":" << (r.weft->schedule.empty() ? "null" : quote(r.weft->schedule))
          << ",\"median\":" << number(r.median) << ",\"min\":" << number(r.min)
          << ",\"max\":" << number(r.max);
      if (const ComparePair* pair = pair_of_runs(pairs, w, r.weft, r.peer))
        summary_json(out, pair->summary);
      out << "}";
    }
    out << "],\"weft_pairs\":[";
    const std::vector<WeftPair> settings = weft_pairs(w);
    for (std::size_t i = 0; i < settings.size(); ++i) {
      const WeftPair& p = settings[i];
      out << (i ? "," : "") << "{\"setting\":" << quote(p.setting) << ",\"name\":" << quote(p.name)
          << ",\"a\":" << quote(p.a->label()) << ",\"b\":" << quote(p.b->label())
          << ",\"workers\":" << p.a->workers << ",\"median\":" << number(p.median)
          << ",\"min\":" << number(p.min) << ",\"max\":" << number(p.max);
      if (const ComparePair* pair = pair_of_runs(pairs, w, p.a, p.b))
        summary_json(out, pair->summary);
      out << "}";
    }
    out << "]}";
  }
  out << "]}\n";
  return out.str();
}

}  // namespace bench_cli
