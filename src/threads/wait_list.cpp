// The wait list every blocking primitive parks its waiters on (protocol WL1-WL3 in
// weft/detail/thread_core.hpp), and the check that weft's primitives run under a runtime.
#include <sched.h>

#include <chrono>

#include "core/pool.hpp"
#include "threads/spin_lock.hpp"
#include "threads/thread_report.hpp"
#include "threads/timers.hpp"
#include "threads/uthread.hpp"
#include "threads/worker_switch.hpp"
#include "weft/detail/thread_core.hpp"

namespace weft::detail {

void WaitList::lock() noexcept { lock_spinning(locked_); }

void WaitList::push_back(WaitNode& node) noexcept {
  node.thread = current_worker_uncached()->thread;  // who wake() must make ready (WL3)
  node.next = nullptr;
  (tail_ != nullptr ? tail_->next : head_) = &node;
  tail_ = &node;
}

WaitNode* WaitList::pop_front() noexcept {
  while (WaitNode* const node = head_) {
    head_ = node->next;
    if (head_ == nullptr) tail_ = nullptr;
    node->next = nullptr;
    if (node->deadline_ns == 0) return node;
    std::uint32_t pending = 0;
    // acq_rel (TW2): against the deadline's claim.
    if (node->claim.compare_exchange_strong(pending, 1, std::memory_order_acq_rel,
                                            std::memory_order_relaxed)) {
      return node;
    }
    // TW1: its deadline won; whoever claimed it wakes it, and we wake the next one.
  }
  return nullptr;
}

void WaitList::remove(WaitNode& node) noexcept {
  WaitNode* prev = nullptr;
  for (WaitNode* n = head_; n != nullptr; prev = n, n = n->next) {
    if (n != &node) continue;
    (prev != nullptr ? prev->next : head_) = n->next;
    if (tail_ == n) tail_ = prev;
    n->next = nullptr;
    return;
  }
}

namespace {

// A task's wait as reports and the deadlock watch see it (task_waits.hpp): registered in its
// worker's slot for the whole wait (TKW1), and quiet while its loop finds nothing to do (TKW2),
// looking for a deadlock now and then meanwhile (DW1 in deadlock_watch.hpp).
class TaskWait {
 public:
  TaskWait(Pool& pool, int worker, const WaitNode& node) noexcept
      : pool_(pool), worker_(worker), previous_(pool.task_waits().begin(worker, &node)) {}
  ~TaskWait() {
    busy();
    pool_.task_waits().end(worker_, previous_);
  }
  TaskWait(const TaskWait&) = delete;
  TaskWait& operator=(const TaskWait&) = delete;

  // The loop found something to run.
  void busy() noexcept {
    if (!quiet_) return;
    quiet_ = false;
    pool_.task_waits().leave_quiet();
  }
  // The loop found nothing and yielded.
  void yielded() noexcept {
    if (!pool_.deadlock_watch().enabled()) return;
    if (!quiet_) {
      quiet_ = true;
      yields_ = 0;
      pool_.task_waits().enter_quiet();
    }
    if (++yields_ % kYieldsPerLook == 0) pool_.deadlock_watch().look(pool_);
  }

 private:
  Pool& pool_;
  const int worker_;
  const WaitNode* const previous_;
  bool quiet_ = false;
  unsigned yields_ = 0;
};

}  // namespace

bool WaitList::block(WaitNode& node) noexcept {
  WorkerCore* const core = current_worker_uncached();
  node.list = this;
  if (UThread* const t = node.thread; t != nullptr) {
    Timers* const timers = node.deadline_ns != 0 ? &t->pool->timers() : nullptr;
    if (timers != nullptr) timers->add(node);  // list lock, then the timers' (TMR2)
    t->parked_on = &node;  // for reports; published by mark_blocked under the scheduler's lock
    if (core->runner->home_pool().config().thread_debug) record_park_trace(*t);
    // WL1: the worker releases the lock once we are off this stack.
    switch_to_worker(Worker::AfterSwitch{.kind = Worker::AfterSwitch::kPark, .unlock = &locked_});
    t->parked_on = nullptr;
    if (timers != nullptr) timers->remove(node);  // TW4
    return !node.timed_out;
  }
  // WL3: a task on its worker's own stack cannot park. It runs ready threads meanwhile, each
  // on its own stack, steals tasks into new threads, and answers steal requests, but never
  // runs a task here.
  unlock();
  Worker* const w = core->runner;
  TaskWait wait(w->home_pool(), w->id, node);
  unsigned spins = 0;
  // acquire: pairs with wake()'s release; what the waker handed over is visible.
  while (!node.signaled.load(std::memory_order_acquire)) {
    if (w->wait_step_on_threads(spins)) {
      wait.busy();
      spins = 0;
      continue;
    }
    if (w->stack.request_flagged()) w->serve_requests();
    if (++spins < 128) {
      platform::cpu_relax();
      continue;
    }
    sched_yield();
    if (node.deadline_ns == 0) {
      wait.yielded();
    } else if (steady_now_ns() >= node.deadline_ns && claim_at_deadline(node)) {
      // A timed wait is never quiet: its deadline will end it, so it is no deadlock.
      return false;
    }
  }
  return true;
}

bool WaitList::claim_at_deadline(WaitNode& node) noexcept {
  std::uint32_t pending = 0;
  // acq_rel (TW2); losing, the notifier's wake is on its way.
  if (!node.claim.compare_exchange_strong(pending, 1, std::memory_order_acq_rel,
                                          std::memory_order_relaxed)) {
    return false;
  }
  lock();
  remove(node);  // TW3
  unlock();
  node.timed_out = true;
  return true;
}

std::int64_t steady_now_ns() noexcept {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void sleep_until_ns(std::int64_t deadline_ns) noexcept {
  (void)sync_caller("weft::this_thread::sleep_until");
  if (steady_now_ns() >= deadline_ns) return;
  WaitList list;  // nobody else knows it: only the deadline ends the wait
  WaitNode node;
  node.kind = WaitKind::kSleep;
  node.deadline_ns = deadline_ns;
  list.lock();
  list.push_back(node);
  (void)list.block(node);
}

void wake(WaitNode* node) noexcept {
  UThread* const t = node->thread;  // read before the waiter may return (WL2)
  if (t != nullptr) {
    t->pool->threads().make_ready(t, current_worker_uncached()->id);
  } else {
    node->signaled.store(true, std::memory_order_release);
  }
}

const void* sync_caller(const char* what) noexcept {
  WorkerCore* const core = sync_core(what);
  return core->thread != nullptr ? static_cast<const void*>(core->thread)
                                 : static_cast<const void*>(core->runner);
}

WorkerCore* sync_core(const char* what) noexcept {
  WorkerCore* const core = current_worker_uncached();
  if (core == &g_serial_worker || core->runner == nullptr) {
    std::fprintf(stderr,
                 "weft: %s called outside a weft runtime; weft's threads and blocking "
                 "primitives work only inside Runtime::run (in its tasks and threads)\n",
                 what);
    std::fflush(stderr);
    std::abort();
  }
  return core;
}

}  // namespace weft::detail
