// weft::thread's out-of-line half: start, join, detach, yield, numbers.
#include <cstdio>
#include <cstdlib>
#include <exception>

#include "core/pool.hpp"
#include "core/threads/thread_runner.hpp"
#include "core/threads/uthread.hpp"
#include "weft/detail/thread_core.hpp"

namespace weft::detail {

UThread* start_thread(std::unique_ptr<ThreadBody> body, std::size_t stack_bytes) {
  (void)sync_caller("weft::thread's constructor");
  WorkerCore* const core = fresh_current_core();
  Pool& pool = core->runner->home_pool();
  UThread* const t = pool.thread_store().make(std::move(body), stack_bytes);
  if (pool.threads().add_new(t, core->thread)) {
    // df: the child runs at once, here; we wait ready beside it.
    switch_to_worker(Worker::AfterSwitch{.kind = Worker::AfterSwitch::kRunChild, .child = t});
  }
  return t;
}

void join_thread(UThread* t) {
  (void)sync_caller("weft::thread::join");
  if (fresh_current_core()->thread == t) thread_misuse("a weft::thread joined itself");
  t->join_list.lock();
  if (!t->finished) {
    WaitNode node;
    node.waits_on = t;
    t->join_list.push_back(node);
    t->join_list.block(node);
  } else {
    t->join_list.unlock();
  }
  // The thread has finished; its error is ours alone now.
  std::exception_ptr error = std::move(t->error);
  t->error = nullptr;
  t->pool->thread_store().unref(*t);
  if (error) std::rethrow_exception(error);
}

void detach_thread(UThread* t) noexcept {
  t->join_list.lock();
  t->detached = true;
  const bool failed = t->finished && t->error;
  t->join_list.unlock();
  if (failed) {
    std::fprintf(stderr, "weft: an exception left thread %llu, which was then detached\n",
                 static_cast<unsigned long long>(t->number));
    std::fflush(stderr);
    std::abort();
  }
  t->pool->thread_store().unref(*t);
}

std::uint64_t thread_number(const UThread* t) noexcept { return t->number; }

std::uint64_t current_thread_number() noexcept {
  const UThread* const t = fresh_current_core()->thread;
  return t != nullptr ? t->number : 0;
}

void yield_thread() noexcept {
  if (fresh_current_core()->thread == nullptr) return;  // a task: nothing to yield to
  switch_to_worker(Worker::AfterSwitch{.kind = Worker::AfterSwitch::kYield});
}

}  // namespace weft::detail
