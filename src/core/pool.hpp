// The pool behind a Runtime: its workers, the queue of root jobs from run(), and where idle
// workers sleep (the sleep/wake protocol and its invariants are in sleep.hpp).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <vector>

#include "core/activity_clock.hpp"
#include "core/busy_limit.hpp"
#include "core/sleep.hpp"
#include "core/worker.hpp"
#include "loop/loop_frame_store.hpp"
#include "loop/loop_queue.hpp"
#include "threads/deadlock_watch.hpp"
#include "threads/task_waits.hpp"
#include "threads/thread_scheduler.hpp"
#include "threads/timers.hpp"
#include "threads/uthread.hpp"
#include "weft/config.hpp"
#include "weft/runtime.hpp"

namespace weft::detail {

class Pool {
 public:
  explicit Pool(const Config& config);
  ~Pool();
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;

  const Config& config() const noexcept { return config_; }
  const StealPolicy& policy() const noexcept { return config_.steal; }
  bool profiled() const noexcept { return config_.profile || config_.trace_events > 0; }
  // The calibrated cost of a spawn+join when profiled (frame_cost.hpp), else 0.
  double frame_cost_ns() const noexcept { return frame_cost_ns_; }
  // When the pool was built, on the monotonic clock: the trace's zero.
  std::uint64_t origin_ns() const noexcept { return origin_ns_; }
  unsigned size() const noexcept { return static_cast<unsigned>(workers_.size()); }
  bool pinned() const noexcept { return pinned_; }
  // Config::busy_limit resolved for this pool (busy_limit.hpp); 0: none.
  unsigned busy_limit() const noexcept { return busy_limit_.limit(); }
  // Whether the busy limit stops an idle worker from looking for work now: at least that many
  // other workers are busy and no lift is on (busy_limit.hpp). `self_busy`: whether the
  // asking worker still counts as busy itself. The counts are hints (relaxed): two thieves
  // may both pass, or one sleep a nap too long; neither costs more than the limit saves.
  bool busy_limit_stops(bool self_busy) noexcept {
    if (busy_limit_.limit() == 0) return false;
    const int busy = static_cast<int>(size()) - idle_workers() - (self_busy ? 1 : 0);
    return busy_limit_.stops(busy, monotonic_ns, [this] { return workers_cpu_ns(); });
  }
  // The CPU time all workers' threads have used; 0 if no clock can be read.
  std::uint64_t workers_cpu_ns() const noexcept {
    std::uint64_t sum = 0;
    for (const auto& w : workers_) sum += w->cpu_ns();
    return sum;
  }
  Worker& worker(unsigned i) noexcept { return *workers_[i]; }
  const Worker& worker(unsigned i) const noexcept { return *workers_[i]; }

  // Parallel loops: the queue where idle workers find loops, the shared loop frame pool
  // (Config::loop_frames = pool), and how many workers are idle (adaptive fork's test).
  LoopQueue& loop_queue() noexcept { return *loop_queue_; }
  LoopFramePool& loop_frame_pool() noexcept { return loop_frame_pool_; }
  // relaxed: a hint; a stale answer forks once too often or runs one loop serially.
  int idle_workers() const noexcept { return idle_workers_.load(std::memory_order_relaxed); }
  // The counter itself, which workers' loop_idle point to (weft/loop.hpp reads it inline).
  const std::atomic<std::int32_t>& idle_counter() const noexcept { return idle_workers_; }
  void add_idle(int delta) noexcept { idle_workers_.fetch_add(delta, std::memory_order_relaxed); }

  // User-level threads: their blocks and stacks, and the ready ones' order.
  ThreadStore& thread_store() noexcept { return thread_store_; }
  ThreadScheduler& threads() noexcept { return threads_; }
  // The deadlines of parked threads: workers fire them at their scheduling points and the
  // watchman's nap ends by the earliest (timers.hpp).
  Timers& timers() noexcept { return timers_; }
  // Tasks waiting on weft primitives, and the deadlock detector that watches them and the
  // threads.
  TaskWaits& task_waits() noexcept { return task_waits_; }
  DeadlockWatch& deadlock_watch() noexcept { return deadlock_watch_; }

