// Worker's methods as a thief (its loop and waits are in worker.cpp, its switches to threads
// in threads/worker_switch.cpp). A worker as a thief, and as the victim of the request mechanism:
// choosing a victim, one steal attempt under either mechanism, running a multi-task claim, and
// answering requests.
//
// Under the concurrent mechanism the claim itself is StealSide::steal (tasks/steal_side.cpp);
// under the request mechanism the thief posts a request and waits here, and the victim's
// side is StealSide::serve_request (tasks/steal_side_requests.cpp, invariants RQ1-RQ5). Either way
// a successful steal ends in the same run_claim.
//
// The wait for an answer is bounded (Config::request_timeout_us): a victim in a long
// stretch without spawns, joins or weft::poll() cannot hold a thief. While it waits, the
// thief answers requests posted to itself, so two workers requesting from each other both
// get an answer.
#include <sched.h>

#include "core/pool.hpp"
#include "core/worker.hpp"
#include "model/steal_amount.hpp"

namespace weft::detail {

namespace {

// A stolen task re-pushed on the thief's own stack so that other thieves may steal it again
// ("the threads can be restolen"). Running it runs the original task in the victim's slot.
struct ProxyTask {
  Slot* target;
  WorkerCore* owner;  // the core whose stack `target` is in
  void operator()() const noexcept { run_stolen(target, owner); }
};
static_assert(kFitsInSlot<ProxyTask>);

// How often a waiting thief reads the clock: a clock read costs about as much as 20 pauses.
constexpr unsigned kSpinsPerClockRead = 32;
// After this many pauses (a few microseconds) a waiting thief yields its core between looks.
constexpr unsigned kSpinsBeforeYield = 256;

}  // namespace

void serve_steal_requests(WorkerCore* w) noexcept {
  // Only a pool worker's stack can carry a request flag (thieves post to pool workers only;
  // the serial worker and the calibration stack never see one), so w is a Worker.
  w->runner->serve_requests();
}

void offer_work(WorkerCore* w) noexcept {
  if (w == &g_serial_worker) return;
  w->runner->offer_work(w->stack);
}

bool settle_pop(WorkerCore* w, Slot* s) noexcept {
  if (!w->stack.request_mode())
    return StealSide(w->stack).pop_contended(s);  // also the serial worker
  // The pop's check failed: a request flag, or the slot was handed out. Answer a pending
  // request first (T is already below s, so s is not handed out now), then decide from H.
  if (w->stack.request_flagged_at_join()) w->runner->serve_requests();
  return StealSide(w->stack).pop_owned(s);
}

void Worker::serve_requests() noexcept {
  // Switch time is the answering of a request, so the profile charges it only once a request
  // is taken: clearing the flags a withdrawn request left up is three stores and stays in
  // the current activity, and a worker's switch time always comes with requests served or
  // steals made.
  StealRequest* const req = StealSide(stack).take_request();
  if (req == nullptr) return;
  const Activity prev = clock_.enter(Activity::kSwitch);
  StealSide(stack).answer_request(req, pool_.policy());
  requests_served.bump();
  clock_.enter(prev);
}

void Worker::offer_work(const TaskStack& stack) noexcept {
  if (!pool_.has_sleepers()) return;  // the common case: one relaxed load
  // Two or more: with one task left the owner is about to run it itself. Ask the policy, so
  // that a sleeper is not woken to fail its steal (fixed:D with fewer than D waiting).
  const Index n = stack.available();
  if (n >= 2 && steal_amount(pool_.policy(), n, 0.0) > 0) pool_.notify_work();
}

bool Worker::steal_random() noexcept {
  const unsigned p = pool_.size();
  if (p < 2) return false;
  unsigned victim = rng_.below(p - 1);
  if (victim >= static_cast<unsigned>(id)) ++victim;  // uniform over the others
  return steal_from(pool_.worker(victim));
}

bool Worker::steal_from(Worker& victim) noexcept {
  WorkerCore* const running = victim.running_core();
  if (steal_from_core(*running)) return true;
  // The victim runs a thread: its own stack may hold tasks too (a task waiting on a weft
  // primitive runs threads meanwhile).
  return running != &victim && steal_from_core(victim);
}

bool Worker::steal_parked() noexcept {
  WorkerCore* const core = pool_.threads().stealable_core();
  return core != nullptr && steal_from_core(*core);
}

bool Worker::steal_for_waiter() noexcept {
  if (WorkerCore* core = pool_.threads().stealable_core();
      core != nullptr && steal_from_core(*core, /*as_thread=*/true)) {
    return true;
  }
  const unsigned p = pool_.size();
  if (p < 2) return false;
  unsigned victim = rng_.below(p - 1);
  if (victim >= static_cast<unsigned>(id)) ++victim;
  return steal_from_core(*pool_.worker(victim).running_core(), /*as_thread=*/true);
}

bool Worker::wait_step_on_threads(unsigned spins) noexcept {
  pool_.timers().expire();  // a waiting worker fires deadlines as an idle one does
  if (UThread* t = pool_.threads().take(id)) {
    run_thread(t);
    return true;
  }
  return spins >= 16 && steal_for_waiter();  // the claim is a thread now: run it next
}

bool Worker::steal_from_core(WorkerCore& victim, bool as_thread) noexcept {
  const Activity prev = clock_.enter(Activity::kSteal);
  // Each attempt is counted once, by its outcome (steals or failed_steals; the attempts are
  // their sum), so no reading can see an attempt without its outcome or the other way round.
  const std::uint64_t started = track_history_ ? monotonic_ns() : 0;
  // The n this attempt sees, for the histogram: one more relaxed look, on the steal path only.
  // Counted next to the outcome, so a reset rarely falls between the two.
  const std::size_t seen = steal_size_bucket(victim.stack.available());
  // A thread's stack is always concurrent (uthread.hpp), whatever the pool's mechanism.
  const Claim claim =
      victim.stack.request_mode()
          ? request_from(victim, started)
          : StealSide(victim.stack)
                .steal(pool_.policy(), id, nullptr, history_.task_work_per_cost(started));
  if (!claim) {
    failed_steals.bump();
    steal_sizes_seen[seen].bump();
    clock_.enter(prev);
    return false;
  }
  const std::uint64_t claimed = track_history_ ? monotonic_ns() : 0;
  if (track_history_) history_.begin(claimed, claim.count, claimed - started);
  clock_.steal_succeeded(victim.id, claim.count);  // now kSwitch: the hand-over
  steals.bump();
  steal_sizes_seen[seen].bump();
  tasks_stolen.add(static_cast<std::uint64_t>(claim.count));
  if (claim.fenced) fenced_steals.bump();
  max_steal_stack_bytes.raise_to(
      static_cast<std::uint64_t>(stack_base_ - platform::stack_pointer()),
      stats_epoch_.load(std::memory_order_relaxed));
  // Work left behind (on the victim, or as proxies on our stack) wakes a sleeper; so does
  // leaving the watchman's role or finding nobody in it (sleep.hpp).
  pool_.after_steal(watching_, claim.count > 1 || victim.stack.available() > 0);
  set_idle(false);
  // The stolen tasks are not inside any chunk this worker may be running (isolation).
  const LoopWorker::Context context = loops_.clear_context();
  if (as_thread) {
    run_claim_as_thread(claim, &victim);
  } else {
    run_claim(claim, &victim);
  }
  loops_.restore_context(context);
  if (track_history_) history_.record(monotonic_ns() - claimed, claim.count, claimed - started);
  clock_.enter(prev);
  return true;
}

Claim Worker::request_from(WorkerCore& victim, std::uint64_t now_ns) noexcept {
  const double history = history_.task_work_per_cost(now_ns);
  // A cheap look first, as the concurrent thief does. A victim whose head_ carries a flag
  // left by a withdrawn request shows n = 0 here although it may have tasks; it has not
  // polled since, so asking it again now would most likely time out too.
  const Index seen = victim.stack.available();
  if (steal_amount(pool_.policy(), seen, history) == 0) return Claim{};
  request_.task_work_per_steal_cost = history;
  if (!StealSide(victim.stack).post_request(&request_)) return Claim{};  // another thief is there
  const std::uint64_t deadline = monotonic_ns() + request_timeout_ns_;
  unsigned spins = 0;
  std::uint32_t state;
  // acquire: pairs with the victim's release of its answer (RQ5).
  while ((state = request_.state.load(std::memory_order_acquire)) == StealRequest::kWaiting) {
    if (stack.request_flagged()) serve_requests();  // someone waits on us meanwhile
    // A victim answers within a microsecond unless it is in a long stretch without polls or
    // is not running at all: with more threads than cores it may be waiting for our core.
    if (spins < kSpinsBeforeYield) {
      platform::cpu_relax();
    } else {
      sched_yield();
    }
    if (++spins % kSpinsPerClockRead == 0 && monotonic_ns() > deadline &&
        StealSide(victim.stack).withdraw_request(&request_)) {
      StealSide(victim.stack).end_request();
      request_timeouts.bump();
      return Claim{};
    }
    // A failed withdrawal means the victim took the request up: its answer is on the way.
  }
  StealSide(victim.stack).end_request();
  return state == StealRequest::kGranted ? request_.claim : Claim{};
}

void Worker::run_stolen_timed(Slot* s, WorkerCore* owner) noexcept {
  clock_.enter(Activity::kTask);
  run_stolen(s, owner);
  clock_.enter(Activity::kSwitch);
}

void Worker::run_claim(Claim claim, WorkerCore* owner) noexcept {
  Slot* const first = claim.first;
  const Index k = claim.count;
  // Re-push all but the newest claimed task, oldest first, so the oldest (in a recursive
  // program, the largest) sit at the bottom of our stack where other thieves take first.
  Index base = 0;
  Index pushed = 0;
  for (Index i = 0; i + 1 < k; ++i) {
    Slot* s = stack.top();
    if (stack.full(s)) break;  // our stack is full: run the rest directly below
    if (i == 0) base = stack.index_of(s);
    ::new (static_cast<void*>(s->storage)) ProxyTask{first + i, owner};
    s->exec = &exec_closure<ProxyTask, void>;
    stack.publish(s);
    ++pushed;
  }
  // Newest first, as the victim would have run them.
  for (Index i = k - 1; i >= pushed; --i) run_stolen_timed(first + i, owner);
  for (Index i = pushed - 1; i >= 0; --i) {
    Slot* proxy = stack.slot_at(base + i);
    if (stack.pop(proxy) || detail::settle_pop(this, proxy)) {
      const ProxyTask task = *proxy->as<ProxyTask>();  // read before the slot is reused
      run_stolen_timed(task.target, task.owner);
    } else {
      // Another thief took the proxy: its outcome is always a value (proxies never throw).
      (void)wait_for_stolen(proxy);
      proxy->as<Unit>()->~Unit();
      stack.release_stolen(proxy);
    }
  }
}

}  // namespace weft::detail
