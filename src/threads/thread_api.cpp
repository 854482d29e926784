// weft::thread's out-of-line half: start, join, detach, yield, numbers.
#include <cstdio>
#include <cstdlib>
#include <exception>

#include "core/pool.hpp"
#include "threads/uthread.hpp"
#include "threads/worker_switch.hpp"
#include "weft/detail/thread_core.hpp"

namespace weft::detail {

namespace {
// The worker of `pool` running the caller, for its own free lists (UT2); kNoWorker elsewhere
// (a worker of another runtime, or no worker at all).
int own_worker(const Pool& pool) noexcept {
  Worker* const w = current_worker_uncached()->runner;
  return w != nullptr && &w->home_pool() == &pool ? w->id : ThreadStore::kNoWorker;
}
}  // namespace

UThread* start_thread(std::unique_ptr<ThreadBody> body, std::size_t stack_bytes) {
  (void)sync_caller("weft::thread's constructor");
  WorkerCore* const core = current_worker_uncached();
  Pool& pool = core->runner->home_pool();
  UThread* const t = pool.thread_store().make(std::move(body), stack_bytes, core->runner->id);
  if (pool.threads().add_new(t, core->thread)) {
    // df: the child runs at once, here; we wait ready beside it.
    switch_to_worker(Worker::AfterSwitch{.kind = Worker::AfterSwitch::kRunChild, .child = t});
  }
  return t;
}

void join_thread(UThread* t) {
  (void)sync_caller("weft::thread::join");
  if (current_worker_uncached()->thread == t) thread_misuse("a weft::thread joined itself");
  t->join_list.lock();
  if (!t->finished) {
    WaitNode node;
    node.waits_on = t;
    node.kind = WaitKind::kJoin;
    t->join_list.push_back(node);
    t->join_list.block(node);
  } else {
    t->join_list.unlock();
  }
  // The thread has finished; its error is ours alone now.
  std::exception_ptr error = std::move(t->error);
  t->error = nullptr;
  t->pool->thread_store().unref(*t, own_worker(*t->pool));
  if (error) std::rethrow_exception(error);
}

void detach_thread(UThread* t) noexcept {
  t->join_list.lock();
  t->detached = true;
  const bool failed = t->finished && t->error;
  t->join_list.unlock();
  if (failed) exception_left_detached(*t);
  t->pool->thread_store().unref(*t, own_worker(*t->pool));
}

std::uint64_t thread_number(const UThread* t) noexcept { return t->number; }

std::uint64_t current_thread_number() noexcept {
  const UThread* const t = current_worker_uncached()->thread;
  return t != nullptr ? t->number : 0;
}

void yield_thread() noexcept {
  yield_directly();  // a task has nothing to yield to: it returns at once
}

}  // namespace weft::detail
