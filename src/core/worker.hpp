// A worker: a thread with a task stack that runs its own tasks, steals when it has none,
// helps while it waits for a stolen task, and sleeps when there is nothing to do.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/activity_clock.hpp"
#include "core/epoch_max.hpp"
#include "core/idle_backoff.hpp"
#include "core/loop/loop_worker.hpp"
#include "core/steal_history.hpp"
#include "core/steal_side.hpp"
#include "platform/cpu.hpp"
#include "platform/native_thread.hpp"
#include "weft/config.hpp"
#include "weft/detail/worker_core.hpp"
#include "weft/stats.hpp"

namespace weft::detail {

class Pool;

class Worker final : public WorkerCore {
 public:
  Worker(Pool& pool, std::int32_t id, const Config& config);

  void start(int cpu);
  void join_thread() { thread_.join(); }
  // In a child of fork(): the thread was not copied; forget it.
  void abandon_thread() noexcept { thread_.abandon(); }

  // The join of a stolen task: see docs/ARCHITECTURE.md, "Join and its bound".
  Outcome wait_for_stolen(Slot* s) noexcept;

  // Request mechanism: answers the steal request pending on this worker, if any (the time
  // is charged to switch).
  void serve_requests() noexcept;

  // A burst of tasks was pushed (weft::scope): wake a sleeper if a thief would get some.
  void offer_work() noexcept;

  // The counters and the profile since the last reset_counters() (frame management charged
  // at frame_cost_ns per pushed task). The caller holds the pool's stats lock, which guards
  // the baselines.
  WorkerStats snapshot(double frame_cost_ns) const noexcept;
  // Restarts the counters and the profile from now, without writing them: the current
  // readings become the baseline that snapshot() subtracts, so a worker counting at this
  // very moment keeps its count right. The caller holds the pool's stats lock.
  void reset_counters() noexcept;
  WorkerTrace trace() const;

  // Parallel loops forked on this worker, and its search for loops to help.
  LoopWorker& loops() noexcept { return loops_; }
  // The profile's clock: loops charge the owner's wait to idle and the queue search to steal.
  ActivityClock& clock() noexcept { return clock_; }
  // Counts this worker in or out of the pool's idle workers (adaptive fork's test): out as
  // soon as it has found work, before it runs it, so that a worker busy with a stolen task
  // or a loop's chunks is never taken for idle.
  void set_idle(bool idle) noexcept;

  // Thief-side counters, written by this worker only.
  Counter steals;
  Counter tasks_stolen;
  Counter failed_steals;
  Counter leapfrogs;
  Counter parks;
  Counter requests_served;   // as a victim (request mechanism)
  Counter request_timeouts;  // as a thief (request mechanism)
  // A running maximum, not a count; restarted by advancing stats_epoch_.
  EpochMax max_steal_stack_bytes;

 private:
  void main_loop() noexcept;
  bool steal_random() noexcept;
  bool steal_from(Worker& victim) noexcept;
  // The request mechanism's steal: post, wait for the answer (serving our own requests
  // meanwhile), withdraw after the timeout.
  Claim request_from(Worker& victim) noexcept;
  void run_claim(Claim claim) noexcept;
  void run_stolen_timed(Slot* s) noexcept;  // run_stolen, charged to kTask
  void idle(IdleBackoff& backoff) noexcept;
  // The counters as they stand, since the worker started.
  WorkerStats raw_counts() const noexcept;
  // True while this worker's stack use is below the helping limit.
  bool may_help() const noexcept {
    return static_cast<std::size_t>(stack_base_ - platform::stack_pointer()) < help_limit_bytes_;
  }

  Pool& pool_;
  ActivityClock clock_;
  // The readings at the last reset (guarded by the pool's stats lock; never read by the
  // worker itself).
  WorkerStats counter_base_;
  ActivityTimes profile_base_;
  // Advanced by each reset; the worker reads it (relaxed) when it raises a maximum.
  std::atomic<std::uint32_t> stats_epoch_{0};
  platform::Rng rng_;
  StealRequest request_;  // posted to one victim at a time (request mechanism)
  std::uint64_t request_timeout_ns_;
  StealHistory history_;  // kept only when the policy reads it
  bool track_history_;
  std::size_t stack_bytes_;
  std::size_t help_limit_bytes_;
  const char* stack_base_ = nullptr;
  bool watching_ = false;  // this worker is the pool's watchman (sleep.hpp)
  bool counted_idle_ = false;
  LoopWorker loops_;
  platform::NativeThread thread_;
};

// Runs a claimed slot's closure and publishes its outcome to the waiting owner.
void run_stolen(Slot* s) noexcept;

}  // namespace weft::detail
