#include "tools/bench/cli/report.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>
#include <vector>

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

double per_run(std::uint64_t total, int repeat) {
  return static_cast<double>(total) / static_cast<double>(repeat);
}

void times_json(std::ostream& out, const Record& r) {
  out << "\"times_s\":[";
  for (std::size_t i = 0; i < r.times.size(); ++i) out << (i ? "," : "") << number(r.times[i]);
  out << "],\"median_s\":" << number(median(r.times)) << ",\"min_s\":" << number(min_of(r.times))
      << ",\"max_s\":" << number(max_of(r.times));
}

// The run's "steal" and "mechanism": strings for weft, null for the other implementations.
void weft_keys_json(std::ostream& out, const Record& r) {
  const bool weft = r.impl == Impl::kWeft;
  out << ",\"mechanism\":" << (weft ? quote(weft::mechanism_name(r.mechanism)) : "null")
      << ",\"steal\":" << (weft ? quote(r.steal) : "null");
}

// The mech column: the weft run's mechanism, "-" for the others.
const char* mechanism_cell(const Record& r) {
  return r.impl == Impl::kWeft ? weft::mechanism_name(r.mechanism) : "-";
}

void load_json(std::ostream& out, const Record& r, int repeat) {
  out << "[";
  for (std::size_t i = 0; i < r.load.size(); ++i) {
    out << (i ? "," : "") << number(per_run(r.load[i], repeat));
  }
  out << "]";
}

void counts_json(std::ostream& out, const uts::Counts& c) {
  out << "{\"nodes\":" << c.nodes << ",\"leaves\":" << c.leaves << ",\"max_depth\":" << c.max_depth
      << "}";
}

// "123,456,789" per worker, per run, for the load column.
std::string load_text(const Record& r, int repeat) {
  std::ostringstream out;
  for (std::size_t i = 0; i < r.load.size(); ++i) {
    out << (i ? "," : "") << format("%.0f", per_run(r.load[i], repeat));
  }
  return out.str();
}

// The counter columns of a table row: steals, tasks/steal, stolen joins, leapfrogs per run
// for weft, dashes for the others.
std::string counter_cells(const Record& r, int repeat) {
  if (r.impl != Impl::kWeft) return format(" %9s %9s %10s %9s", "-", "-", "-", "-");
  const auto& c = r.counters;
  return format(" %9.0f %9.2f %10.0f %9.0f", per_run(c.steals, repeat), c.tasks_per_steal(),
                per_run(c.stolen_joins, repeat), per_run(c.leapfrogs, repeat));
}

// The execution profile of every weft record, per run (Adnan & Sato, Table 2): one row for
// all workers together, then one per worker.
std::string profile_table(const std::vector<Record>& records, int repeat) {
  std::string out =
      "\nexecution profile (shares of the workers' time; frame = pushed tasks x the calibrated\n"
      " spawn+join cost; lb_ops = tasks that ran on another worker than their spawner, per run;\n "
      "time_ms = the window per run, summed over the workers in a run's first row)\n";
  out += format("%-40s %8s %8s %8s %8s %8s %9s %10s %9s\n", "run / worker", "R_busy", "R_steal",
                "R_idle", "R_switch", "R_frame", "tasks/stl", "lb_ops", "time_ms");
  auto row = [&](const std::string& label, const weft::WorkerStats& w) {
    const weft::ProfileShares r = w.shares();
    out += format("%-40s %8.4f %8.4f %8.4f %8.4f %8.4f %9.2f %10.0f %9.2f\n", label.c_str(), r.busy,
                  r.steal, r.idle, r.switch_, r.frame, w.tasks_per_steal(),
                  per_run(w.tasks_stolen, repeat), per_run(w.window_ns, repeat) / 1e6);
  };
  for (const Record& r : records) {
    if (r.impl != Impl::kWeft) continue;
    row(r.label() + format(" (%.2f ns)", r.frame_cost_ns), r.counters);
    for (std::size_t i = 0; i < r.per_worker.size(); ++i) {
      row("  worker " + std::to_string(i), r.per_worker[i]);
    }
  }
  return out;
}

void shares_json(std::ostream& out, const weft::WorkerStats& w, int repeat) {
  const weft::ProfileShares r = w.shares();
  out << "{\"r_busy\":" << number(r.busy) << ",\"r_steal\":" << number(r.steal)
      << ",\"r_idle\":" << number(r.idle) << ",\"r_switch\":" << number(r.switch_)
      << ",\"r_frame\":" << number(r.frame)
      << ",\"busy_ns\":" << number(per_run(w.busy_ns(), repeat))
      << ",\"steal_ns\":" << number(per_run(w.steal_ns, repeat))
      << ",\"idle_ns\":" << number(per_run(w.idle_ns, repeat))
      << ",\"switch_ns\":" << number(per_run(w.switch_ns, repeat))
      << ",\"frame_ns\":" << number(per_run(w.frame_ns, repeat))
      << ",\"window_ns\":" << number(per_run(w.window_ns, repeat))
      << ",\"tasks_per_steal\":" << number(w.tasks_per_steal())
      << ",\"lb_ops\":" << number(per_run(w.tasks_stolen, repeat)) << "}";
}

