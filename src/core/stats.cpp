// Stats: summing, and the human and JSON renderings.
#include "weft/stats.hpp"

#include <algorithm>
#include <cstdio>
#include <ostream>
#include <span>
#include <sstream>
#include <string_view>

namespace weft {
namespace {

// One row of the table per field; the same order everywhere.
struct Field {
  const char* name;
  std::uint64_t WorkerStats::*member;
};
constexpr Field kFields[] = {
    {"spawns", &WorkerStats::spawns},
    {"inline_joins", &WorkerStats::inline_joins},
    {"overflow_spawns", &WorkerStats::overflow_spawns},
    {"stolen_joins", &WorkerStats::stolen_joins},
    {"steal_attempts", &WorkerStats::steal_attempts},
    {"steals", &WorkerStats::steals},
    {"tasks_stolen", &WorkerStats::tasks_stolen},
    {"fenced_steals", &WorkerStats::fenced_steals},
    {"failed_steals", &WorkerStats::failed_steals},
    {"leapfrogs", &WorkerStats::leapfrogs},
    {"parks", &WorkerStats::parks},
    {"limit_sleeps", &WorkerStats::limit_sleeps},
    {"requests_served", &WorkerStats::requests_served},
    {"request_timeouts", &WorkerStats::request_timeouts},
    {"loops_forked", &WorkerStats::loops_forked},
    {"loops_reused", &WorkerStats::loops_reused_in_place},
    {"loops_enqueued", &WorkerStats::loops_enqueued},
    {"loops_dequeued", &WorkerStats::loops_dequeued},
    {"loops_misplaced", &WorkerStats::loops_misplaced},
    {"loops_serial", &WorkerStats::loops_serial},
    {"owner_chunks", &WorkerStats::owner_chunks},
    {"helper_chunks", &WorkerStats::helper_chunks},
    {"max_steal_stack", &WorkerStats::max_steal_stack_bytes},
    {"task_ns", &WorkerStats::task_ns},
    {"steal_ns", &WorkerStats::steal_ns},
    {"idle_ns", &WorkerStats::idle_ns},
    {"switch_ns", &WorkerStats::switch_ns},
    {"frame_ns", &WorkerStats::frame_ns},
    {"window_ns", &WorkerStats::window_ns},
};
struct ThreadField {
  const char* name;
  std::uint64_t ThreadStats::*member;
};
constexpr ThreadField kThreadFields[] = {
    {"made", &ThreadStats::made},
    {"live", &ThreadStats::live},
    {"max_live", &ThreadStats::max_live},
    {"dummies", &ThreadStats::dummies},
    {"preemptions", &ThreadStats::preemptions},
    {"sched_lock_acquisitions", &ThreadStats::sched_lock_acquisitions},
    {"stack_bytes_live", &ThreadStats::stack_bytes_live},
    {"stack_bytes_pooled", &ThreadStats::stack_bytes_pooled},
    {"heap_in_use", &ThreadStats::heap_in_use},
    {"heap_high_water", &ThreadStats::heap_high_water},
    {"heap_bytes_cached", &ThreadStats::heap_bytes_cached},
};
// The counters' table stops before the profile's fields, which get their own table.
constexpr std::size_t kCounterFields = 23;
static_assert(std::string_view(kFields[kCounterFields].name) == "task_ns");

// The fields a runtime that does not count spawns leaves unknown (Config::count_spawns).
bool needs_spawn_counts(const Field& f) {
  return f.member == &WorkerStats::spawns || f.member == &WorkerStats::inline_joins;
}

void json_object(std::ostringstream& out, const WorkerStats& w, bool spawns_counted) {
  out << '{';
  bool first = true;
  for (const Field& f : kFields) {
    out << (first ? "" : ",") << '"' << f.name << "\":";
    if (spawns_counted || !needs_spawn_counts(f)) {
      out << w.*f.member;
    } else {
      out << "null";
    }
    first = false;
  }
  out << ",\"steal_sizes_seen\":[";
  for (std::size_t b = 0; b < kStealSizeBuckets; ++b)
    out << (b ? "," : "") << w.steal_sizes_seen[b];
  out << ']';
  const ProfileShares r = w.shares();
  out << ",\"tasks_per_steal\":" << w.tasks_per_steal() << ",\"r_busy\":" << r.busy
      << ",\"r_steal\":" << r.steal << ",\"r_idle\":" << r.idle << ",\"r_switch\":" << r.switch_
      << ",\"r_frame\":" << r.frame << '}';
}

}  // namespace

ProfileShares WorkerStats::shares() const noexcept {
  ProfileShares r;
  if (window_ns == 0) return r;
  const double w = static_cast<double>(window_ns);
  r.busy = static_cast<double>(busy_ns()) / w;
  r.steal = static_cast<double>(steal_ns) / w;
  r.idle = static_cast<double>(idle_ns) / w;
  r.switch_ = static_cast<double>(switch_ns) / w;
  r.frame = static_cast<double>(frame_ns) / w;
  return r;
}

WorkerStats& WorkerStats::operator+=(const WorkerStats& o) noexcept {
  for (const Field& f : kFields) {
    if (f.member == &WorkerStats::max_steal_stack_bytes) {
      max_steal_stack_bytes = std::max(max_steal_stack_bytes, o.max_steal_stack_bytes);
    } else {
      this->*f.member += o.*f.member;
    }
  }
  for (std::size_t b = 0; b < kStealSizeBuckets; ++b) steal_sizes_seen[b] += o.steal_sizes_seen[b];
  return *this;
}

std::string Stats::table() const {
  std::ostringstream out;
  char buf[64];
  out << "worker";
  for (const Field& f : std::span(kFields, kCounterFields)) {
    std::snprintf(buf, sizeof buf, " %15s", f.name);
    out << buf;
  }
  out << "  tasks/steal\n";
  auto row = [&](const std::string& label, const WorkerStats& w) {
    std::snprintf(buf, sizeof buf, "%-6s", label.c_str());
    out << buf;
    for (const Field& f : std::span(kFields, kCounterFields)) {
      if (spawns_counted || !needs_spawn_counts(f)) {
        std::snprintf(buf, sizeof buf, " %15llu", static_cast<unsigned long long>(w.*f.member));
      } else {
        std::snprintf(buf, sizeof buf, " %15s", "-");
      }
      out << buf;
    }
    std::snprintf(buf, sizeof buf, "  %11.2f\n", w.tasks_per_steal());
    out << buf;
  };
  for (std::size_t i = 0; i < per_worker.size(); ++i) row(std::to_string(i), per_worker[i]);
  row("total", total);
  if (!spawns_counted) out << "spawns and inline_joins not counted (Config::count_spawns)\n";
  if (membarrier_ns > 0) out << "membarrier estimate " << membarrier_ns << " ns\n";
  if (threads.made > 0 || threads.heap_high_water > 0) {
    out << "\nthreads";
    for (const ThreadField& f : kThreadFields) {
      out << ' ' << f.name << '=' << threads.*f.member;
    }
    out << '\n';
  }
  if (!profiled) return out.str();
  std::snprintf(buf, sizeof buf, "\nprofile (frame = pushed tasks x %.2f ns)\n", frame_cost_ns);
  out << buf << "worker     window_ms    R_busy   R_steal    R_idle  R_switch   R_frame\n";
  auto shares_row = [&](const std::string& label, const WorkerStats& w) {
    const ProfileShares r = w.shares();
    std::snprintf(buf, sizeof buf, "%-6s %12.3f", label.c_str(),
                  static_cast<double>(w.window_ns) / 1e6);
    out << buf;
    for (double x : {r.busy, r.steal, r.idle, r.switch_, r.frame}) {
      std::snprintf(buf, sizeof buf, " %9.4f", x);
      out << buf;
    }
    out << '\n';
  };
  for (std::size_t i = 0; i < per_worker.size(); ++i) shares_row(std::to_string(i), per_worker[i]);
  shares_row("total", total);
  return out.str();
}

std::string Stats::json() const {
  std::ostringstream out;
  out << "{\"profiled\":" << (profiled ? "true" : "false")
      << ",\"spawns_counted\":" << (spawns_counted ? "true" : "false")
      << ",\"frame_cost_ns\":" << frame_cost_ns << ",\"membarrier_ns\":" << membarrier_ns
      << ",\"total\":";
  json_object(out, total, spawns_counted);
  out << ",\"workers\":[";
  for (std::size_t i = 0; i < per_worker.size(); ++i) {
    if (i != 0) out << ',';
    json_object(out, per_worker[i], spawns_counted);
  }
  out << "],\"threads\":{";
  for (std::size_t i = 0; i < std::size(kThreadFields); ++i) {
    if (i != 0) out << ',';
    out << '"' << kThreadFields[i].name << "\":" << threads.*kThreadFields[i].member;
  }
  out << "}}";
  return out.str();
}

std::ostream& operator<<(std::ostream& os, const Stats& s) { return os << s.table(); }

}  // namespace weft
