// Worker's methods for running user-level threads (and the free functions a thread calls to
// switch), apart from worker.cpp (its loop, idling and waits) and worker_thief.cpp (stealing).
// A worker running user-level threads. The worker's own stack is the hub: it switches to a
// thread, and the thread switches back to it whenever it parks, creates a df child or ends,
// leaving in Worker::after_switch what must happen once it is no longer running (WL1 in
// weft/detail/thread_core.hpp): the wait list's lock released, the thread made ready again,
// its stack given back. A yield alone goes from thread to thread (TR4): it has nothing to do
// on the hub but make the yielder ready, which the next thread can do as well. A thread is
// resumed by whichever worker takes it next.
//
// Invariants:
//   TR1 While a worker runs thread t, tls_worker == &t->core, t->core.runner == the worker,
//       and the worker's running_core == &t->core; on its own stack, both are the worker
//       itself. Code on a fiber reads them afresh after every switch (current_worker_uncached).
//   TR2 A parked thread's scheduler state becomes kBlocked before its wait list is
//       unlocked, so a waker's make_ready always comes after it (the scheduler's lock orders
//       the two).
//   TR3 A thread waiting on a stolen slot parks with a CAS kPending -> kOwnerParked made on
//       its worker's stack after the switch; the thief's exchange of the outcome either
//       comes first (the CAS fails and the worker makes the thread ready) or finds
//       kOwnerParked and makes it ready itself. Exactly one of them does (acq_rel on both).
//   TR4 A yielding thread takes the next ready thread on its own stack (begin_yield, which
//       keeps the scheduler's lock under fifo, lifo and df) and switches straight to it; the
//       taken thread, first thing after the switch, makes the yielder ready (end_yield,
//       which releases the lock). So the yielder becomes takeable only once it is
//       suspended, with its context saved (FC2 in platform/fiber_context.hpp) before the
//       scheduler publishes it, as WL1 wants of the hub. Every place where a thread resumes
//       (switch_to_worker, yield_directly, the start of thread_main) calls
//       arrive_on_thread(); a switch from the hub leaves nothing to finish. A thread that
//       switches to the hub passes itself, since it need not be the one the hub ran.
#include "threads/worker_switch.hpp"

#include <cstdio>
#include <cstdlib>
#include <exception>

#include "core/pool.hpp"
#include "threads/spin_lock.hpp"
#include "threads/uthread.hpp"