  // Guards the workers' stats baselines: stats() and reset_stats() may come from any threads.
  std::mutex& stats_mutex() const noexcept { return stats_mutex_; }
  // The threads' and heap's figures since the start or the last reset (under stats_mutex).
  ThreadStats thread_stats() const noexcept;
  void reset_thread_stats() noexcept;

  // Runtime::run from a thread outside this pool: queue the job, wake the workers, wait.
  // Throws std::logic_error in a child of fork() (the workers were not copied) and for a
  // run that would close a cycle of runtimes waiting on each other (nested_runs.hpp).
  void submit_and_wait(RootJob& job);
  // A worker's look at the root queue: the next job, or nullptr.
  RootJob* take_root() noexcept;
  // A worker finished a root job.
  void finish_root(RootJob& job) noexcept;

  bool shutting_down() const noexcept { return shutdown_.load(std::memory_order_acquire); }
  bool has_pending_roots() const noexcept {
    return pending_roots_.load(std::memory_order_seq_cst) > 0;
  }
  // Sleeps until work may be there (Sleep::wait), unless a root job or shutdown is already
  // pending. While a run is active the caller may become the watchman and nap for `nap`;
  // otherwise it parks. Returns true if something woke it, false if the nap ran out (the
  // watchman then has the deadlock watch look: DW1 in deadlock_watch.hpp).
  bool sleep(std::chrono::microseconds nap, bool& watching) noexcept;
  void stop_watching(bool& watching) noexcept { sleep_.stop_watching(watching); }
  void after_steal(bool& watching, bool left_work) noexcept {
    sleep_.after_steal(watching, left_work);
  }
  bool has_sleepers() const noexcept { return sleep_.has_sleepers(); }
  // Whether some idle worker is awake (spinning or yielding, not asleep): a loop forked now
  // is taken up within a microsecond, where a sleeper must first be woken.
  bool idle_worker_awake() const noexcept { return idle_workers() > sleep_.sleepers(); }
  // Wakes one sleeper, if any: where a burst of stealable work just appeared off the owner's
  // fast path (weft::scope's offer_work).
  void notify_work() noexcept { sleep_.wake_one(); }

 private:
  Config config_;
  double frame_cost_ns_ = 0.0;
  std::uint64_t origin_ns_ = 0;
  std::uint32_t fork_generation_ = 0;  // platform::fork_generation() when the pool was made
  bool pinned_ = false;                // the workers are bound to CPUs (Config::pin)
  BusyLimit busy_limit_;               // Config::busy_limit resolved, and its lifts
  // Before the workers, which keep references to both.
  std::unique_ptr<LoopQueue> loop_queue_;
  LoopFramePool loop_frame_pool_;
  ThreadStore thread_store_;
  ThreadScheduler threads_;
  Timers timers_;
  TaskWaits task_waits_;
  DeadlockWatch deadlock_watch_;
  std::vector<std::unique_ptr<Worker>> workers_;
  alignas(kFalseSharingRange) std::atomic<std::int32_t> idle_workers_{0};

  mutable std::mutex stats_mutex_;
  ThreadStats thread_baseline_;  // guarded by stats_mutex_: the counts at the last reset
  std::mutex roots_mutex_;
  std::deque<RootJob*> roots_;  // guarded by roots_mutex_

  Sleep sleep_;
  std::atomic<std::int32_t> pending_roots_{0};
  std::atomic<std::int32_t> active_runs_{0};
  std::atomic<bool> shutdown_{false};

  // True in a child of fork() made after this pool: its worker threads do not exist here.
  bool forked_away() const noexcept;
};

}  // namespace weft::detail
