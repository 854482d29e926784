// The pool behind a Runtime: its workers, the queue of root jobs from run(), and the word
// idle workers sleep on. Invariants of the sleep/wake protocol are in pool.cpp.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <vector>

#include "core/worker.hpp"
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
  Worker& worker(unsigned i) noexcept { return *workers_[i]; }
  const Worker& worker(unsigned i) const noexcept { return *workers_[i]; }

  // Guards the workers' stats baselines: stats() and reset_stats() may come from any threads.
  std::mutex& stats_mutex() const noexcept { return stats_mutex_; }

  // Runtime::run from a thread outside this pool: queue the job, wake the workers, wait.
  // Throws std::logic_error in a child of fork() (the workers were not copied) and for a
  // run that would close a cycle of runtimes waiting on each other (nested_runs.hpp).
  void submit_and_wait(RootJob& job);
  // A worker's look at the root queue: the next job, or nullptr.
  RootJob* take_root() noexcept;
  // A worker finished a root job.
  void finish_root(RootJob& job) noexcept;

  bool shutting_down() const noexcept { return shutdown_.load(std::memory_order_acquire); }
  // Sleeps until work may be there. While a run is active, one sleeper at a time is the
  // watchman (`watching` says whether the caller is; this call may make it one): it naps
  // for `nap` and looks again, the others park until woken. With no run active everybody
  // parks (and a watchman gives the role up). Returns at once if a root job or shutdown is
  // already pending. Returns true if something woke it (the word changed), false if the
  // nap ran out.
  bool sleep(std::chrono::microseconds nap, bool& watching) noexcept;
  // A worker that took a root job stops being the watchman, if it was (and wakes a sleeper
  // to take the role over).
  void stop_watching(bool& watching) noexcept;
  // A worker stole: `left_work` when tasks are left on the victim or as proxies on its
  // stack. A watchman gives the role up. Wakes one sleeper, if any, when work was left
  // behind or nobody watches any more, so that some idle worker keeps looking.
  void after_steal(bool& watching, bool left_work) noexcept;
  // Whether a worker may be asleep now (relaxed: a stale answer only delays or wastes one
  // wake-up, which the watchman's naps bound; see pool.cpp).
  bool has_sleepers() const noexcept { return sleepers_.load(std::memory_order_relaxed) != 0; }
  // Wakes one sleeper, if any: where a burst of stealable work just appeared off the owner's
  // fast path (weft::scope's offer_work).
  void notify_work() noexcept { wake_one_sleeper(); }

 private:
  Config config_;
  double frame_cost_ns_ = 0.0;
  std::uint64_t origin_ns_ = 0;
  std::uint32_t fork_generation_ = 0;  // platform::fork_generation() when the pool was made
  std::vector<std::unique_ptr<Worker>> workers_;

  mutable std::mutex stats_mutex_;
  std::mutex roots_mutex_;
  std::deque<RootJob*> roots_;  // guarded by roots_mutex_

  alignas(kFalseSharingRange) std::atomic<std::uint32_t> wake_word_{0};
  std::atomic<std::int32_t> sleepers_{0};
  std::atomic<bool> watched_{false};  // some sleeper is the watchman
  std::atomic<std::int32_t> pending_roots_{0};
  std::atomic<std::int32_t> active_runs_{0};
  std::atomic<bool> shutdown_{false};

  void wake_one_sleeper() noexcept;
  // True in a child of fork() made after this pool: its worker threads do not exist here.
  bool forked_away() const noexcept;
};

}  // namespace weft::detail
