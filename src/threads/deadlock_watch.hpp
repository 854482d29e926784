// The deadlock detector. The pool is stuck when every worker is idle or is a task waiting on
// a weft primitive with nothing to run or steal (quiet: TKW2 in task_waits.hpp), no thread is
// ready, no root job is queued, no parked thread has stealable tasks, and some thread is live
// or some task waits. Stuck for Config::deadlock_ms with no sign of progress, it is a
// deadlock: the watch lists the waiting threads and tasks (thread_report.hpp) and aborts or
// goes on, as Config::deadlock says.
//
// Invariants:
//   DW1 Nothing on the task path pays for it. It looks when the watchman's nap runs out (a
//       watchman naps whenever a thread is live or a run is active: sleep.hpp), every
//       kYieldsPerLook yields of a quiet task waiter (which covers a pool whose every worker
//       waits in a task, with nobody idle to be the watchman), and every kYieldsPerLook
//       yields of an idle worker's backoff (which covers idle workers kept awake by
//       Config::idle_awake_us, with nobody asleep to be the watchman).
//   DW2 Progress is a change of the stamp: the scheduler's lock acquisitions (every thread
//       made, made ready, taken, parked or ended), the task waiters' entries into their
//       quiet phase, and the steals. A waiter is woken only through wake(), which makes a
//       thread ready under the scheduler's lock or signals a task, which leaves its quiet
//       phase (and enters it again, if it waits again). So a stamp unchanged over the window,
//       with every look stuck, means no waiter was woken and nobody ran anything that could
//       wake one: no worker was busy at any look, and any work found between looks was a
//       take or a steal, which moves the stamp.
//   DW3 One look at a time: `looking_` (acquire exchange, release store) guards the window's
//       state; a look that finds it taken returns at once.
// Limits: a task that joins a stolen task spins in its join (not on a weft primitive) and
// counts as busy, so a deadlock through such a join is not seen; and a thread blocked on a
// primitive that only a later Runtime::run from another OS thread will release looks
// deadlocked (WEFT_DEADLOCK=report or off for such programs).
#pragma once

#include <atomic>
#include <cstdint>

#include "weft/config.hpp"

namespace weft::detail {

class Pool;

// A quiet task waiter looks once per this many yields of its waiting loop (DW1): a few
// hundred microseconds when the core is otherwise free.
inline constexpr unsigned kYieldsPerLook = 256;

class DeadlockWatch {
 public:
  DeadlockWatch(DeadlockAction action, std::uint32_t after_ms) noexcept
      : action_(action), after_ns_(std::uint64_t{after_ms} * 1000000) {}

  bool enabled() const noexcept { return action_ != DeadlockAction::kOff; }
  // One look (DW1, DW3).
  void look(Pool& pool) noexcept;

 private:
  static bool stuck(Pool& pool) noexcept;
  static std::uint64_t stamp(Pool& pool) noexcept;
  // Prints the report and aborts (kAbort) or returns (kReport).
  void act(Pool& pool) noexcept;

  const DeadlockAction action_;
  const std::uint64_t after_ns_;
  std::atomic<bool> looking_{false};
  // Guarded by looking_ (DW3).
  std::uint64_t stuck_since_ns_ = 0;  // 0: not stuck at the last look
  std::uint64_t stamp_ = 0;
  bool reported_ = false;  // this deadlock was reported (kReport prints it once)
};

}  // namespace weft::detail
