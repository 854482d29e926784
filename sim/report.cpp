#include "sim/report.hpp"

#include <cstdio>
#include <sstream>

namespace weft_sim {
namespace {

double share(std::uint64_t part, const RunRecord& r) {
  const double total = static_cast<double>(r.result.makespan_ns) * static_cast<double>(r.workers);
  return total > 0 ? static_cast<double>(part) / total : 0.0;
}

std::string quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

std::string table(const SimArgs& args, const std::vector<RunRecord>& runs) {
  std::ostringstream out;
  out << "weft-sim " << args.workload.spec << ", concurrent mechanism, seed " << args.seed
      << ", uncalibrated costs\n";
  char line[256];
  std::snprintf(line, sizeof line, "%-14s %8s %12s %9s %10s %10s %8s %7s %7s %7s\n", "steal",
                "workers", "T_P_s", "speedup", "steals", "attempts", "tasks/st", "busy", "frame",
                "steal");
  out << line;
  for (const RunRecord& r : runs) {
    const RunRecord* one = nullptr;  // the same policy on 1 worker, for the speedup
    for (const RunRecord& q : runs) {
      if (q.workers == 1 && q.steal == r.steal) one = &q;
    }
    const SimCounters& c = r.result.counters;
    std::snprintf(
        line, sizeof line, "%-14s %8u %12.6f %9s %10llu %10llu %8.2f %7.3f %7.3f %7.3f\n",
        r.steal.c_str(), r.workers, static_cast<double>(r.result.makespan_ns) * 1e-9,
        one != nullptr ? std::to_string(static_cast<double>(one->result.makespan_ns) /
                                        static_cast<double>(r.result.makespan_ns))
                             .substr(0, 6)
                             .c_str()
                       : "-",
        static_cast<unsigned long long>(c.steals),
        static_cast<unsigned long long>(c.steal_attempts),
        c.steals > 0 ? static_cast<double>(c.tasks_stolen) / static_cast<double>(c.steals) : 0.0,
        share(r.result.shares.busy_ns, r), share(r.result.shares.frame_ns, r),
        share(r.result.shares.steal_ns, r));
    out << line;
  }
  return out.str();
}

std::string json(const SimArgs& args, const std::vector<RunRecord>& runs) {
  std::ostringstream out;
  out.precision(17);
  out << "{\"benchmark\":\"sim\",\"workload\":" << quote(args.workload.spec)
      << ",\"costs\":\"uncalibrated\",\"seed\":" << args.seed << ",\"runs\":[";
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const RunRecord& r = runs[i];
    const SimCounters& c = r.result.counters;
    const SimShares& s = r.result.shares;
    out << (i ? "," : "") << "{\"impl\":\"sim\",\"workers\":" << r.workers
        << ",\"mechanism\":\"concurrent\",\"steal\":" << quote(r.steal)
        << ",\"median_s\":" << static_cast<double>(r.result.makespan_ns) * 1e-9
        << ",\"makespan_ns\":" << r.result.makespan_ns << ",\"tasks\":" << r.result.tasks
        << ",\"verified\":" << (r.verified ? "true" : "false") << ",\"counters_per_run\":{"
        << "\"spawns\":" << c.spawns << ",\"inline_joins\":" << c.inline_joins
        << ",\"steal_attempts\":" << c.steal_attempts << ",\"steals\":" << c.steals
        << ",\"tasks_stolen\":" << c.tasks_stolen << ",\"failed_steals\":" << c.failed_steals
        << ",\"stolen_joins\":" << c.stolen_joins << ",\"leapfrogs\":" << c.leapfrogs
        << "},\"profile\":{\"total\":{\"r_busy\":" << share(s.busy_ns, r)
        << ",\"r_steal\":" << share(s.steal_ns, r) << ",\"r_idle\":" << share(s.idle_ns, r)
        << ",\"r_switch\":0,\"r_frame\":" << share(s.frame_ns, r) << ",\"busy_ns\":" << s.busy_ns
        << ",\"steal_ns\":" << s.steal_ns << ",\"idle_ns\":" << s.idle_ns
        << ",\"frame_ns\":" << s.frame_ns << "}}}";
  }
  out << "]}\n";
  return out.str();
}

}  // namespace weft_sim
