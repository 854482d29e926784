// Per-worker counters, always on and cheap: each is written only by its own worker (a
// relaxed load and store, no read-modify-write) and summed on demand by Runtime::stats().
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "weft/profile.hpp"

namespace weft {

// The histogram of n (the victim's tasks waiting) that thieves saw at their steal attempts,
// in log2 buckets: bucket 0 holds n = 0, bucket b >= 1 holds 2^(b-1) <= n < 2^b, and the last
// bucket everything from 2^(kStealSizeBuckets-2) up.
inline constexpr std::size_t kStealSizeBuckets = 22;
constexpr std::size_t steal_size_bucket(std::int64_t n) noexcept {
  if (n <= 0) return 0;
  const auto b = static_cast<std::size_t>(std::bit_width(static_cast<std::uint64_t>(n)));
  return b < kStealSizeBuckets ? b : kStealSizeBuckets - 1;
}

struct WorkerStats {
  // These two only where the runtime counts spawns (Config::count_spawns; Stats::spawns_counted).
  std::uint64_t spawns = 0;           // spawn calls made on this worker
  std::uint64_t inline_joins = 0;     // joins that popped their task and ran it here
  std::uint64_t overflow_spawns = 0;  // spawns run at once because the task stack was full
  std::uint64_t stolen_joins = 0;     // joins that found their task taken by a thief
  std::uint64_t steal_attempts = 0;   // claims tried on a victim: steals + failed_steals
  std::uint64_t steals = 0;           // successful claims
  std::uint64_t tasks_stolen = 0;     // tasks taken by those claims
  // Of the steals, claims whose barrier was a fence rather than a membarrier: all of them in
  // the fence mode, and those on a stack that had switched to the fence (Config::barrier).
  std::uint64_t fenced_steals = 0;
  std::uint64_t failed_steals = 0;  // attempts that got nothing
  std::uint64_t leapfrogs = 0;      // successful steals from the thief of an awaited task
  std::uint64_t parks = 0;          // times this worker went to sleep
  // Of those, the times the busy limit sent it to sleep instead of looking for work: as many
  // workers as the limit allows (Config::busy_limit) were busy and no lift was on.
  std::uint64_t limit_sleeps = 0;
  // Request mechanism: requests this worker answered as a victim (with tasks or without),
  // and requests it withdrew as a thief because the victim did not take them up in time.
  std::uint64_t requests_served = 0;
  std::uint64_t request_timeouts = 0;
  // Parallel loops (weft/loop.hpp): loops this worker forked as PCBs, of which found their
  // PCB still queued and reused it in place; PCBs it appended to and removed from the loop
  // queue, and dequeues that recovered PCBs misplaced behind a removed tail; loops it ran
  // serially (adaptive fork, or a full PCB or loop frame stack); chunks it ran of its own loops
  // and of other workers' loops.
  std::uint64_t loops_forked = 0;
  std::uint64_t loops_reused_in_place = 0;
  std::uint64_t loops_enqueued = 0;
  std::uint64_t loops_dequeued = 0;
  std::uint64_t loops_misplaced = 0;
  std::uint64_t loops_serial = 0;
  std::uint64_t owner_chunks = 0;
  std::uint64_t helper_chunks = 0;
  // Stack use (bytes) at the deepest start of a stolen task: the help bound says it stays
  // below help_stack_fraction * worker_stack_bytes plus the runtime's few frames. A max, not
  // a sum, in totals.
  std::uint64_t max_steal_stack_bytes = 0;

  // The execution profile, in nanoseconds since the runtime started or the last
  // reset_stats(); all zero unless Config::profile is on. task + steal + idle + switch ==
  // window. frame_ns is the estimated part of task_ns spent maintaining the task stack
  // (tasks pushed x the calibrated cost of one spawn+join, Stats::frame_cost_ns), so
  // busy = task - frame. See weft/profile.hpp.
  std::uint64_t task_ns = 0;
  std::uint64_t steal_ns = 0;
  std::uint64_t idle_ns = 0;
  std::uint64_t switch_ns = 0;
  std::uint64_t frame_ns = 0;
  std::uint64_t window_ns = 0;

  // n at each steal attempt (steal_size_bucket); the buckets add up to steal_attempts, but
  // for a reset_stats() made while the worker is stealing: the reset reads the worker's
  // counters one after another, and the attempts made meanwhile can leave its sum apart.
  std::array<std::uint64_t, kStealSizeBuckets> steal_sizes_seen{};

  std::uint64_t busy_ns() const noexcept { return task_ns - frame_ns; }
  // The fractions R_busy, R_steal, R_idle, R_switch, R_frame of window_ns (zeros if none).
  ProfileShares shares() const noexcept;

  double tasks_per_steal() const noexcept {
    return steals == 0 ? 0.0 : static_cast<double>(tasks_stolen) / static_cast<double>(steals);
  }
  WorkerStats& operator+=(const WorkerStats& o) noexcept;
};

// User-level threads (weft/thread.hpp) and the heap they allocate through weft::allocate
// (weft/memory.hpp). Counts since the runtime started or the last reset_stats(); the marks
// (max_live, heap_high_water) restart at the current value on a reset. The heap figures are
// the process's, not this runtime's alone. A thread is live until the worker it ended on has
// released its stack, just after the thread's last switch: its join, and run(), may return
// a moment earlier.
struct ThreadStats {
  std::uint64_t made = 0;                     // threads created (dummies included)
  std::uint64_t live = 0;                     // threads made and not yet ended
  std::uint64_t max_live = 0;                 // the most live at once
  std::uint64_t dummies = 0;                  // dummy threads forked ahead of large allocations
  std::uint64_t preemptions = 0;              // threads preempted for their memory quota
  std::uint64_t sched_lock_acquisitions = 0;  // the scheduler's global lock
  std::uint64_t stack_bytes_live = 0;         // stacks of live threads
  std::uint64_t stack_bytes_pooled = 0;       // stacks kept for reuse
  std::uint64_t heap_in_use = 0;              // weft::allocate'd bytes not yet freed
  std::uint64_t heap_high_water = 0;          // the most heap_in_use has been
  std::uint64_t heap_bytes_cached = 0;        // freed blocks the workers keep for reuse
};

struct Stats {
  WorkerStats total;
  std::vector<WorkerStats> per_worker;
  ThreadStats threads;
  bool profiled = false;  // Config::profile was on: the *_ns fields are measured
  // Config::counts_spawns() was on: spawns and inline_joins are counted. Off, they are 0 here,
  // "-" in table() and null in json(); every other counter is counted either way.
  bool spawns_counted = false;
  double frame_cost_ns = 0.0;  // the calibrated cost of one spawn+join (when profiled)
  // The concurrent mechanism's running estimate of one membarrier, in ns: the average of the
  // thieves' own timings, process-wide, which sets when a task stack switches its thieves to
  // fences (Config::barrier auto: within 4 of these of the last membarrier claim). 0 under
  // the request mechanism, in fence mode, and until a membarrier has been timed.
  std::uint64_t membarrier_ns = 0;
  // A human-readable table: one row per worker and the total (and, when profiled, a second
  // table of the profile's shares).
  std::string table() const;
  // One JSON object with "total", "workers" and "threads".
  std::string json() const;
};

std::ostream& operator<<(std::ostream& os, const Stats& s);

}  // namespace weft