namespace weft::detail {

void thread_misuse(const char* message) noexcept {
  std::fprintf(stderr, "weft: %s\n", message);
  std::fflush(stderr);
  std::abort();
}

void exception_left_detached(const UThread& t) noexcept {
  const char* what = "not a std::exception";
  try {
    std::rethrow_exception(t.error);
  } catch (const std::exception& e) {
    what = e.what();
  } catch (...) {
  }
  std::fprintf(stderr, "weft: an exception left detached thread %llu: %s\n",
               static_cast<unsigned long long>(t.number), what);
  std::fflush(stderr);
  std::abort();
}

namespace {
// TR4: whatever a yield that switched to this thread left to do.
void arrive_on_thread() noexcept { current_worker_uncached()->runner->finish_hand_over(); }
}  // namespace

void thread_main(platform::ExecutionContext& /*self*/, void* data) {
  UThread* const t = static_cast<UThread*>(data);
  arrive_on_thread();
  try {
    t->body->run();
  } catch (...) {
    t->error = std::current_exception();
  }
  t->body.reset();  // the closure's destructors run here, on the thread
  t->join_list.lock();
  t->finished = true;
  WaitNode* const joiner = t->join_list.pop_front();
  const bool detached = t->detached;
  t->join_list.unlock();
  if (detached && t->error) exception_left_detached(*t);
  if (joiner != nullptr) wake(joiner);
  // TR1: the worker running us now, which need not be the one that started us.
  Worker* const w = current_worker_uncached()->runner;
  w->after_switch = Worker::AfterSwitch{.kind = Worker::AfterSwitch::kExit};
  t->context.exit_to(w->home, t);
}

void switch_to_worker(Worker::AfterSwitch after) noexcept {
  WorkerCore* const core = current_worker_uncached();
  Worker* const w = core->runner;
  w->after_switch = after;
  (void)core->thread->context.switch_to(w->home, core->thread);
  arrive_on_thread();
}

void yield_directly() noexcept {
  WorkerCore* const core = current_worker_uncached();
  UThread* const t = core->thread;
  if (t == nullptr) return;  // a task
  UThread* const next = core->runner->hand_over_from(*t);
  if (next == nullptr) return;  // nothing else is ready: the yielder runs on
  (void)t->context.switch_to(next->context, next);
  arrive_on_thread();  // perhaps on another worker (TR1)
}

[[gnu::always_inline]] inline void Worker::enter_thread(UThread& t, bool swap_exceptions) noexcept {
  t.core.runner = this;
  t.core.id = id;
  t.quota_used = 0;  // scheduled afresh: a new quota
  tls_worker = &t.core;
  // release: a thief that reads the pointer sees the core's stack as the thread left it.
  running_core_.store(&t.core, std::memory_order_release);
  // The thread's in, ours kept (a yield has done it already, from the thread it left).
  if (swap_exceptions) platform::swap_exception_state(*exceptions, t.exceptions);
}

void Worker::leave_thread(UThread& t) noexcept {
  platform::swap_exception_state(*exceptions, t.exceptions);  // ours back, the thread's kept
  fold_counters(t);
}

UThread* Worker::hand_over_from(UThread& t) noexcept {
  UThread* const next = pool_.threads().begin_yield(id);
  if (next == nullptr) return nullptr;
  // t's counters are folded where it next leaves for a worker's own stack, as every thread
  // does at its end: a yield is too frequent to pay for four folds.
  platform::hand_exception_state(*exceptions, t.exceptions, next->exceptions);
  enter_thread(*next, /*swap_exceptions=*/false);
  handed_over_ = &t;
  return next;
}

void Worker::finish_hand_over() noexcept {
  UThread* const yielder = handed_over_;
  if (yielder == nullptr) return;
  handed_over_ = nullptr;
  pool_.threads().end_yield(yielder, id);
  pool_.timers().expire();  // threads that only yield to each other still fire deadlines
}

void Worker::run_thread(UThread* t) noexcept {
  WorkerCore* const own = tls_worker;  // this worker's core (TR1)
  const Activity prev = clock_.enter(Activity::kTask);
  while (t != nullptr) {
    enter_thread(*t);
    // The thread that switches back need not be t: t may have yielded straight to it (TR4).
    t = static_cast<UThread*>(home.switch_to(t->context, t));
    tls_worker = own;
    running_core_.store(own, std::memory_order_release);
    leave_thread(*t);
    t = finish_switch(t);
    pool_.timers().expire();  // a worker that runs thread after thread still fires deadlines
  }
  clock_.enter(prev);
}

void Worker::fold_counters(UThread& t) noexcept {
  const auto fold = [](Counter& to, const Counter& from, std::uint64_t& folded) {
    const std::uint64_t now = from.get();
    to.add(now - folded);
    folded = now;
  };
  fold(spawns, t.core.spawns, t.folded_spawns);
  fold(overflow_spawns, t.core.overflow_spawns, t.folded_overflow_spawns);
  fold(stolen_joins, t.core.stolen_joins, t.folded_stolen_joins);
  fold(inline_loops, t.core.inline_loops, t.folded_inline_loops);
}

UThread* Worker::finish_switch(UThread* t) noexcept {
  ThreadScheduler& sched = pool_.threads();
  const AfterSwitch a = after_switch;
  switch (a.kind) {
    case AfterSwitch::kPark:
      sched.mark_blocked(t, t->core.stack.available() > 0);  // TR2: before the unlock
      unlock_spinning(*a.unlock);
      return nullptr;
    case AfterSwitch::kParkOnSlot: {
      sched.mark_blocked(t, t->core.stack.available() > 0);
      std::uint32_t expected = static_cast<std::uint32_t>(Outcome::kPending);
      // acq_rel (TR3): publishes the parked state to the thief; failing, sees its outcome.
      if (!a.slot->state.compare_exchange_strong(expected, kOwnerParked, std::memory_order_acq_rel,
                                                 std::memory_order_acquire)) {
        sched.make_ready(t, id);  // the thief finished first
      }
      return nullptr;
    }
    case AfterSwitch::kPreempt: sched.preempt(t, id); return nullptr;  // the memory quota
    case AfterSwitch::kRunChild:
      sched.resume_creator(t, id);  // the creator waits beside its child, ready
      return a.child;
    case AfterSwitch::kExit: {
      sched.remove(t);
      const bool quota_spent = t->stands_for_quota;
      pool_.thread_store().release_stack(*t, id);
      pool_.thread_store().unref(*t, id);
      return quota_spent ? sched.take_after_quota(id) : nullptr;
    }
  }
  return nullptr;
}

void Worker::run_claim_as_thread(Claim claim, WorkerCore* owner) noexcept {
  auto body = [claim, owner] {
    // Newest first, as the victim would have run them.
    for (Index i = claim.count - 1; i >= 0; --i) run_stolen(claim.first + i, owner);
  };
  try {
    UThread* const t = pool_.thread_store().make(
        std::make_unique<ThreadBodyOf<decltype(body)>>(body), stack_bytes_, id);
    t->detached = true;
    pool_.threads().add_new(t, nullptr);
    pool_.thread_store().unref(*t, id);  // nobody joins it: its owner joins the slots
  } catch (...) {
    // No memory for a stack: run the claim here after all (the waiter's risk, not a lost
    // task).
    body();
  }
}

Outcome park_on_stolen(Slot* s) noexcept {
  // A thief usually finishes a small task soon: a short spin saves two switches.
  for (int i = 0; i < 256; ++i) {
    const std::uint32_t state = s->state.load(std::memory_order_acquire);
    if (state != static_cast<std::uint32_t>(Outcome::kPending)) return static_cast<Outcome>(state);
    platform::cpu_relax();
  }
  switch_to_worker(Worker::AfterSwitch{.kind = Worker::AfterSwitch::kParkOnSlot, .slot = s});
  // acquire: pairs with the thief's release of the outcome (TR3).
  return static_cast<Outcome>(s->state.load(std::memory_order_acquire));
}

void wake_slot_owner(WorkerCore* owner) noexcept {
  UThread* const t = owner->thread;
  t->pool->threads().make_ready(t, current_worker_uncached()->id);  // the thief's worker
}

}  // namespace weft::detail
