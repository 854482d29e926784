// Worker's scheduling loop, multi-task steals, and the join of a stolen task (its methods as a
// thief are in worker_thief.cpp, its switches to user-level threads in
// threads/worker_switch.cpp).
//
// Join and its bound (docs/TASK_STACK.md has the argument in full). A worker whose join
// finds its task stolen never sleeps: it polls the slot and meanwhile helps, first by
// stealing from the worker that took its task (leapfrogging: that worker's stack holds the
// task's descendants), then from random victims. Helping nests: a helped task may itself
// wait and help. Every help starts only while the worker's stack use is below
// help_limit_bytes_, and a task started then uses at most what its serial execution would,
// so a worker's stack never exceeds help_limit_bytes_ + S_task, where S_task is the stack
// one task needs run serially. Beyond the limit the worker only spins and yields; the
// awaited task is running on another worker, so this cannot deadlock (a waiting frame always
// waits on a task started later than itself, and start times cannot form a cycle).
#include "core/worker.hpp"

#include <sched.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <system_error>

#include "core/pool.hpp"
#include "model/config_fields.hpp"
#include "platform/cpu_clock.hpp"
#include "platform/guard_fault.hpp"
#include "platform/noipa.hpp"
#include "threads/worker_switch.hpp"

namespace weft::detail {

WorkerCore g_serial_worker{TaskStack::SerialTag{}};

__thread WorkerCore* tls_worker __attribute__((tls_model(WEFT_TLS_MODEL))) = &g_serial_worker;

WEFT_NOIPA WorkerCore* current_worker_uncached() noexcept { return tls_worker; }

void run_stolen(Slot* s, WorkerCore* owner) noexcept {
  const Outcome outcome = s->exec(s);
  // release: the result constructed in the slot happens-before the owner's acquire load.
  // acquire: a parked owner's writes before it parked happen-before our wake-up of it.
  const std::uint32_t before =
      s->state.exchange(static_cast<std::uint32_t>(outcome), std::memory_order_acq_rel);
  if (before == kOwnerParked) wake_slot_owner(owner);
}

Outcome wait_for_stolen(WorkerCore* w, Slot* s) noexcept {
  w->stolen_joins.bump();
  if (w->thread != nullptr) return park_on_stolen(s);  // a thread parks, never helps
  return w->runner->wait_for_stolen(s);
}

Worker::Worker(Pool& pool, std::int32_t worker_id, const Config& config)
    : pool_(pool),
      rng_(config.seed ^ platform::Rng::mix(static_cast<std::uint64_t>(worker_id))),
      request_timeout_ns_(std::uint64_t{config.request_timeout_us} * 1000),
      track_history_(config.steal.reads_thief_history()),
      stack_bytes_(config.worker_stack_bytes),
      help_limit_bytes_(static_cast<std::size_t>(static_cast<double>(config.worker_stack_bytes) *
                                                 config.help_stack_fraction)),
      loops_(*this, pool) {
  id = worker_id;
  runner = this;
  request_.thief_id = worker_id;
  this->pool = &pool;
  stack.init(static_cast<Index>(config.resolved_task_slots()), config.mechanism,
             config.barrier == Barrier::kAuto, config.counts_spawns());
  if (config.adaptive_fork == AdaptiveFork::kOn && config.loops != LoopScheme::kSplit) {
    loop_idle = &pool.idle_counter();
  }
  if (config.profile || config.trace_events > 0) {
    clock_.enable(config.trace_events);
    profile_base_ = clock_.read();
  }
}

void Worker::start(const std::vector<int>& cpus) {
  try {
    thread_.start(stack_bytes_, cpus, [this] { main_loop(); });
  } catch (const std::system_error& e) {
    // Most often the stack cannot be reserved: say how large it was and where it was set.
    throw std::system_error(e.code(), "weft: could not start a worker thread with a " +
                                          bytes_text(stack_bytes_) + " stack (" +
                                          setting_names(config_field("worker_stack_bytes")) + ")");
  }
}

void Worker::main_loop() noexcept {
  // Where a thread's stack overflow is reported: its own stack is spent by then (GF1 in
  // platform/guard_fault.hpp).
  const platform::AlternateSignalStack signal_stack;
  tls_worker = this;
  stack_base_ = platform::stack_pointer();
  cpu_clock_.store(platform::thread_cpu_clock(), std::memory_order_relaxed);
  home.adopt_thread();
  exceptions = platform::thread_exception_state();
  IdleBackoff backoff(pool_.size(), std::chrono::microseconds(pool_.config().idle_awake_us));
  while (!pool_.shutting_down()) {
    // Our stack is empty here: a pending request gets its refusal now, not a timeout.
    if (stack.request_flagged()) serve_requests();
    pool_.timers().expire();  // one relaxed load while no thread waits with a deadline
    if (UThread* t = pool_.threads().take(id)) {
      set_idle(false);
      pool_.stop_watching(watching_);
      run_thread(t);
      backoff.reset();
      continue;
    }
    if (RootJob* job = pool_.take_root()) {
      set_idle(false);
      pool_.stop_watching(watching_);  // not through a long root
      const Activity prev = clock_.enter(Activity::kTask);
      job->execute();
      clock_.enter(prev);
      pool_.finish_root(*job);
      backoff.reset();
      continue;
    }
    // More workers than the busy limit (the CPUs, by default) and that many others busy: a
    // steal now would spread the work over more threads than CPUs, which the kernel then
    // time-slices, so sleep; whoever goes idle next steals instead. Not while the limit is
    // lifted: the busy workers left a CPU unused, so some of them are blocked in the kernel
    // (busy_limit.hpp; docs/SLEEP.md, "Oversubscription").
    if (pool_.busy_limit_stops(!counted_idle_)) {
      set_idle(true);
      limit_sleeps.bump();
      backoff.skip_to_sleep();
      idle(backoff);
      continue;
    }
    // Loops first: taking a chunk is one atomic, a steal a barrier.
    // each counts us busy as it takes work
    if (loops_.help(watching_) || steal_random() || steal_parked()) {
      backoff.reset();
      continue;
    }
    set_idle(true);
    idle(backoff);
  }
  set_idle(false);
  tls_worker = &g_serial_worker;
}

std::uint64_t Worker::cpu_ns() const noexcept {
  return platform::cpu_clock_ns(cpu_clock_.load(std::memory_order_relaxed));
}

void Worker::set_idle(bool idle) noexcept {
  if (idle == counted_idle_) return;
  counted_idle_ = idle;
  pool_.add_idle(idle ? 1 : -1);
}

void Worker::idle(IdleBackoff& backoff) noexcept {
  switch (backoff.failed()) {
    case IdleStep::kSpin: platform::cpu_relax(); break;
    case IdleStep::kYield:
      sched_yield();
      // A pool whose idle workers stay awake (Config::idle_awake_us) has no watchman for
      // that long: they look for a deadlock themselves (DW1 in deadlock_watch.hpp).
      if (++idle_yields_ % kYieldsPerLook == 0) pool_.deadlock_watch().look(pool_);
      break;
    case IdleStep::kSleep:
      if (stack.request_flagged()) serve_requests();  // not while we sleep
      parks.bump();
      // Woken (a run started, a thief left work behind, the watchman's role is free): look
      // around eagerly again instead of carrying the long nap of the previous idle spell
      // into the new work.
      if (pool_.sleep(backoff.next_nap(), watching_)) backoff.reset();
      break;
  }
}

Outcome Worker::wait_for_stolen(Slot* s) noexcept {
  const std::int32_t thief = s->thief.load(std::memory_order_relaxed);
  const Activity prev = clock_.enter(Activity::kIdle);
  unsigned rounds = 0;
  for (;;) {
    // acquire: pairs with run_stolen's release; the result in the slot is then visible.
    const std::uint32_t state = s->state.load(std::memory_order_acquire);
    if (state != static_cast<std::uint32_t>(Outcome::kPending)) {
      clock_.enter(prev);
      return static_cast<Outcome>(state);
    }
    if (stack.request_flagged()) serve_requests();  // answer now, not at the thief's timeout
    if (held_mutexes > 0) {
      // A task helped here could lock a mutex we hold, on top of us (rayon #592): wait as a
      // blocked task does (WL3), on threads only.
      if (wait_step_on_threads(rounds)) {
        rounds = 0;
        continue;
      }
    } else if (UThread* t = pool_.threads().take(id)) {
      // Ready threads before tasks, each on its own stack: the task we wait for may be one
      // of them (a waiter elsewhere stole it into a thread), and a worker that only helped
      // with tasks would leave it there while every worker waits.
      run_thread(t);
      rounds = 0;
      continue;
    } else if (may_help()) {
      if (thief >= 0 && thief != id && steal_from(pool_.worker(static_cast<unsigned>(thief)))) {
        leapfrogs.bump();
        rounds = 0;
        continue;
      }
      if (loops_.help(watching_) || steal_random()) {
        rounds = 0;
        continue;
      }
    }
    if (++rounds < kJoinSpinRounds) {
      platform::cpu_relax();
    } else {
      sched_yield();
    }
  }
}

namespace {
// Each counter and the field of WorkerStats it fills: the one list that reading and
// subtracting the baseline go by. (inline_joins and steal_attempts are derived; the maximum
// is an EpochMax.)
struct CountedField {
  Counter Worker::*counter;
  std::uint64_t WorkerStats::*field;
};
struct LoopCountedField {
  Counter LoopCounters::*counter;
  std::uint64_t WorkerStats::*field;
};
constexpr CountedField kCountedFields[] = {
    {&Worker::spawns, &WorkerStats::spawns},
    {&Worker::overflow_spawns, &WorkerStats::overflow_spawns},
    {&Worker::stolen_joins, &WorkerStats::stolen_joins},
    {&Worker::steals, &WorkerStats::steals},
    {&Worker::tasks_stolen, &WorkerStats::tasks_stolen},
    {&Worker::fenced_steals, &WorkerStats::fenced_steals},
    {&Worker::failed_steals, &WorkerStats::failed_steals},
    {&Worker::leapfrogs, &WorkerStats::leapfrogs},
    {&Worker::parks, &WorkerStats::parks},
    {&Worker::limit_sleeps, &WorkerStats::limit_sleeps},
    {&Worker::requests_served, &WorkerStats::requests_served},
    {&Worker::request_timeouts, &WorkerStats::request_timeouts},
};
constexpr LoopCountedField kLoopCountedFields[] = {
    {&LoopCounters::forked, &WorkerStats::loops_forked},
    {&LoopCounters::reused_in_place, &WorkerStats::loops_reused_in_place},
    {&LoopCounters::enqueued, &WorkerStats::loops_enqueued},
    {&LoopCounters::dequeued, &WorkerStats::loops_dequeued},
    {&LoopCounters::misplaced, &WorkerStats::loops_misplaced},
    {&LoopCounters::serial_forks, &WorkerStats::loops_serial},
    {&LoopCounters::owner_chunks, &WorkerStats::owner_chunks},
    {&LoopCounters::helper_chunks, &WorkerStats::helper_chunks},
};
}  // namespace

WorkerStats Worker::raw_counts() const noexcept {
  WorkerStats s;
  for (const CountedField& c : kCountedFields) s.*c.field = (this->*c.counter).get();
  for (const LoopCountedField& c : kLoopCountedFields)
    s.*c.field = (loops_.counters.*c.counter).get();
  s.loops_serial += inline_loops.get();  // adaptive fork's serial loops decided inline
  for (std::size_t b = 0; b < kStealSizeBuckets; ++b)
    s.steal_sizes_seen[b] = steal_sizes_seen[b].get();
  return s;
}

WorkerStats Worker::snapshot(double frame_cost_ns) const noexcept {
  // Each counter only grows, and the baseline was read from it earlier under the same lock,
  // so no difference below can wrap.
  const WorkerStats raw = raw_counts();
  WorkerStats s;
  for (const CountedField& c : kCountedFields) s.*c.field = raw.*c.field - counter_base_.*c.field;
  for (const LoopCountedField& c : kLoopCountedFields) {
    s.*c.field = raw.*c.field - counter_base_.*c.field;
  }
  // Every pushed task is joined exactly once, inline or stolen; exact once run() returned
  // (a task pushed before a reset and joined stolen after it can make this short). Unknown
  // (left 0) where spawns are not counted.
  const std::uint64_t pushed = stack.counting() ? s.spawns - s.overflow_spawns : 0;
  s.inline_joins = pushed >= s.stolen_joins ? pushed - s.stolen_joins : 0;
  s.steal_attempts = s.steals + s.failed_steals;
  for (std::size_t b = 0; b < kStealSizeBuckets; ++b) {
    s.steal_sizes_seen[b] = raw.steal_sizes_seen[b] - counter_base_.steal_sizes_seen[b];
  }
  s.max_steal_stack_bytes = max_steal_stack_bytes.get(stats_epoch_.load(std::memory_order_relaxed));
  if (clock_.enabled()) {
    const ActivityTimes t = clock_.read();
    auto since_reset = [&](Activity a) {
      const int i = static_cast<int>(a);
      return t.ns[i] - profile_base_.ns[i];  // AC2: never below the base
    };
    s.task_ns = since_reset(Activity::kTask);
    s.steal_ns = since_reset(Activity::kSteal);
    s.idle_ns = since_reset(Activity::kIdle);
    s.switch_ns = since_reset(Activity::kSwitch);
    s.window_ns = t.at_ns - profile_base_.at_ns;
    const double frame = static_cast<double>(pushed) * frame_cost_ns;
    s.frame_ns = std::min(s.task_ns, static_cast<std::uint64_t>(frame));
  }
  return s;
}

WorkerTrace Worker::trace() const { return WorkerTrace{clock_.trace(), clock_.trace_dropped()}; }

void Worker::reset_counters() noexcept {
  counter_base_ = raw_counts();
  // relaxed: the worker takes the new epoch whenever it next raises the maximum.
  stats_epoch_.fetch_add(1, std::memory_order_relaxed);
  if (clock_.enabled()) profile_base_ = clock_.read();
}

}  // namespace weft::detail