// "profile": per run, all workers and each worker.
void profile_json(std::ostream& out, const Record& r, int repeat) {
  out << ",\"profile\":{\"frame_cost_ns\":" << number(r.frame_cost_ns) << ",\"total\":";
  shares_json(out, r.counters, repeat);
  out << ",\"workers\":[";
  for (std::size_t i = 0; i < r.per_worker.size(); ++i) {
    if (i != 0) out << ",";
    shares_json(out, r.per_worker[i], repeat);
  }
  out << "]}";
}

// The sitting's first line: "sitting: …" and how it ran.
std::string sitting_header(const SweepSitting& s) {
  std::string out = sitting_line(s.info) + "\n";
  if (s.until_decided) {
    out += format("--until-decided: %d look%s in %.0f s of a %.0f s budget, ", s.looks,
                  s.looks == 1 ? "" : "s", s.elapsed_s, s.budget_s);
  }
  return out + format("%d repetitions in randomized blocks (seed %llu)\n", s.repetitions,
                      static_cast<unsigned long long>(s.info.seed));
}

// Each record's time over the baseline's, paired by repetition, then the verdicts' count and
// the host's steadiness.
std::string baseline_pairs_table(const std::vector<Record>& records, const SweepSitting& s,
                                 const char* baseline) {
  std::string out =
      format("\ntime / %s's, median of the paired repetitions [interval] verdict (< 1: faster):\n",
             baseline);
  std::vector<bench_stats::PairedSummary> all;
  for (const BaselinePair& p : s.pairs) {
    out +=
        format("  %-36s %s\n", records[p.record].label().c_str(), interval_text(p.summary).c_str());
    all.push_back(p.summary);
  }
  return out + verdict_counts(all) + "\n" + host_line(s.host) + "\n";
}

// The sitting's members of the JSON document: what made it, how it ran, the host.
void sitting_json(std::ostream& out, const SweepSitting& s) {
  out << "," << bench_stats::sitting_json_members(s.info)
      << ",\"until_decided\":" << (s.until_decided ? "true" : "false")
      << ",\"budget_s\":" << (s.until_decided ? number(s.budget_s) : "null")
      << ",\"looks\":" << s.looks << ",\"elapsed_s\":" << number(s.elapsed_s)
      << ",\"repetitions\":" << s.repetitions << ",\"resamples\":" << s.resamples
      << ",\"interval\":\"percentile bootstrap\",";
  host_json(out, s.host);
}

// A run's "vs_baseline": its pair with the baseline, null for the baseline itself.
void vs_baseline_json(std::ostream& out, const SweepSitting& s, std::size_t record) {
  out << ",\"vs_baseline\":";
  for (const BaselinePair& p : s.pairs) {
    if (p.record != record) continue;
    out << "{\"look\":" << p.look;
    summary_json(out, p.summary);
    out << ",\"min\":" << number(p.summary.min) << ",\"max\":" << number(p.summary.max) << "}";
    return;
  }
  out << "null";
}

// Each weft run's time over the thread-level version's at the same worker count; "" when
// the sitting ran no such pair.
std::string threads_pairs_table(const UtsResult& res) {
  if (res.vs_threads.empty()) return "";
  std::string out =
      "\nweft's time / threads' at the same workers, median of the paired repetitions "
      "[95 % interval] verdict\n(< 1: weft faster; all repetitions, after the sitting):\n";
  for (const ThreadsPair& p : res.vs_threads) {
    out += format("  %-36s %s\n", res.records[p.weft].label().c_str(),
                  interval_text(p.summary).c_str());
  }
  return out;
}

// A weft run's "vs_threads": its pair with the threads run at its worker count, or null.
void vs_threads_json(std::ostream& out, const UtsResult& res, std::size_t record) {
  out << ",\"vs_threads\":";
  for (const ThreadsPair& p : res.vs_threads) {
    if (p.weft != record) continue;
    out << "{\"threads_workers\":" << res.records[p.threads].workers;
    summary_json(out, p.summary);
    out << "}";
    return;
  }
  out << "null";
}

}  // namespace

