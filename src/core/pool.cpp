// The pool: worker lifecycle, root jobs, and sleep/wake.
//
// Sleep/wake protocol. Idle workers sleep on `wake_word_` with a futex: read the word, check
// for work, then futex-wait for the word to change. Wakers change the word, then futex-wake.
// The kernel compares the word and sleeps atomically, so a waker whose change came after the
// sleeper's read always wakes it, and a change that came before the read is seen by the
// sleeper's check (the check follows the read; both sides use seq_cst). Which lost wake-ups
// are harmless and which would be fatal:
//   - run() submitting a root job (fatal if lost: nobody would run it): queues the job, then
//     bumps the word and wakes everybody, under the protocol above, so it cannot be lost.
//   - shutdown (fatal if lost: the destructor would hang): same path.
//   - a spawn making work stealable (harmless if lost: the spawner runs its own tasks, so
//     only parallelism is lost): spawns do not wake anyone, which keeps the owner's path free
//     of shared writes. Instead, while any run is active, sleepers only nap (kMaxNap at most)
//     and look again; thieves that leave work behind wake one more sleeper (notify_work),
//     so a burst of parallelism wakes the pool in a chain.
// With no run active, workers park without a timeout: an idle pool uses no CPU.
#include "core/pool.hpp"

#include "core/frame_cost.hpp"
#include "platform/asymmetric_barrier.hpp"
#include "platform/futex.hpp"

namespace weft::detail {

Pool::Pool(const Config& config) : config_(config) {
  config_.validate();
  platform::init_asymmetric_barrier();
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
    platform::futex_wake_all(wake_word_);
    for (auto& w : workers_) w->join_thread();
    throw;
  }
}

Pool::~Pool() {
  shutdown_.store(true, std::memory_order_seq_cst);
  wake_word_.fetch_add(1, std::memory_order_seq_cst);
  platform::futex_wake_all(wake_word_);
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
  platform::futex_wake_all(wake_word_);
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

bool Pool::sleep(std::chrono::microseconds nap) noexcept {
  const std::uint32_t seen = wake_word_.load(std::memory_order_seq_cst);
  if (shutting_down() || pending_roots_.load(std::memory_order_seq_cst) > 0) return true;
  const bool run_active = active_runs_.load(std::memory_order_seq_cst) > 0;
  sleepers_.fetch_add(1, std::memory_order_seq_cst);
  platform::futex_wait(wake_word_, seen, run_active ? nap : std::chrono::microseconds::zero());
  sleepers_.fetch_sub(1, std::memory_order_relaxed);
  return wake_word_.load(std::memory_order_relaxed) != seen;
}

void Pool::notify_work() noexcept {
  // relaxed: a stale zero only skips a wake-up that is harmless to lose (see above).
  if (sleepers_.load(std::memory_order_relaxed) == 0) return;
  wake_word_.fetch_add(1, std::memory_order_release);
  platform::futex_wake_one(wake_word_);
}

}  // namespace weft::detail
