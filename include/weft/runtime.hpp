// Runtime: a pool of worker threads that runs fork-join programs. An object, not a process
// global: a program (or a test) may build and destroy as many as it likes.
#pragma once

#include <condition_variable>
#include <exception>
#include <functional>
#include <iosfwd>
#include <memory>
#include <mutex>
#include <optional>
#include <type_traits>
#include <utility>

#include "weft/config.hpp"
#include "weft/detail/slot.hpp"
#include "weft/detail/worker_core.hpp"
#include "weft/profile.hpp"
#include "weft/stats.hpp"

namespace weft {

namespace detail {
class Pool;

// A call of Runtime::run waiting for a worker to pick it up and run it.
class RootJob {
 public:
  // Runs the root closure on the calling worker; never throws.
  virtual void execute() noexcept = 0;

  void mark_done() noexcept {
    // Notify while holding the mutex: the waiter cannot return and destroy this job (it
    // lives on the waiter's stack) before we have released it.
    std::lock_guard lock(mutex_);
    done_ = true;
    cv_.notify_one();
  }
  void wait_done() {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [this] { return done_; });
  }

 protected:
  ~RootJob() = default;

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
};

template <class F>
class RootJobFor final : public RootJob {
 public:
  using T = std::invoke_result_t<F>;
  explicit RootJobFor(F& fn) : fn_(fn) {}

  void execute() noexcept override {
    try {
      if constexpr (std::is_void_v<T>) {
        std::invoke(fn_);
        value_.emplace();
      } else {
        value_.emplace(std::invoke(fn_));
      }
    } catch (...) {
      error_ = std::current_exception();
    }
  }

  T take() {
    if (error_) std::rethrow_exception(error_);
    if constexpr (!std::is_void_v<T>) return std::move(*value_);
  }

 private:
  F& fn_;
  std::optional<ValueOf<T>> value_;
  std::exception_ptr error_;
};
}  // namespace detail

// The id (0 .. workers-1) of the worker running the caller, or -1 outside any runtime. For
// per-worker bookkeeping in programs (e.g. UTS's nodes per worker).
inline int this_worker_id() noexcept {
  return detail::on_worker() ? detail::current_worker()->id : -1;
}

class Runtime {
 public:
  // Starts config.resolved_workers() threads. Throws ConfigError for a bad config.
  explicit Runtime(Config config);
  Runtime() : Runtime(Config{}) {}
  // Joins all worker threads. No run() may be in progress.
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  // Runs fn() as the root task on a worker and returns its value (or rethrows its
  // exception). Callable from any thread, concurrently; the caller blocks until fn returns.
  // Called from inside a task of this runtime, fn is simply called inline on the current
  // worker. Called from a task of another runtime, the calling worker blocks (it does not
  // help) until this runtime has run fn.
  template <class F>
  std::invoke_result_t<F&> run(F&& fn) {
    detail::WorkerCore* w = detail::current_worker();
    if (w != nullptr && w->pool == pool_.get()) {
      return std::invoke(fn);
    }
    detail::RootJobFor<F&> job(fn);
    submit_and_wait(job);
    return job.take();
  }

  unsigned workers() const noexcept;
  const Config& config() const noexcept;
  // Whether the workers are bound to CPUs: what Config::pin decided for this machine.
  bool workers_pinned() const noexcept;
  // Config::busy_limit as this runtime applies it: at most this many workers busy before an
  // idle one sleeps instead of stealing; 0 when no limit applies (no more workers than it).
  unsigned busy_limit() const noexcept;

  // Counters summed over workers, and per worker. Exact once run() has returned; a
  // consistent-enough snapshot while tasks run.
  // With Config::profile, also the execution profile since the start or the last
  // reset_stats(). Both may be called from any thread at any time: a reset never writes a
  // worker's counters (it records a baseline that stats() subtracts), so a worker counting
  // at that moment loses nothing.
  Stats stats() const;
  void reset_stats();
  // The timeline recorded so far (Config::trace_events per worker; empty when 0). Events
  // already recorded never change, so this may be called at any time.
  Trace trace() const;

  // Lists every live user-level thread of this runtime, one line each: its number, its state
  // (ready, running, blocked) and, for a blocked one, what it waits on (a weft::mutex and the
  // thread or task holding it, a condition_variable, a semaphore, a barrier, the thread it
  // joins), in the words of the deadlock report; then each task waiting on a weft primitive.
  // With Config::thread_debug, a blocked thread's line is followed by the backtrace taken
  // when it parked. A snapshot: callable from any thread at any time, inside run() too.
  // Without an argument it writes to std::cerr.
  void dump_threads() const;
  void dump_threads(std::ostream& out) const;

 private:
  void submit_and_wait(detail::RootJob& job);

  std::unique_ptr<detail::Pool> pool_;
};

}  // namespace weft