// Counters per run: the sums over the repetitions divided by their number (steal_sizes_seen:
// the log2 histogram of n at steal attempts, weft/stats.hpp).
void counters_json(std::ostream& out, const weft::WorkerStats& c, bool spawns_counted, int repeat) {
  out << "{\"spawns\":" << (spawns_counted ? number(per_run(c.spawns, repeat)) : "null")
      << ",\"steal_attempts\":" << number(per_run(c.steal_attempts, repeat))
      << ",\"steals\":" << number(per_run(c.steals, repeat))
      << ",\"tasks_stolen\":" << number(per_run(c.tasks_stolen, repeat))
      << ",\"tasks_per_steal\":" << number(c.tasks_per_steal())
      << ",\"fenced_steals\":" << number(per_run(c.fenced_steals, repeat))
      << ",\"failed_steals\":" << number(per_run(c.failed_steals, repeat))
      << ",\"stolen_joins\":" << number(per_run(c.stolen_joins, repeat))
      << ",\"leapfrogs\":" << number(per_run(c.leapfrogs, repeat))
      << ",\"parks\":" << number(per_run(c.parks, repeat))
      << ",\"requests_served\":" << number(per_run(c.requests_served, repeat))
      << ",\"request_timeouts\":" << number(per_run(c.request_timeouts, repeat))
      << ",\"steal_sizes_seen\":[";
  for (std::size_t b = 0; b < weft::kStealSizeBuckets; ++b) {
    out << (b ? "," : "") << number(per_run(c.steal_sizes_seen[b], repeat));
  }
  out << "]}";
}

std::string uts_table(const UtsResult& res) {
  const Record& seq = res.records.at(0);
  const double ts = median(seq.times);
  const double nodes = static_cast<double>(seq.counts.nodes);
  std::string out = format(
      "UTS %s (%s): %llu nodes, %llu leaves, depth %d; %d repetitions, "
      "cutoff %s, chunk %zu\n",
      res.tree_name.c_str(), res.tree_args.c_str(),
      static_cast<unsigned long long>(seq.counts.nodes),
      static_cast<unsigned long long>(seq.counts.leaves), seq.counts.max_depth, res.repeat,
      res.cutoff.spec().c_str(), res.chunk);
  out += sitting_header(res.sitting);
  out +=
      "(times: median/min/max s; Mnodes/s and speedup from the medians, speedup against seq;\n"
      " weft counters per run; load eff = avg/max of the nodes each thread or worker visited;\n"
      " weft counts its workers' nodes only with --profile)\n";
  out += format("%-8s %-10s %-9s %7s %9s %9s %9s %9s %8s %9s %9s %10s %9s %8s  %s\n", "impl",
                "mech", "steal", "workers", "median_s", "min_s", "max_s", "Mnodes/s", "speedup",
                "steals", "tasks/stl", "stolen_jn", "leapfrog", "load_eff", "load per worker");
  for (const Record& r : res.records) {
    const double t = median(r.times);
    out += format("%-8s %-10s %-9s %7u %9.4f %9.4f %9.4f %9.2f %8.2f",
                  std::string(impl_name(r.impl)).c_str(), mechanism_cell(r),
                  r.impl == Impl::kWeft ? r.steal.c_str() : "-", r.workers, t, min_of(r.times),
                  max_of(r.times), t > 0 ? nodes / t / 1e6 : 0.0, t > 0 ? ts / t : 0.0);
    out += counter_cells(r, res.repeat);
    if (r.impl == Impl::kSeq || r.load.empty()) {  // no load measured
      out += format(" %8s  %s\n", "-", "-");
    } else {
      out += format(" %8.3f  %s\n", efficiency(r.load), load_text(r, res.repeat).c_str());
    }
  }
  out += baseline_pairs_table(res.records, res.sitting, "seq");
  out += threads_pairs_table(res);
  if (res.profiled) out += profile_table(res.records, res.repeat);
  return out;
}

