// The pool: worker lifecycle and root jobs. Idle workers sleep in sleep.*, whose protocol
// this file follows: a root job is queued before the wake that announces it (a lost one
// would be fatal), and shutdown wakes everybody.
#include "core/pool.hpp"

#include <chrono>
#include <optional>
#include <stdexcept>
#include <thread>

#include "core/busy_limit.hpp"
#include "core/nested_runs.hpp"
#include "core/pinning.hpp"
#include "loop/dlist_queue.hpp"
#include "loop/pcb_queue.hpp"
#include "model/frame_cost.hpp"
#include "platform/fork_generation.hpp"
#include "platform/native_thread.hpp"
#include "tasks/barrier_mode.hpp"
#include "threads/overflow_report.hpp"
#include "threads/thread_report.hpp"

namespace weft::detail {

namespace {
// Checked before any member is sized by it (a worker count of 4 billion would otherwise be
// an allocation failure, not a ConfigError).
const Config& validated(const Config& config) {
  config.validate();
  return config;
}
}  // namespace

Pool::Pool(const Config& config)
    : config_(validated(config)),
      fork_generation_(platform::fork_generation()),
      thread_store_(*this, config.thread_stack_bytes, config_.resolved_workers()),
      threads_(config.thread_sched),
      task_waits_(config.resolved_workers()),
      deadlock_watch_(config.deadlock, config.deadlock_ms) {
  install_overflow_report();
  if (config_.thread_debug) prepare_park_traces();
  threads_.set_waker([](void* sleep) { static_cast<Sleep*>(sleep)->announce(); }, &sleep_);
  threads_.set_workers(config_.resolved_workers());
  init_barrier_mode(config_.barrier);
  origin_ns_ = monotonic_ns();
  // Before the workers start: the calibration briefly makes this thread a worker of its own.
  // A profiled runtime counts its spawns (Config::counts_spawns()): calibrated on such a stack.
  if (profiled()) frame_cost_ns_ = ::weft::detail::frame_cost_ns(true);  // not the accessor
  if (config_.loops == LoopScheme::kDlist) {
    loop_queue_ = std::make_unique<DlistQueue>();
  } else {
    loop_queue_ = std::make_unique<PcbQueue>();
  }
  const unsigned n = config_.resolved_workers();
  workers_.reserve(n);
  for (unsigned i = 0; i < n; ++i) {
    workers_.push_back(std::make_unique<Worker>(*this, static_cast<std::int32_t>(i), config_));
  }
  const std::vector<int> allowed = platform::allowed_cpus();
  const WorkerCpus where = worker_cpus(config_.pin, n, allowed);
  pinned_ = where.bound;
  busy_limit_.set_limit(busy_limit_for(config_.busy_limit, n, allowed.size()));
  try {
    for (unsigned i = 0; i < n; ++i) workers_[i]->start(where.cpus[i]);
  } catch (...) {
    shutdown_.store(true, std::memory_order_seq_cst);
    sleep_.wake_all();
    for (auto& w : workers_) w->join_thread();
    throw;
  }
}

Pool::~Pool() {
  if (forked_away()) {
    // Only the forking thread was copied into this child: there is nobody to wake or join,
    // and the copied locks and words may be in any state. Free the memory and go.
    for (auto& w : workers_) w->abandon_thread();
    return;
  }
  // Detached threads may still run (or wait for each other): the workers finish them first.
  while (thread_store_.live() > 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  shutdown_.store(true, std::memory_order_seq_cst);
  sleep_.wake_all();  // after shutdown_ is visible (fatal if lost)
  for (auto& w : workers_) w->join_thread();
}

bool Pool::forked_away() const noexcept { return platform::fork_generation() != fork_generation_; }

void Pool::submit_and_wait(RootJob& job) {
  if (forked_away()) {
    throw std::logic_error(
        "weft::Runtime::run: this runtime was made before fork(), and its worker threads "
        "exist only in the parent process; make a new Runtime in the child");
  }
  // A worker of another runtime waits here without helping; record that, refusing a cycle.
  WorkerCore* caller = current_worker();
  std::optional<NestedRunEdge> edge;
  if (on_worker() && caller->pool != nullptr) edge.emplace(caller->pool, this);
  {
    std::lock_guard lock(roots_mutex_);
    roots_.push_back(&job);
  }
  pending_roots_.fetch_add(1, std::memory_order_seq_cst);
  active_runs_.fetch_add(1, std::memory_order_seq_cst);
  // After the job is visible (fatal if lost): the root's taker and a thief for its first
  // spawn.
  sleep_.wake(2);
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
  const std::uint32_t ticket = sleep_.ticket();  // before the checks (sleep.hpp)
  if (shutting_down() || pending_roots_.load(std::memory_order_seq_cst) > 0 ||
      threads_.has_ready_seq_cst()) {
    return true;
  }
  // Live threads keep a run active: their spawns wake nobody, so the watchman must nap.
  const bool run_active =
      active_runs_.load(std::memory_order_seq_cst) > 0 || thread_store_.live() > 0;
  // A parked thread's deadline is a wake-up nobody else will send: the watchman's nap
  // ends by it (one watchman naps whenever workers sleep during a run, sleep.hpp).
  const bool woken = sleep_.wait(ticket, timers_.bound_nap(nap), watching, run_active);
  timers_.expire();
  if (!woken && watching) deadlock_watch_.look(*this);
  return woken;
}

}  // namespace weft::detail
