// The pool: worker lifecycle, root jobs, and sleep/wake.
//
// Sleep/wake protocol. Idle workers sleep on `wake_word_` with a futex: read the word, check
// for work, then futex-wait for the word to change. Wakers change the word, then futex-wake.
// The kernel compares the word and sleeps atomically, so a waker whose change came after the
// sleeper's read always wakes it (or, for a wake of one, another sleeper, which is as good:
// every woken worker looks at the root queue and steals), and a change that came before the
// read is seen by the sleeper's check (the check follows the read; both sides use seq_cst).
//
// While a run is active, one sleeper is the *watchman* (`watched_`): it naps (kFirstNap
// doubling to kMaxNap) and looks again. Every other sleeper parks without a timeout, as
// everybody does when no run is active: N idle workers cost one nap loop, not N.
//
// Which lost wake-ups are harmless and which would be fatal:
//   - run() submitting a root job (fatal if lost: nobody would run it): queues the job, then
//     bumps the word and wakes two sleepers, under the protocol above, so it cannot be lost.
//     One takes the root; the other looks for the root's first spawn (kMinYield keeps it
//     looking that long) and then becomes the watchman. Two, not all: on a machine with
//     fewer cores than workers a thundering herd delays the root; the pool fills up by the
//     chain below instead.
//   - shutdown (fatal if lost: the destructor would hang): bumps the word and wakes all.
//   - a spawn making work stealable (harmless if lost: the spawner runs its own tasks, so
//     only parallelism is lost): spawns wake nobody, which keeps the owner's path free of
//     shared accesses. The watchman bounds the loss to one nap: it is there whenever a run
//     is active and any worker sleeps. A thief that leaves work behind wakes one more sleeper
//     (a burst of parallelism wakes the pool in a chain), and so does a thief or root taker
//     that was the watchman, or that sees nobody watching: the role is handed on, never
//     dropped while workers park. The hand-over is a Dekker pair (seq_cst): a sleeper
//     increments `sleepers_` then tests `watched_`; a watchman clears `watched_` then reads
//     `sleepers_`. So either the sleeper takes the free role, or the old watchman sees the
//     sleeper and wakes one (the word bump makes a sleeper between its read of the word and
//     its futex-wait return at once). Losing the role would not hang a run either, only
//     leave spawned work to its owner until some worker goes idle again.
#include "core/pool.hpp"

#include "core/barrier_mode.hpp"
#include "core/frame_cost.hpp"
#include "platform/futex.hpp"

namespace weft::detail {

Pool::Pool(const Config& config) : config_(config) {
  config_.validate();
  init_barrier_mode(config_.barrier);
  origin_ns_ = monotonic_ns();
  // Before the workers start: the calibration briefly makes this thread a worker of its own.
  if (profiled()) frame_cost_ns_ = ::weft::detail::frame_cost_ns();  // not the accessor
  const unsigned n = config_.resolved_workers();
  workers_.reserve(n);
  for (unsigned i = 0; i < n; ++i) {
    workers_.push_back(std::make_unique<Worker>(*this, static_cast<std::int32_t>(i), config_));
  }
  const unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
  try {
    for (unsigned i = 0; i < n; ++i) {
      workers_[i]->start(config_.pin ? static_cast<int>(i % cpus) : -1);
    }
  } catch (...) {
    shutdown_.store(true, std::memory_order_seq_cst);
    wake_word_.fetch_add(1, std::memory_order_seq_cst);
    platform::futex_wake(wake_word_, platform::kWakeAll);
    for (auto& w : workers_) w->join_thread();
    throw;
  }
}

Pool::~Pool() {
  shutdown_.store(true, std::memory_order_seq_cst);
  wake_word_.fetch_add(1, std::memory_order_seq_cst);
  platform::futex_wake(wake_word_, platform::kWakeAll);
  for (auto& w : workers_) w->join_thread();
}

void Pool::submit_and_wait(RootJob& job) {
  {
    std::lock_guard lock(roots_mutex_);
    roots_.push_back(&job);
  }
  pending_roots_.fetch_add(1, std::memory_order_seq_cst);
  active_runs_.fetch_add(1, std::memory_order_seq_cst);
  wake_word_.fetch_add(1, std::memory_order_seq_cst);  // after the job is visible (fatal path)
  platform::futex_wake(wake_word_, 2);  // the root's taker and a thief for its first spawn
  job.wait_done();
}

RootJob* Pool::take_root() noexcept {
  if (pending_roots_.load(std::memory_order_seq_cst) == 0) return nullptr;
  std::lock_guard lock(roots_mutex_);
  if (roots_.empty()) return nullptr;
  RootJob* job = roots_.front();
  roots_.pop_front();
  pending_roots_.fetch_sub(1, std::memory_order_seq_cst);
  return job;
}

void Pool::finish_root(RootJob& job) noexcept {
  // Before mark_done: once run() has returned, this run no longer counts as active.
  active_runs_.fetch_sub(1, std::memory_order_seq_cst);
  job.mark_done();
}

bool Pool::sleep(std::chrono::microseconds nap, bool& watching) noexcept {
  const std::uint32_t seen = wake_word_.load(std::memory_order_seq_cst);
  if (shutting_down() || pending_roots_.load(std::memory_order_seq_cst) > 0) return true;
  const bool run_active = active_runs_.load(std::memory_order_seq_cst) > 0;
  sleepers_.fetch_add(1, std::memory_order_seq_cst);  // before the test of watched_ (Dekker)
  if (!run_active) {
    // Nothing to watch: the next run() wakes two workers, one of which becomes watchman.
    if (watching) watched_.store(false, std::memory_order_seq_cst);
    watching = false;
  } else if (!watching && !watched_.load(std::memory_order_seq_cst)) {
    bool free = false;
    watching = watched_.compare_exchange_strong(free, true, std::memory_order_seq_cst);
  }
  platform::futex_wait(wake_word_, seen, watching ? nap : std::chrono::microseconds::zero());
  sleepers_.fetch_sub(1, std::memory_order_relaxed);
  return wake_word_.load(std::memory_order_relaxed) != seen;
}

void Pool::stop_watching(bool& watching) noexcept {
  if (!watching) return;
  watching = false;
  watched_.store(false, std::memory_order_seq_cst);  // before the read of sleepers_ (Dekker)
  wake_one_sleeper();                                // to take the role over
}

void Pool::after_steal(bool& watching, bool left_work) noexcept {
  if (watching) {
    stop_watching(watching);
  } else if (left_work || !watched_.load(std::memory_order_seq_cst)) {
    wake_one_sleeper();
  }
}

void Pool::wake_one_sleeper() noexcept {
  if (sleepers_.load(std::memory_order_seq_cst) == 0) return;
  wake_word_.fetch_add(1, std::memory_order_seq_cst);
  platform::futex_wake(wake_word_, 1);
}

}  // namespace weft::detail