std::string uts_json(const UtsResult& res) {
  const Record& seq = res.records.at(0);
  const double ts = median(seq.times);
  std::ostringstream out;
  out << "{\"benchmark\":\"uts\",\"tree\":" << quote(res.tree_name)
      << ",\"tree_args\":" << quote(res.tree_args) << ",\"cutoff\":" << quote(res.cutoff.spec())
      << ",\"chunk\":" << res.chunk << ",\"repeat\":" << res.repeat;
  sitting_json(out, res.sitting);
  out << ",\"counts\":";
  counts_json(out, seq.counts);
  out << ",\"runs\":[";
  for (std::size_t i = 0; i < res.records.size(); ++i) {
    const Record& r = res.records[i];
    const double t = median(r.times);
    out << (i ? "," : "") << "{\"impl\":" << quote(std::string(impl_name(r.impl)));
    weft_keys_json(out, r);
    out << ",\"workers\":" << r.workers << ",";
    times_json(out, r);
    out << ",\"mnodes_per_s\":"
        << number(t > 0 ? static_cast<double>(seq.counts.nodes) / t / 1e6 : 0.0)
        << ",\"speedup_vs_seq\":" << number(t > 0 ? ts / t : 0.0);
    vs_baseline_json(out, res.sitting, i);
    out << ",\"counts\":";
    counts_json(out, r.counts);
    if (r.impl == Impl::kWeft) {
      out << ",\"counters_per_run\":";
      counters_json(out, r.counters, r.spawns_counted, res.repeat);
      out << ",\"membarrier_ns\":" << r.membarrier_ns;
      vs_threads_json(out, res, i);
      if (r.load.empty()) {  // counted only with --profile
        out << ",\"nodes_per_worker_per_run\":null,\"node_efficiency\":null";
      } else {
        out << ",\"nodes_per_worker_per_run\":";
        load_json(out, r, res.repeat);
        out << ",\"node_efficiency\":" << number(efficiency(r.load));
      }
      if (res.profiled) profile_json(out, r, res.repeat);
    } else if (r.impl == Impl::kThreads) {
      out << ",\"nodes_per_thread_per_run\":";
      load_json(out, r, res.repeat);
      out << ",\"node_efficiency\":" << number(efficiency(r.load));
    }
    out << "}";
  }
  out << "]}\n";
  return out.str();
}

std::string fib_table(const FibResult& res) {
  const double ts = median(res.records.at(0).times);
  std::string out =
      format("fib(%d) = %ld, %llu spawns per weft run, %d repetitions; serial median %.4f s\n",
             res.n, res.value, static_cast<unsigned long long>(res.spawns), res.repeat, ts);
  out += sitting_header(res.sitting);
  out +=
      "(times: median/min/max s; speedup against serial's median; ns/spawn: 1-worker\n"
      " overhead over serial per spawn; weft counters per run)\n";
  out += format("%-7s %-10s %-9s %7s %9s %9s %9s %8s %9s %9s %9s %10s %9s\n", "impl", "mech",
                "steal", "workers", "median_s", "min_s", "max_s", "speedup", "ns/spawn", "steals",
                "tasks/stl", "stolen_jn", "leapfrog");
  for (const Record& r : res.records) {
    const double t = median(r.times);
    std::string ns = "-";
    if (r.impl == Impl::kWeft && r.workers == 1 && res.spawns > 0) {
      ns = format("%.2f", (t - ts) / static_cast<double>(res.spawns) * 1e9);
    }
    out += format("%-7s %-10s %-9s %7u %9.4f %9.4f %9.4f %8.2f %9s",
                  r.impl == Impl::kSeq ? "serial" : "weft", mechanism_cell(r),
                  r.impl == Impl::kWeft ? r.steal.c_str() : "-", r.workers, t, min_of(r.times),
                  max_of(r.times), t > 0 ? ts / t : 0.0, ns.c_str());
    out += counter_cells(r, res.repeat) + "\n";
  }
  out += baseline_pairs_table(res.records, res.sitting, "serial");
  if (res.profiled) out += profile_table(res.records, res.repeat);
  return out;
}

std::string fib_json(const FibResult& res) {
  const double ts = median(res.records.at(0).times);
  std::ostringstream out;
  out << "{\"benchmark\":\"fib\",\"n\":" << res.n << ",\"value\":" << res.value
      << ",\"spawns\":" << res.spawns << ",\"repeat\":" << res.repeat;
  sitting_json(out, res.sitting);
  out << ",\"runs\":[";
  for (std::size_t i = 0; i < res.records.size(); ++i) {
    const Record& r = res.records[i];
    const double t = median(r.times);
    out << (i ? "," : "") << "{\"impl\":" << (r.impl == Impl::kSeq ? "\"serial\"" : "\"weft\"");
    weft_keys_json(out, r);
    out << ",\"workers\":" << r.workers << ",";
    times_json(out, r);
    out << ",\"speedup_vs_serial\":" << number(t > 0 ? ts / t : 0.0);
    vs_baseline_json(out, res.sitting, i);
    if (r.impl == Impl::kWeft) {
      if (r.workers == 1 && res.spawns > 0) {
        out << ",\"ns_per_spawn\":" << number((t - ts) / static_cast<double>(res.spawns) * 1e9);
      }
      out << ",\"counters_per_run\":";
      counters_json(out, r.counters, r.spawns_counted, res.repeat);
      out << ",\"membarrier_ns\":" << r.membarrier_ns;
      out << ",\"spawns_per_worker_per_run\":";
      load_json(out, r, res.repeat);
      if (res.profiled) profile_json(out, r, res.repeat);
    }
    out << "}";
  }
  out << "]}\n";
  return out.str();
}

}  // namespace bench_cli
