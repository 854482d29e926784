// Runtime: the public face of a Pool.
#include "weft/runtime.hpp"

#include <iostream>
#include <mutex>

#include "core/pool.hpp"
#include "tasks/barrier_mode.hpp"
#include "threads/thread_report.hpp"

namespace weft {

Runtime::Runtime(Config config) : pool_(std::make_unique<detail::Pool>(config)) {}

Runtime::~Runtime() = default;

void Runtime::submit_and_wait(detail::RootJob& job) { pool_->submit_and_wait(job); }

unsigned Runtime::workers() const noexcept { return pool_->size(); }

const Config& Runtime::config() const noexcept { return pool_->config(); }

bool Runtime::workers_pinned() const noexcept { return pool_->pinned(); }
unsigned Runtime::busy_limit() const noexcept { return pool_->busy_limit(); }

Stats Runtime::stats() const {
  std::lock_guard lock(pool_->stats_mutex());
  Stats s;
  s.profiled = pool_->profiled();
  s.spawns_counted = pool_->config().counts_spawns();
  s.frame_cost_ns = pool_->frame_cost_ns();
  if (pool_->config().mechanism == StealMechanism::kConcurrent &&
      detail::barrier_mode() == detail::BarrierMode::kMembarrier) {
    s.membarrier_ns = detail::membarrier_cost_ns();
  }
  s.per_worker.reserve(pool_->size());
  for (unsigned i = 0; i < pool_->size(); ++i) {
    s.per_worker.push_back(pool_->worker(i).snapshot(s.frame_cost_ns));
    s.total += s.per_worker.back();
  }
  s.threads = pool_->thread_stats();
  return s;
}

Trace Runtime::trace() const {
  Trace t;
  t.origin_ns = pool_->origin_ns();
  for (unsigned i = 0; i < pool_->size(); ++i) t.workers.push_back(pool_->worker(i).trace());
  return t;
}

void Runtime::dump_threads() const { dump_threads(std::cerr); }

void Runtime::dump_threads(std::ostream& out) const {
  const detail::ThreadReport report = detail::take_thread_report(*pool_);
  out << "weft: " << report.threads.size() << " live thread"
      << (report.threads.size() == 1 ? "" : "s") << ", " << report.tasks.size() << " task"
      << (report.tasks.size() == 1 ? "" : "s") << " waiting on weft primitives\n";
  detail::write_thread_report(report, out, /*blocked_only=*/false);
  out.flush();
}

void Runtime::reset_stats() {
  std::lock_guard lock(pool_->stats_mutex());
  for (unsigned i = 0; i < pool_->size(); ++i) pool_->worker(i).reset_counters();
  pool_->reset_thread_stats();
}

}  // namespace weft
