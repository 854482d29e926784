#include "tools/bench/cli/trace_json.hpp"

#include <cstdint>
#include <cstdio>
#include <sstream>

namespace bench_cli {
namespace {

// Microseconds with nanosecond precision, as the format's "ts" and "dur" expect.
std::string micros(std::uint64_t ns) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%llu.%03llu", static_cast<unsigned long long>(ns / 1000),
                static_cast<unsigned long long>(ns % 1000));
  return buf;
}

class Writer {
 public:
  explicit Writer(std::ostringstream& out) : out_(out) {}

  // A complete event ("X"): a named interval on one thread.
  void slice(int pid, int tid, const char* name, std::uint64_t begin, std::uint64_t end,
             const std::string& args = "") {
    open();
    out_ << "{\"ph\":\"X\",\"name\":\"" << name << "\",\"cat\":\"" << name << "\",\"pid\":" << pid
         << ",\"tid\":" << tid << ",\"ts\":" << micros(begin) << ",\"dur\":" << micros(end - begin);
    if (!args.empty()) out_ << ",\"args\":{" << args << "}";
    out_ << "}";
  }
  // A flow arrow named `name` from (pid, from_tid, at) to (pid, to_tid, to).
  void arrow(const char* name, int pid, int from_tid, std::uint64_t at, int to_tid,
             std::uint64_t to) {
    ++flow_id_;
    open();
    out_ << "{\"ph\":\"s\",\"name\":\"" << name << "\",\"cat\":\"" << name
         << "\",\"id\":" << flow_id_ << ",\"pid\":" << pid << ",\"tid\":" << from_tid
         << ",\"ts\":" << micros(at) << "}";
    open();
    out_ << "{\"ph\":\"f\",\"bp\":\"e\",\"name\":\"" << name << "\",\"cat\":\"" << name
         << "\",\"id\":" << flow_id_ << ",\"pid\":" << pid << ",\"tid\":" << to_tid
         << ",\"ts\":" << micros(to) << "}";
  }
  void name(int pid, int tid, const char* what, const std::string& value) {
    open();
    out_ << "{\"ph\":\"M\",\"name\":\"" << what << "\",\"pid\":" << pid;
    if (tid >= 0) out_ << ",\"tid\":" << tid;
    out_ << ",\"args\":{\"name\":\"" << value << "\"}}";
  }

 private:
  void open() {
    out_ << (first_ ? "\n" : ",\n");
    first_ = false;
  }
  std::ostringstream& out_;
  bool first_ = true;
  std::uint64_t flow_id_ = 0;
};

}  // namespace

std::string chrome_trace(const std::vector<Record>& records) {
  std::ostringstream out;
  out << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[";
  Writer w(out);
  std::ostringstream dropped;
  int pid = 0;
  for (const Record& r : records) {
    if (r.impl != Impl::kWeft || r.trace.workers.empty()) continue;
    ++pid;
    // Labels are "weft <mechanism>/<spec> w=<n>": no characters JSON would need escaped.
    w.name(pid, -1, "process_name", r.label());
    const std::uint64_t origin = r.trace.origin_ns;
    for (std::size_t t = 0; t < r.trace.workers.size(); ++t) {
      const int tid = static_cast<int>(t);
      w.name(pid, tid, "thread_name", "worker " + std::to_string(t));
      const weft::WorkerTrace& wt = r.trace.workers[t];
      if (wt.dropped > 0) {
        dropped << (dropped.tellp() > 0 ? "," : "") << "\"" << r.label() << " worker " << t
                << "\":" << wt.dropped;
      }
      // Events come in the order they ended; busy intervals nest no steals, and a steal
      // interval precedes the busy intervals of the tasks it took.
      std::uint64_t covered = origin;
      for (const weft::TraceEvent& e : wt.events) {
        const std::uint64_t begin = e.begin_ns - origin;
        const std::uint64_t end = e.end_ns - origin;
        if (e.begin_ns > covered) w.slice(pid, tid, "idle", covered - origin, begin);
        if (e.kind == weft::TraceEvent::Kind::kBusy) {
          w.slice(pid, tid, "busy", begin, end);
        } else if (e.kind == weft::TraceEvent::Kind::kLoop) {
          // Encloses the busy intervals recorded before it.
          w.slice(
              pid, tid, "loop", begin, end,
              "\"owner\":" + std::to_string(e.victim) + ",\"chunks\":" + std::to_string(e.tasks));
          if (e.victim != tid) w.arrow("loop", pid, e.victim, begin, tid, begin);
        } else {
          w.slice(
              pid, tid, "steal", begin, end,
              "\"victim\":" + std::to_string(e.victim) + ",\"tasks\":" + std::to_string(e.tasks));
          w.arrow("steal", pid, e.victim, begin, tid, end);
        }
        if (e.end_ns > covered) covered = e.end_ns;
      }
    }
  }
  out << "\n],\"otherData\":{\"events_per_worker_cap\":\"" << kTraceEventsPerWorker
      << "\",\"dropped_events\":{" << dropped.str() << "}}}\n";
  return out.str();
}

}  // namespace bench_cli
