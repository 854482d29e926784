#include "tools/sim/engine/report.hpp"

#include <cstdio>
#include <sstream>

#include "workloads/common/text_format.hpp"

namespace sim {
namespace {

using common::quote;

double share(std::uint64_t part, const RunRecord& r) {
  const double total = static_cast<double>(r.result.makespan_ps) * static_cast<double>(r.workers);
  return total > 0 ? static_cast<double>(part) / total : 0.0;
}

double ns(std::uint64_t ps) { return static_cast<double>(ps) * 1e-3; }

std::string histogram(const std::array<std::uint64_t, weft::kStealSizeBuckets>& buckets) {
  std::ostringstream out;
  out << '[';
  for (std::size_t b = 0; b < buckets.size(); ++b) out << (b ? "," : "") << buckets[b];
  out << ']';
  return out.str();
}

std::string numbers(const double* values, std::size_t count) {
  std::ostringstream out;
  out.precision(6);
  out << '[';
  for (std::size_t i = 0; i < count; ++i) out << (i ? "," : "") << values[i];
  out << ']';
  return out.str();
}

// s_i averaged over the run (s_1 first) and per bin of time.
std::string occupancy(const OccupancyResult& o) {
  std::ostringstream out;
  out << "{\"s_mean\":" << numbers(o.mean.data(), o.mean.size())
      << ",\"bin_s\":" << static_cast<double>(o.bin_ps) * 1e-12 << ",\"s_series\":[";
  for (std::size_t b = 0; b < o.series.size(); ++b) {
    out << (b ? "," : "") << numbers(o.series[b].data(), o.series[b].size());
  }
  out << "]}";
  return out.str();
}

// c∞ in T_P = T1/P + c∞ T∞.
double c_inf(const RunRecord& r) {
  const SimResult& s = r.result;
  if (s.span_ps == 0) return 0.0;
  return (static_cast<double>(s.makespan_ps) -
          static_cast<double>(s.work_ps) / static_cast<double>(r.workers)) /
         static_cast<double>(s.span_ps);
}

}  // namespace

std::string table(const SimArgs& args, const std::string& costs_source,
                  const std::vector<RunRecord>& runs) {
  std::ostringstream out;
  out << "weft-sim " << args.workload.spec << ", seed " << args.seed
      << ", barrier (concurrent): " << weft::barrier_name(args.barrier)
      << ", costs: " << costs_source << "\n";
  char line[256];
  if (!runs.empty()) {
    const SimResult& s = runs.front().result;
    std::snprintf(
        line, sizeof line, "T1 %.4g s, Tinf %.4g s (burdened %.4g s), parallelism %.0f\n",
        static_cast<double>(s.work_ps) * 1e-12, static_cast<double>(s.span_ps) * 1e-12,
        static_cast<double>(s.burdened_span_ps) * 1e-12,
        s.span_ps > 0 ? static_cast<double>(s.work_ps) / static_cast<double>(s.span_ps) : 0.0);
    out << line;
  }
  std::snprintf(line, sizeof line, "%-22s %7s %11s %8s %9s %10s %8s %6s %6s %6s %6s %8s %5s %5s\n",
                "mechanism/steal", "workers", "T_P_s", "speedup", "steals", "attempts", "tasks/st",
                "busy", "frame", "steal", "idle", "c_inf", "s1", "s2");
  out << line;
  for (const RunRecord& r : runs) {
    const RunRecord* one = nullptr;  // the same mechanism and policy on 1 worker
    for (const RunRecord& q : runs) {
      if (q.workers == 1 && q.steal == r.steal && q.mechanism == r.mechanism) one = &q;
    }
    char speedup[16] = "-";
    if (one != nullptr) {
      std::snprintf(
          speedup, sizeof speedup, "%.3f",
          static_cast<double>(one->result.makespan_ps) / static_cast<double>(r.result.makespan_ps));
    }
    const SimCounters& c = r.result.counters;
    const std::string label = r.mechanism + "/" + r.steal;
    std::snprintf(
        line, sizeof line,
        "%-22s %7u %11.6f %8s %9llu %10llu %8.2f %6.3f %6.3f %6.3f %6.3f %8.2f %5.3f %5.3f\n",
        label.c_str(), r.workers, static_cast<double>(r.result.makespan_ps) * 1e-12, speedup,
        static_cast<unsigned long long>(c.steals),
        static_cast<unsigned long long>(c.steal_attempts),
        c.steals > 0 ? static_cast<double>(c.tasks_stolen) / static_cast<double>(c.steals) : 0.0,
        share(r.result.shares.busy_ps, r), share(r.result.shares.frame_ps, r),
        share(r.result.shares.steal_ps, r), share(r.result.shares.idle_ps, r), c_inf(r),
        r.result.occupancy.mean[0], r.result.occupancy.mean[1]);
    out << line;
  }
  return out.str();
}

std::string json(const SimArgs& args, const Costs& costs, const std::string& costs_source,
                 const std::vector<RunRecord>& runs) {
  std::ostringstream out;
  out.precision(17);
  out << "{\"benchmark\":\"sim\",\"workload\":" << quote(args.workload.spec)
      << ",\"costs\":" << quote(costs_source) << ",\"costs_ns\":{";
  Costs used = costs;
  for (std::size_t i = 0; i < cost_fields().size(); ++i) {
    const CostField& f = cost_fields()[i];
    out << (i ? "," : "") << quote(std::string(f.name)) << ":" << ns(f.get(used));
  }
  out << "},\"seed\":" << args.seed << ",\"barrier\":" << quote(weft::barrier_name(args.barrier))
      << ",\"runs\":[";
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const RunRecord& r = runs[i];
    const SimCounters& c = r.result.counters;
    const SimShares& s = r.result.shares;
    out << (i ? "," : "") << "{\"impl\":\"sim\",\"workers\":" << r.workers
        << ",\"mechanism\":" << quote(r.mechanism) << ",\"steal\":" << quote(r.steal)
        << ",\"median_s\":" << static_cast<double>(r.result.makespan_ps) * 1e-12
        << ",\"makespan_ps\":" << r.result.makespan_ps << ",\"tasks\":" << r.result.tasks
        << ",\"work_s\":" << static_cast<double>(r.result.work_ps) * 1e-12
        << ",\"span_s\":" << static_cast<double>(r.result.span_ps) * 1e-12
        << ",\"burdened_span_s\":" << static_cast<double>(r.result.burdened_span_ps) * 1e-12
        << ",\"c_inf\":" << c_inf(r) << ",\"attempts_per_worker_span_us\":"
        << (r.result.span_ps > 0 ? static_cast<double>(c.steal_attempts) /
                                       (static_cast<double>(r.workers) *
                                        static_cast<double>(r.result.span_ps) * 1e-6)
                                 : 0.0)
        << ",\"verified\":" << (r.verified ? "true" : "false") << ",\"counters_per_run\":{"
        << "\"spawns\":" << c.spawns << ",\"inline_joins\":" << c.inline_joins
        << ",\"steal_attempts\":" << c.steal_attempts << ",\"steals\":" << c.steals
        << ",\"tasks_stolen\":" << c.tasks_stolen << ",\"failed_steals\":" << c.failed_steals
        << ",\"stolen_joins\":" << c.stolen_joins << ",\"leapfrogs\":" << c.leapfrogs
        << ",\"requests_served\":" << c.requests_served
        << ",\"request_timeouts\":" << c.request_timeouts << ",\"port_busy\":" << c.port_busy
        << ",\"fenced_steals\":" << c.fenced_steals
        << ",\"barrier_switches\":" << c.barrier_switches
        << ",\"steal_sizes_seen\":" << histogram(c.steal_sizes_seen)
        << "},\"profile\":{\"total\":{\"r_busy\":" << share(s.busy_ps, r)
        << ",\"r_steal\":" << share(s.steal_ps, r) << ",\"r_idle\":" << share(s.idle_ps, r)
        << ",\"r_switch\":" << share(s.switch_ps, r) << ",\"r_frame\":" << share(s.frame_ps, r)
        << ",\"busy_ns\":" << ns(s.busy_ps) << ",\"steal_ns\":" << ns(s.steal_ps)
        << ",\"idle_ns\":" << ns(s.idle_ps) << ",\"frame_ns\":" << ns(s.frame_ps)
        << ",\"switch_ns\":" << ns(s.switch_ps)
        << "}},\"occupancy\":" << occupancy(r.result.occupancy) << "}";
  }
  out << "]}\n";
  return out.str();
}

}  // namespace sim
