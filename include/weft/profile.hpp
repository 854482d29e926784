// The execution profile and the timeline trace: where each worker's time went.
//
// With Config::profile on, every worker charges each nanosecond to one activity (busy,
// steal, idle, switch; frame management is carved out of busy by estimate), and
// Runtime::stats() reports them per worker; WorkerStats::shares() turns them into the
// fractions R_busy ... R_frame of Adnan & Sato's Table 2 (Eq. 3-7). With
// Config::trace_events > 0, each worker also records its busy intervals, successful steals and
// the loops it joined (Runtime::trace()), for a Chrome/Perfetto timeline. docs/PROFILE.md,
// "The execution profile", says what each activity contains.
#pragma once

#include <cstdint>
#include <vector>

namespace weft {

// One entry of a worker's timeline; times on the monotonic clock, in nanoseconds.
struct TraceEvent {
  enum class Kind : std::uint8_t {
    kBusy,   // the worker ran task code from begin_ns to end_ns
    kSteal,  // a steal attempt that took `tasks` tasks from worker `victim`
    kLoop,   // a parallel loop of worker `victim` joined from the loop queue, from taking
             // its first chunk to leaving it: `tasks` chunks run (the busy intervals within
             // are recorded as well)
  };
  Kind kind = Kind::kBusy;
  std::int32_t victim = -1;
  std::int64_t tasks = 0;
  std::uint64_t begin_ns = 0;
  std::uint64_t end_ns = 0;
};

struct WorkerTrace {
  std::vector<TraceEvent> events;  // in the order they ended
  std::uint64_t dropped = 0;       // events not kept because the buffer was full
};

struct Trace {
  std::uint64_t origin_ns = 0;  // when the runtime started: the timeline's zero
  std::vector<WorkerTrace> workers;
};

// The five shares of a worker's (or all workers') time; they sum to 1 when profiled.
struct ProfileShares {
  double busy = 0, steal = 0, idle = 0, switch_ = 0, frame = 0;
};

}  // namespace weft
