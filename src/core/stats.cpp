// Stats: summing, and the human and JSON renderings.
#include "weft/stats.hpp"

#include <algorithm>
#include <cstdio>
#include <ostream>
#include <sstream>

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
    {"failed_steals", &WorkerStats::failed_steals},
    {"leapfrogs", &WorkerStats::leapfrogs},
    {"parks", &WorkerStats::parks},
    {"max_steal_stack", &WorkerStats::max_steal_stack_bytes},
};

void json_object(std::ostringstream& out, const WorkerStats& w) {
  out << '{';
  bool first = true;
  for (const Field& f : kFields) {
    out << (first ? "" : ",") << '"' << f.name << "\":" << w.*f.member;
    first = false;
  }
  out << ",\"tasks_per_steal\":" << w.tasks_per_steal() << '}';
}

}  // namespace

WorkerStats& WorkerStats::operator+=(const WorkerStats& o) noexcept {
  for (const Field& f : kFields) {
    if (f.member == &WorkerStats::max_steal_stack_bytes) {
      max_steal_stack_bytes = std::max(max_steal_stack_bytes, o.max_steal_stack_bytes);
    } else {
      this->*f.member += o.*f.member;
    }
  }
  return *this;
}

std::string Stats::table() const {
  std::ostringstream out;
  char buf[64];
  out << "worker";
  for (const Field& f : kFields) {
    std::snprintf(buf, sizeof buf, " %15s", f.name);
    out << buf;
  }
  out << "  tasks/steal\n";
  auto row = [&](const std::string& label, const WorkerStats& w) {
    std::snprintf(buf, sizeof buf, "%-6s", label.c_str());
    out << buf;
    for (const Field& f : kFields) {
      std::snprintf(buf, sizeof buf, " %15llu", static_cast<unsigned long long>(w.*f.member));
      out << buf;
    }
    std::snprintf(buf, sizeof buf, "  %11.2f\n", w.tasks_per_steal());
    out << buf;
  };
  for (std::size_t i = 0; i < per_worker.size(); ++i) row(std::to_string(i), per_worker[i]);
  row("total", total);
  return out.str();
}

std::string Stats::json() const {
  std::ostringstream out;
  out << "{\"total\":";
  json_object(out, total);
  out << ",\"workers\":[";
  for (std::size_t i = 0; i < per_worker.size(); ++i) {
    if (i != 0) out << ',';
    json_object(out, per_worker[i]);
  }
  out << "]}";
  return out.str();
}

std::ostream& operator<<(std::ostream& os, const Stats& s) { return os << s.table(); }

}  // namespace weft
