// The execution profile of one worker (Adnan & Sato, Table 2 and Eq. 3-7): every nanosecond
// of the worker's life is charged to exactly one activity, and, when tracing, its busy
// intervals, successful steals and the loops it joined are kept for a timeline.
//
// Activities. The worker says which one it starts at each transition; the time since the
// previous transition goes to the previous one:
//   kTask    running task code: a root job or a stolen task, with its inline spawns, joins
//            and inline-run children (the frame-management share of this is estimated
//            afterwards from the spawn count; see frame_cost.hpp)
//   kSteal   a steal attempt, successful or not: victim choice, port, barrier, claim
//   kIdle    nothing to run: spinning, yielding or sleeping between attempts, and a join's
//            wait for a stolen task while it is not helping
//   kSwitch  taking over stolen work: re-pushing proxies, waking a sleeper, settling the
//            proxies afterwards, and publishing each stolen task's outcome
//
// Protocol (one writer, many readers). Only the owning worker calls enter(); any thread may
// call read(). The owner's update is a seqlock write: seq_ odd while the accumulators and
// `since_` change, even again after; a reader retries until it saw the same even seq_ before
// and after reading. Invariants:
//   AC1 sum over activities of acc_[a] + (now - since_) == now - start_, at every even seq_:
//       each transition moves exactly the time since the last one into one accumulator.
//   AC2 acc_[a] only grows; since_ only grows.
//   AC3 trace_count_ events are fully written before trace_count_ is published (release),
//       and an event below the count is never written again.
// Memory orders: every field is a relaxed atomic (so readers race with nothing); the seqlock
// fences order them: release fence after the odd store and release store of the even one
// (writer), acquire load of seq_ then acquire fence before the re-check (reader).
//
// Off (the default) enter() is a test of one bool the worker owns; compiled out entirely
// with -DWEFT_PROFILING=OFF, which is how "costs nothing measurable" is checked.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "platform/monotonic_clock.hpp"
#include "weft/profile.hpp"

#ifndef WEFT_PROFILING
#define WEFT_PROFILING 1
#endif

namespace weft::detail {

enum class Activity : std::uint8_t { kTask = 0, kSteal = 1, kIdle = 2, kSwitch = 3 };
inline constexpr int kActivities = 4;

// The profile reads the platform's monotonic clock (platform/monotonic_clock.hpp).
using platform::monotonic_ns;

// What read() returns: the accumulators with the open interval charged to its activity.
struct ActivityTimes {
  std::array<std::uint64_t, kActivities> ns{};
  std::uint64_t at_ns = 0;  // the clock reading the times are taken at
};

class ActivityClock {
 public:
  // Turns the clock on (before the worker thread starts). trace_capacity == 0: no trace.
  void enable(std::size_t trace_capacity);
  bool enabled() const noexcept { return enabled_; }

  // Owner only: charge the time since the last transition to the current activity and
  // start `next`. Returns the activity it replaced, for the caller to restore.
  Activity enter(Activity next) noexcept {
#if WEFT_PROFILING
    if (enabled_) [[unlikely]]
      return switch_to(next);
#endif
    return next;
  }

  // Owner only: the steal attempt in progress (kSteal) took `tasks` tasks from `victim`.
  // Enters kSwitch and, when tracing, records the steal, with one clock reading for both.
  void steal_succeeded(std::int32_t victim, std::int64_t tasks) noexcept {
#if WEFT_PROFILING
    if (enabled_) [[unlikely]]
      record_steal(victim, tasks);
#endif
    (void)victim;
    (void)tasks;
  }

  // Owner only, when tracing: a loop of worker `owner` joined from the loop queue. joined()
  // reads the clock at the join (0 when not tracing); left() records the kLoop event.
  std::uint64_t loop_joined() const noexcept {
#if WEFT_PROFILING
    if (enabled_ && trace_capacity_ > 0) [[unlikely]]
      return monotonic_ns();
#endif
    return 0;
  }
  void loop_left(std::uint64_t joined_ns, std::int32_t owner, std::int64_t chunks) noexcept {
#if WEFT_PROFILING
    if (joined_ns != 0) [[unlikely]]
      record(TraceEvent{TraceEvent::Kind::kLoop, owner, chunks, joined_ns, monotonic_ns()});
#endif
    (void)owner;
    (void)chunks;
  }

  // Any thread: a consistent reading (AC1 holds for it).
  ActivityTimes read() const noexcept;

  // Any thread: the trace so far (events below the published count).
  std::vector<TraceEvent> trace() const;
  std::uint64_t trace_dropped() const noexcept {
    return trace_dropped_.load(std::memory_order_relaxed);
  }

 private:
  Activity switch_to(Activity next) noexcept { return switch_at(next, monotonic_ns()); }
  Activity switch_at(Activity next, std::uint64_t now) noexcept;
  void record_steal(std::int32_t victim, std::int64_t tasks) noexcept;
  void record(const TraceEvent& e) noexcept;

  bool enabled_ = false;                // set before the worker starts; read only by it afterwards
  Activity current_ = Activity::kIdle;  // owner's own copy
  std::uint64_t task_started_ns_ = 0;   // owner's: when the current kTask interval began
  std::uint64_t steal_started_ns_ = 0;  // owner's: when the current kSteal interval began

  std::atomic<std::uint64_t> seq_{0};
  std::atomic<std::uint64_t> since_{0};
  std::atomic<std::uint8_t> open_{static_cast<std::uint8_t>(Activity::kIdle)};
  std::array<std::atomic<std::uint64_t>, kActivities> acc_{};

  std::unique_ptr<TraceEvent[]> trace_;
  std::size_t trace_capacity_ = 0;
  std::atomic<std::size_t> trace_count_{0};
  std::atomic<std::uint64_t> trace_dropped_{0};
};

}  // namespace weft::detail
