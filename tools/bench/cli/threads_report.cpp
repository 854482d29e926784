#include "tools/bench/cli/threads_report.hpp"

#include <functional>
#include <sstream>
#include <vector>

#include "tools/bench/stats/sitting_report.hpp"
#include "tools/bench/threads/thread_tree.hpp"
#include "workloads/common/text_format.hpp"

namespace bench_cli {
namespace {

using bench_threads::Bench;
using bench_threads::Blocks;
using bench_threads::MicroSeries;
using bench_threads::Pair;
using bench_threads::Sample;
using bench_threads::Series;
using common::format;
using common::number;
using common::quote;

double median_of(const Series& s, const std::function<double(const Sample&)>& field) {
  std::vector<double> v;
  for (const Sample& x : s.samples) v.push_back(field(x));
  return bench_threads::median(v);
}
double median_seconds(const Series& s) {
  return median_of(s, [](const Sample& x) { return x.seconds; });
}
double median_heap(const Series& s) {
  return median_of(s, [](const Sample& x) { return static_cast<double>(x.heap_peak); });
}
double median_count(const Series& s, std::uint64_t weft::ThreadStats::*field) {
  return median_of(s, [field](const Sample& x) { return static_cast<double>(x.threads.*field); });
}

const Series* serial_of(const bench_threads::Result& r, const Series& s) {
  for (const Series& x : r.series)
    if (x.bench == s.bench && x.size == s.size && x.version == "serial") return &x;
  return nullptr;
}

bool is_sched(const Series& s, weft::ThreadSched sched) { return s.sched && *s.sched == sched; }

const Blocks* find_blocks(const bench_threads::Result& r, Bench bench, std::size_t size) {
  for (const Blocks& b : r.blocks)
    if (b.bench == bench && b.size == size) return &b;
  return nullptr;
}

std::string pair_name(const bench_threads::Result& r, const Pair& p) {
  std::string name = r.series[p.a].label();
  name += " / ";
  name += r.series[p.b].label();
  return name;
}

// The pairs of one benchmark at one size: each series' time over its baseline's, the median of
// the paired repetitions with its interval and verdict.
std::string pairs_block(const bench_threads::Result& r, Bench bench, std::size_t size) {
  const Blocks* b = find_blocks(r, bench, size);
  if (b == nullptr || b->pairs.empty()) return "";
  std::string out =
      "time / baseline's, median of the paired repetitions [interval] verdict (< 1: faster):\n";
  for (const Pair& p : b->pairs)
    out += format("  %-46s %s\n", pair_name(r, p).c_str(),
                  bench_stats::interval_text(p.summary).c_str());
  return out;
}

const MicroSeries* find_micro(const bench_threads::Result& r, const std::string& op,
                              const std::string& impl) {
  for (const MicroSeries& m : r.micro)
    if (m.op == op && m.impl == impl) return &m;
  return nullptr;
}

std::string micro_table(const bench_threads::Result& r) {
  std::string out = format(
      "micro: ns per unit, median of %d (weft: 1 worker; OS-thread ping-pongs pinned to one "
      "CPU)\n",
      r.settings.repeat);
  out += format("%-12s %-9s %-5s %-12s %11s %11s %11s %9s\n", "operation", "impl", "sched", "unit",
                "median_ns", "min_ns", "max_ns", "weft/std");
  for (const MicroSeries& m : r.micro) {
    const double med = bench_threads::median(m.ns);
    std::string ratio = "-";
    if (m.impl == "weft") {
      if (const MicroSeries* os = find_micro(r, m.op, "std"))
        ratio = format("%.4f", med / bench_threads::median(os->ns));
    }
    double lo = m.ns.empty() ? 0 : m.ns[0], hi = lo;
    for (double x : m.ns) lo = std::min(lo, x), hi = std::max(hi, x);
    out += format("%-12s %-9s %-5s %-12s %11.1f %11.1f %11.1f %9s\n", m.op.c_str(), m.impl.c_str(),
                  m.sched ? weft::thread_sched_name(*m.sched) : "-", m.unit.c_str(), med, lo, hi,
                  ratio.c_str());
  }
  const MicroSeries* bare = find_micro(r, "yield", "fcontext");
  for (const MicroSeries& m : r.micro) {
    if (m.op == "yield" && m.impl == "weft" && bare != nullptr)
      out += format("yield switch / bare jump_fcontext switch: %.2f\n",
                    bench_threads::median(m.ns) / bench_threads::median(bare->ns));
  }
  return out;
}

std::string matmul_table(const bench_threads::Result& r, std::size_t n) {
  const Series* serial = nullptr;
  for (const Series& s : r.series)
    if (s.bench == Bench::kMatmul && s.size == n && s.version == "serial") serial = &s;
  if (serial == nullptr) return "";
  const double s1 = median_heap(*serial), t1 = median_seconds(*serial);
  std::string out = format(
      "\nmatmul n=%zu: S1 = %.1f MiB (the serial elision's heap high-water, A, B and C "
      "included), T1 = %.4f s; base 64, additions down to %zu\n",
      n, s1 / bench_threads::kMiB, t1, r.matmul_add_base);
  out += format("%-30s %9s %7s %9s %7s %8s %8s %8s %9s %7s %7s %8s %6s\n", "version", "median_s",
                "speedup", "heap_MiB", "heap/S1", "max_live", "dummies", "preempt", "lock_acq",
                "user_s", "sys_s", "minflt", "majflt");
  for (const Series& s : r.series) {
    if (s.bench != Bench::kMatmul || s.size != n) continue;
    const double t = median_seconds(s), heap = median_heap(s);
    out += format(
        "%-30s %9.4f %7.2f %9.1f %7.2f %8.0f %8.0f %8.0f %9.0f %7.3f %7.3f %8.0f %6.0f\n",
        s.label().c_str(), t, t1 / t, heap / bench_threads::kMiB, heap / s1,
        median_count(s, &weft::ThreadStats::max_live), median_count(s, &weft::ThreadStats::dummies),
        median_count(s, &weft::ThreadStats::preemptions),
        median_count(s, &weft::ThreadStats::sched_lock_acquisitions),
        median_of(s, [](const Sample& x) { return x.user_s; }),
        median_of(s, [](const Sample& x) { return x.sys_s; }),
        median_of(s, [](const Sample& x) { return static_cast<double>(x.minor_faults); }),
        median_of(s, [](const Sample& x) { return static_cast<double>(x.major_faults); }));
  }
  return out + pairs_block(r, Bench::kMatmul, n);
}

// df and dfd: within S1 + 4·p·D·K; fifo: at least 20·S1 (the breadth-first blow-up).
std::string tree_verdict(const Series& s, double heap, double s1) {
  if (is_sched(s, weft::ThreadSched::kFifo)) return heap >= 20 * s1 ? ">=20*S1" : "<20*S1";
  if (s.quota == 0) return "-";
  const int d = bench_threads::tree_fork_depth(static_cast<int>(s.size), s.quota);
  const std::size_t bound =
      bench_threads::tree_space_bound(static_cast<std::size_t>(s1), s.workers, d, s.quota);
  return heap <= static_cast<double>(bound) ? "within" : "EXCEEDS";
}

std::string tree_table(const bench_threads::Result& r) {
  std::string out;
  for (const Series& serial : r.series) {
    if (serial.bench != Bench::kTree || serial.version != "serial") continue;
    const double s1 = median_heap(serial);
    const int depth = static_cast<int>(serial.size);
    out += format(
        "\ntree depth %d: %zu threads holding %zu KiB each; S1 = %.0f KiB (measured); bound "
        "S1 + 4*p*D*K with D = 1 (root thread) + %d (levels) + the dummy tree's depth\n",
        depth, (std::size_t{2} << depth) - 1, r.tree_node_bytes / bench_threads::kKiB,
        s1 / bench_threads::kKiB, depth);
    out +=
        format("%-30s %9s %10s %8s %4s %10s %-8s %8s %8s %8s\n", "version", "median_s", "heap_KiB",
               "heap/S1", "D", "bound_KiB", "verdict", "max_live", "dummies", "preempt");
    for (const Series& s : r.series) {
      if (s.bench != Bench::kTree || s.size != serial.size) continue;
      const double heap = median_heap(s);
      std::string d = "-", bound = "-";
      if (s.quota != 0) {
        const int fd = bench_threads::tree_fork_depth(depth, s.quota);
        d = std::to_string(fd);
        bound = format("%.0f", static_cast<double>(bench_threads::tree_space_bound(
                                   static_cast<std::size_t>(s1), s.workers, fd, s.quota)) /
                                   bench_threads::kKiB);
      }
      out += format("%-30s %9.4f %10.0f %8.2f %4s %10s %-8s %8.0f %8.0f %8.0f\n", s.label().c_str(),
                    median_seconds(s), heap / bench_threads::kKiB, heap / s1, d.c_str(),
                    bound.c_str(), s.version == "serial" ? "-" : tree_verdict(s, heap, s1).c_str(),
                    median_count(s, &weft::ThreadStats::max_live),
                    median_count(s, &weft::ThreadStats::dummies),
                    median_count(s, &weft::ThreadStats::preemptions));
    }
    out += pairs_block(r, Bench::kTree, serial.size);
  }
  return out;
}

std::string many_table(const bench_threads::Result& r) {
  std::string out;
  for (const Series& serial : r.series) {
    if (serial.bench != Bench::kMany || serial.version != "serial") continue;
    const double t1 = median_seconds(serial);
    out += format(
        "\nmany: %zu threads, each ending in a leaf of %u SplitMix64 steps (serial elision: "
        "%.0f ns per leaf)\n",
        serial.size, r.many_leaf_rounds, t1 * 1e9 / static_cast<double>(serial.size));
    out += format("%-30s %9s %10s %12s %9s %10s\n", "version", "median_s", "threads",
                  "lock_acq/thr", "max_live", "time/df");
    for (const Series& s : r.series) {
      if (s.bench != Bench::kMany || s.size != serial.size) continue;
      const double t = median_seconds(s);
      const double made = median_count(s, &weft::ThreadStats::made);
      const double acq = median_count(s, &weft::ThreadStats::sched_lock_acquisitions);
      std::string vs_df = "-";
      for (const Series& df : r.series) {
        if (df.bench == Bench::kMany && df.size == s.size && df.workers == s.workers &&
            df.stack == s.stack && is_sched(df, weft::ThreadSched::kDf) && s.version == "threads")
          vs_df = format("%.3f", t / median_seconds(df));
      }
      out += format("%-30s %9.4f %10.0f %12s %9.0f %10s\n", s.label().c_str(), t, made,
                    s.version == "serial" ? "-" : format("%.4f", made > 0 ? acq / made : 0).c_str(),
                    median_count(s, &weft::ThreadStats::max_live), vs_df.c_str());
    }
    out += pairs_block(r, Bench::kMany, serial.size);
  }
  return out;
}

// barnes and dtree: time, speedup over the serial version, heap, threads; for barnes also
// each fine run against the coarse run with the same workers.
std::string app_table(const bench_threads::Result& r, Bench bench) {
  const Series* serial = nullptr;
  for (const Series& s : r.series)
    if (s.bench == bench && s.version == "serial") serial = &s;
  if (serial == nullptr) return "";
  const double t1 = median_seconds(*serial), h1 = median_heap(*serial);
  std::string out =
      bench == Bench::kBarnes
          ? format("\nbarnes: %zu Plummer bodies, the last two of %d steps timed\n", serial->size,
                   r.settings.bh_steps)
          : format("\ndtree: %zu instances, the build timed; heap = the build's high-water\n",
                   serial->size);
  out += format("%-24s %9s %7s %10s %8s %8s %9s %9s\n", "version", "median_s", "speedup",
                "heap_KiB", "heap/ser", "max_live", "made", "vs_coarse");
  for (const Series& s : r.series) {
    if (s.bench != bench) continue;
    const double t = median_seconds(s), heap = median_heap(s);
    std::string vs = "-";
    for (const Series& c : r.series)
      if (c.bench == bench && c.version == "coarse" && c.workers == s.workers &&
          s.version == "threads")
        vs = format("%.3f", t / median_seconds(c));
    out += format("%-24s %9.4f %7.2f %10.0f %8s %8.0f %9.0f %9s\n", s.label().c_str(), t, t1 / t,
                  heap / bench_threads::kKiB, h1 > 0 ? format("%.2f", heap / h1).c_str() : "-",
                  median_count(s, &weft::ThreadStats::max_live),
                  median_count(s, &weft::ThreadStats::made), vs.c_str());
  }
  return out + pairs_block(r, bench, serial->size);
}

void thread_stats_json(std::ostream& out, const weft::ThreadStats& t) {
  out << "{\"made\":" << t.made << ",\"max_live\":" << t.max_live << ",\"dummies\":" << t.dummies
      << ",\"preemptions\":" << t.preemptions
      << ",\"sched_lock_acquisitions\":" << t.sched_lock_acquisitions
      << ",\"stack_bytes_live\":" << t.stack_bytes_live
      << ",\"stack_bytes_pooled\":" << t.stack_bytes_pooled
      << ",\"heap_high_water\":" << t.heap_high_water
      << ",\"heap_bytes_cached\":" << t.heap_bytes_cached << "}";
}

void series_json(std::ostream& out, const bench_threads::Result& r, const Series& s) {
  const Series* serial = serial_of(r, s);
  out << "{\"bench\":" << quote(bench_threads::bench_name(s.bench))
      << ",\"label\":" << quote(s.label()) << ",\"version\":" << quote(s.version)
      << ",\"sched\":" << (s.sched ? quote(weft::thread_sched_name(*s.sched)) : "null")
      << ",\"workers\":" << s.workers << ",\"size\":" << s.size << ",\"quota_bytes\":" << s.quota
      << ",\"stack_bytes\":" << s.stack << ",\"median_s\":" << number(median_seconds(s))
      << ",\"median_heap_peak_bytes\":" << number(median_heap(s));
  if (serial != nullptr) {
    out << ",\"speedup\":" << number(median_seconds(*serial) / median_seconds(s))
        << ",\"heap_over_s1\":" << number(median_heap(s) / median_heap(*serial));
  }
  if (s.bench == Bench::kTree && s.quota != 0 && serial != nullptr) {
    const int d = bench_threads::tree_fork_depth(static_cast<int>(s.size), s.quota);
    out << ",\"fork_depth\":" << d << ",\"space_bound_bytes\":"
        << bench_threads::tree_space_bound(static_cast<std::size_t>(median_heap(*serial)),
                                           s.workers, d, s.quota);
  }
  out << ",\"samples\":[";
  for (std::size_t i = 0; i < s.samples.size(); ++i) {
    const Sample& x = s.samples[i];
    out << (i ? "," : "") << "{\"seconds\":" << number(x.seconds)
        << ",\"user_s\":" << number(x.user_s) << ",\"sys_s\":" << number(x.sys_s)
        << ",\"minor_faults\":" << x.minor_faults << ",\"major_faults\":" << x.major_faults
        << ",\"heap_peak_bytes\":" << x.heap_peak << ",\"threads\":";
    thread_stats_json(out, x.threads);
    out << "}";
  }
  out << "]}";
}

// One benchmark at one size: the order of each repetition (indexes into "series", or "micro"
// for micro) and its pairs.
void blocks_json(std::ostream& out, const bench_threads::Result& r, const Blocks& b) {
  out << "{\"bench\":" << quote(bench_threads::bench_name(b.bench)) << ",\"size\":" << b.size
      << ",\"order_of\":" << quote(b.bench == Bench::kMicro ? "micro" : "series") << ",\"order\":[";
  for (std::size_t rep = 0; rep < b.order.size(); ++rep) {
    out << (rep ? "," : "") << "[";
    for (std::size_t k = 0; k < b.order[rep].size(); ++k)
      out << (k ? "," : "") << b.first + b.order[rep][k];
    out << "]";
  }
  out << "],\"pairs\":[";
  for (std::size_t k = 0; k < b.pairs.size(); ++k) {
    const Pair& p = b.pairs[k];
    out << (k ? "," : "") << "{\"kind\":" << quote(p.kind) << ",\"name\":" << quote(pair_name(r, p))
        << ",\"a\":" << quote(r.series[p.a].label()) << ",\"b\":" << quote(r.series[p.b].label())
        << ",\"a_index\":" << p.a << ",\"b_index\":" << p.b;
    bench_stats::summary_json(out, p.summary);
    out << ",\"min\":" << number(p.summary.min) << ",\"max\":" << number(p.summary.max) << "}";
  }
  out << "]}";
}

}  // namespace

std::string threads_table(const bench_threads::Result& r) {
  std::string out = bench_stats::sitting_line(r.sitting) + "\n";
  out += format("%d repetitions of each benchmark in randomized blocks (seed %llu)\n",
                r.settings.repeat, static_cast<unsigned long long>(r.settings.seed));
  if (!r.micro.empty()) {
    out += "\n";
    out += micro_table(r);
  }
  for (const std::size_t n : r.settings.orders) out += matmul_table(r, n);
  out += tree_table(r);
  out += many_table(r);
  out += app_table(r, Bench::kBarnes);
  out += app_table(r, Bench::kDtree);
  std::vector<bench_stats::PairedSummary> all;
  for (const Blocks& b : r.blocks)
    for (const Pair& p : b.pairs) all.push_back(p.summary);
  out += "\n";
  out += bench_stats::verdict_counts(all);
  out += "\n";
  out += bench_stats::host_line(r.host);
  out += "\n";
  return out;
}

std::string threads_json(const bench_threads::Result& r) {
  std::ostringstream out;
  const bench_threads::Settings& st = r.settings;
  out << "{\"command\":\"threads\"," << bench_stats::sitting_json_members(r.sitting)
      << ",\"repeat\":" << st.repeat << ",\"resamples\":" << st.resamples
      << ",\"interval\":\"percentile bootstrap\",\"benches\":[";
  for (std::size_t i = 0; i < st.benches.size(); ++i)
    out << (i ? "," : "") << quote(bench_threads::bench_name(st.benches[i]));
  out << "],\"matmul_base\":64,\"matmul_add_base\":" << r.matmul_add_base
      << ",\"tree_node_bytes\":" << r.tree_node_bytes
      << ",\"many_leaf_rounds\":" << r.many_leaf_rounds << ",\"micro_iters\":" << st.micro_iters
      << ",\"micro\":[";
  for (std::size_t i = 0; i < r.micro.size(); ++i) {
    const MicroSeries& m = r.micro[i];
    out << (i ? "," : "") << "{\"op\":" << quote(m.op) << ",\"impl\":" << quote(m.impl)
        << ",\"sched\":" << (m.sched ? quote(weft::thread_sched_name(*m.sched)) : "null")
        << ",\"unit\":" << quote(m.unit) << ",\"median_ns\":" << number(bench_threads::median(m.ns))
        << ",\"ns\":[";
    for (std::size_t k = 0; k < m.ns.size(); ++k) out << (k ? "," : "") << number(m.ns[k]);
    out << "]}";
  }
  out << "],\"series\":[";
  for (std::size_t i = 0; i < r.series.size(); ++i) {
    out << (i ? "," : "");
    series_json(out, r, r.series[i]);
  }
  out << "],\"benchmarks\":[";
  for (std::size_t i = 0; i < r.blocks.size(); ++i) {
    out << (i ? "," : "");
    blocks_json(out, r, r.blocks[i]);
  }
  out << "],";
  bench_stats::host_json(out, r.host);
  out << "}\n";
  return out.str();
}

}  // namespace bench_cli
