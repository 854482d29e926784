// A worker: a thread with a task stack that runs its own tasks, steals when it has none,
// helps while it waits for a stolen task, and sleeps when there is nothing to do.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/activity_clock.hpp"
#include "core/epoch_max.hpp"
#include "loop/loop_worker.hpp"
#include "model/idle_backoff.hpp"
#include "model/steal_history.hpp"
#include "platform/cpu.hpp"
#include "platform/exception_state.hpp"
#include "platform/fiber_context.hpp"
#include "platform/native_thread.hpp"
#include "tasks/steal_side.hpp"
#include "weft/config.hpp"
#include "weft/detail/worker_core.hpp"
#include "weft/stats.hpp"

namespace weft::detail {

class Pool;

class Worker final : public WorkerCore {
 public:
  Worker(Pool& pool, std::int32_t id, const Config& config);

  // Starts the thread, allowed on `cpus` only (one CPU when bound; empty: inherited).
  void start(const std::vector<int>& cpus);
  void join_thread() { thread_.join(); }
  // In a child of fork(): the thread was not copied; forget it.
  void abandon_thread() noexcept { thread_.abandon(); }

  // The join of a stolen task: see docs/TASK_STACK.md, "Join and its bound".
  Outcome wait_for_stolen(Slot* s) noexcept;

  // Request mechanism: answers the steal request pending on this worker, if any (the time
  // is charged to switch).
  void serve_requests() noexcept;

  // A burst of tasks was pushed on `stack` (weft::scope): wake a sleeper if a thief would
  // get some.
  void offer_work(const TaskStack& stack) noexcept;

  Pool& home_pool() noexcept { return pool_; }

  // ---- User-level threads (src/threads/worker_switch.cpp) ----
  // Runs `t` (taken from the scheduler, marked running) from this worker's own stack until
  // it parks, yields or ends, then whatever it handed on (a df child). Also called from a
  // task waiting on a weft primitive (WL3): threads run on their own stacks.
  void run_thread(UThread* t) noexcept;
  // What a thread that switched back to this worker's own stack asks it to do there, once
  // it can no longer be running (WL1).
  struct AfterSwitch {
    enum Kind : std::uint8_t { kPark, kParkOnSlot, kPreempt, kRunChild, kExit } kind = kPark;
    std::atomic<bool>* unlock = nullptr;  // kPark: the wait list's lock word to release
    Slot* slot = nullptr;                 // kParkOnSlot: the stolen task awaited
    UThread* child = nullptr;             // kRunChild: runs next, here
  };
  AfterSwitch after_switch;
  // A thread's yield, which switches straight to the next ready thread (TR4): returns that
  // thread with `t` taken off this worker and the new one put on (as run_thread does around
  // its switches), t left to finish_hand_over; or nullptr when no other thread is ready.
  UThread* hand_over_from(UThread& t) noexcept;
  // On a thread's stack right after it was switched to: makes ready the thread that yielded
  // to it, if one did (TR4).
  void finish_hand_over() noexcept;
  // This worker's own stack as a context, switched back to by the threads it runs.
  platform::ExecutionContext home;
  // This worker's OS thread's record of exceptions being handled (exception_state.hpp).
  platform::ExceptionState* exceptions = nullptr;
  // The core whose task stack thieves should look at first: this worker's own, or that of
  // the thread it runs (acquire: pairs with the release store at each switch).
  WorkerCore* running_core() const noexcept {
    return running_core_.load(std::memory_order_acquire);
  }
  // Steals from a blocked thread's task stack (its owner cannot run the tasks now).
  bool steal_parked() noexcept;
  // For a task waiting on a weft primitive on this worker's own stack (WL3): steals from a
  // blocked thread, else from a random victim, and makes the claim a new ready thread with a
  // worker-sized stack, so that a stolen task that blocks parks there, never under the
  // waiter.
  bool steal_for_waiter() noexcept;
  // One step of a wait that must not run a task on this stack (WL3, or a stolen-task join
  // while this stack holds a weft::mutex): runs a ready thread, or, once `spins` says the
  // wait has gone on a while, steals into a new thread. True if it did either.
  bool wait_step_on_threads(unsigned spins) noexcept;

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
  // or a loop's chunks is never taken for idle. A worker that helped with a loop from its
  // idle loop is counted back in before it leaves the loop (LoopWorker::help).
  void set_idle(bool idle) noexcept;
  bool counted_idle() const noexcept { return counted_idle_; }
  // The CPU time this worker's thread has used (platform/cpu_clock.hpp); 0 before it started
  // or where the clock cannot be read. Any thread may ask.
  std::uint64_t cpu_ns() const noexcept;

  // Thief-side counters, written by this worker only.
  Counter steals;
  Counter tasks_stolen;
  Counter fenced_steals;  // of the steals, claims whose barrier was a fence
  Counter failed_steals;
  Counter leapfrogs;
  Counter parks;
  Counter limit_sleeps;      // parks the busy limit caused (main_loop)
  Counter requests_served;   // as a victim (request mechanism)
  Counter request_timeouts;  // as a thief (request mechanism)
  // n at each steal attempt, by steal_size_bucket (weft/stats.hpp).
  std::array<Counter, kStealSizeBuckets> steal_sizes_seen;
  // A running maximum, not a count; restarted by advancing stats_epoch_.
  EpochMax max_steal_stack_bytes;

 private:
  void main_loop() noexcept;
  bool steal_random() noexcept;
  // From the core the victim runs now, then from its own if that was a thread's.
  bool steal_from(Worker& victim) noexcept;
  // as_thread: the claim runs in a new user-level thread, not on our stack (a waiter's).
  bool steal_from_core(WorkerCore& victim, bool as_thread = false) noexcept;
  void run_claim_as_thread(Claim claim, WorkerCore* owner) noexcept;
  // The request mechanism's steal: post, wait for the answer (serving our own requests
  // meanwhile), withdraw after the timeout. `now_ns`: when the attempt started (for the
  // adaptive policy's history; 0 when the policy reads none).
  Claim request_from(WorkerCore& victim, std::uint64_t now_ns) noexcept;
  void run_claim(Claim claim, WorkerCore* owner) noexcept;
  void run_stolen_timed(Slot* s, WorkerCore* owner) noexcept;  // run_stolen, charged to kTask
  // Around a thread's turn on this worker: the thread's core, quota and exception record
  // put on before the switch to it (TR1), and taken off after it switched away.
  void enter_thread(UThread& t, bool swap_exceptions = true) noexcept;
  void leave_thread(UThread& t) noexcept;
  // The thread's counters since they were last folded, added to ours (at the hub: a yield
  // leaves them for the next hub the thread reaches); and after_switch, done.
  void fold_counters(UThread& t) noexcept;
  UThread* finish_switch(UThread* t) noexcept;
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
  std::atomic<int> cpu_clock_{-1};  // relaxed: set once by the thread itself, read by others
  unsigned idle_yields_ = 0;        // yields in the idle backoff, for the deadlock watch's looks
  LoopWorker loops_;
  std::atomic<WorkerCore*> running_core_{this};
  UThread* handed_over_ = nullptr;  // a yielder this worker switched away from (TR4)
  platform::NativeThread thread_;
};

// Runs a claimed slot's closure and publishes its outcome to the waiting owner, the core
// whose task stack the slot is in; wakes that core's thread if it parked on the slot.
void run_stolen(Slot* s, WorkerCore* owner) noexcept;

// A slot's state while its owner, a user-level thread, is parked on it (never an Outcome).
inline constexpr std::uint32_t kOwnerParked = 3;

}  // namespace weft::detail
