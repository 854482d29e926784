// A user-level thread's control block, and the store that makes and recycles them.
//
// Life of a UThread:
//   made      ThreadStore::make: a pooled block (or a new one), a stack from the stack pool,
//             the fiber prepared to run thread_main; two references (the weft::thread handle
//             and the running fiber).
//   ready / running / blocked, as the scheduler moves it (thread_scheduler.hpp).
//   done      its body returned or threw; the joiner, if one waits, is woken. The fiber then
//             switches to its worker's own stack for good, and that worker gives the stack
//             back to the pool and drops the fiber's reference (worker_switch.cpp).
//   recycled  when both references are gone: back in a free list, the worker's own or the
//             store's.
//
// Blocks are never freed while the Pool lives (UT1): a thief that read a thread's task stack
// from a worker's running_core or from the stealable list may claim from it after the
// thread ended and its block was reused; the stack is still a valid task stack and the claim
// protocol decides, as for any stack. The task stack always uses the concurrent mechanism:
// a parked thread cannot answer a steal request, and its unstarted tasks must stay
// stealable.
//
// A worker's own free lists (UT2) are touched only by the OS thread running that worker, and
// only inside make, release_stack and unref, which never switch fibers (FL1 in
// worker_free_list.hpp); a block's reuse still waits for both references (the acq_rel
// decrement), whichever list it goes to. The shared lists take what a worker's own lists
// spill and refill them, half a list at a time, so a worker that makes threads another
// ends still takes the store's lock once in 16 threads, not once a thread.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <vector>

#include "platform/exception_state.hpp"
#include "platform/fiber_context.hpp"
#include "platform/fiber_stack.hpp"
#include "threads/worker_free_list.hpp"
#include "weft/detail/task_stack.hpp"
#include "weft/detail/thread_core.hpp"
#include "weft/detail/worker_core.hpp"

namespace weft::detail {

class Pool;

struct UThread {
  enum class State : std::uint8_t { kReady, kRunning, kBlocked, kDone };

  platform::ExecutionContext context;
  // The exceptions its code is handling, kept while it is off a worker (exception_state.hpp).
  platform::ExceptionState exceptions;
  platform::FiberStack stack;
  bool pooled_stack = false;  // from the store's pool (the default size), else mapped alone
  // Its task stack and counters: what tls_worker points to while it runs.
  WorkerCore core;
  Pool* pool = nullptr;
  std::unique_ptr<ThreadBody> body;
  std::exception_ptr error;  // what the body threw; read by the joiner after kDone
  std::uint64_t number = 0;  // 1, 2, ... in creation order (thread::id)
  // The handle and the fiber; the block is recycled when both are gone (acq_rel decrement).
  std::atomic<int> refs{0};

  // Guards `finished`, `joiner` and `detached` (the join handshake).
  WaitList join_list;
  bool finished = false;
  bool detached = false;

  // Owned by the scheduler: under its lock, except that dfd writes `state` without it
  // (relaxed: it is only read for reports) and reads `ever_stealable`, which only the
  // thread's own parks set, to skip the lock at its end. kDone until the scheduler first
  // adds it, so a report that walks the store's blocks skips one still being made.
  std::atomic<State> state{State::kDone};
  UThread* prev = nullptr;
  UThread* next = nullptr;
  std::uint64_t order_label = 0;  // df: its place in the depth-first order (df_order.hpp)
  bool ever_stealable = false;
  bool stealable_listed = false;
  UThread* stealable_next = nullptr;

  // Net bytes allocated through weft::allocate since the thread was last scheduled (the df
  // and dfd quota); written by the thread, reset by its worker before each switch to it.
  std::int64_t quota_used = 0;
  // A dummy of a large allocation (heap_accounting.cpp): it stands for K of the bytes, so
  // under dfd its end spends its worker's quota. Set by the dummy itself as it starts.
  bool stands_for_quota = false;
  // For reports (thread_report.hpp): the node it is parked on, nullptr while it runs or waits
  // on a stolen task. Written by the thread itself before it parks and cleared when it
  // resumes; read under the scheduler's lock only while it is kBlocked, when the node, on
  // its stack, cannot go away (a waker must take that lock to make it ready).
  const WaitNode* parked_on = nullptr;
  // Config::thread_debug: where it last parked on a wait list, as backtrace() gave it.
  static constexpr int kParkTraceFrames = 24;
  void* park_trace[kParkTraceFrames] = {};
  int park_trace_depth = 0;

  // The counters of `core` already added to the workers that ran it.
  std::uint64_t folded_spawns = 0;
  std::uint64_t folded_overflow_spawns = 0;
  std::uint64_t folded_stolen_joins = 0;
  std::uint64_t folded_inline_loops = 0;
};

// Makes, recycles and keeps every UThread of one Pool (UT1). Each worker keeps a few free
// blocks and default-size stacks of its own (worker_free_list.hpp), so that making and
// ending a thread takes no lock while they last (UT2); the calls take the worker they run on,
// or kNoWorker off the pool's workers, which go to the shared lists under their locks.
class ThreadStore {
 public:
  static constexpr int kNoWorker = -1;

  ThreadStore(Pool& pool, std::size_t default_stack_bytes, std::size_t workers);
  ~ThreadStore();
  ThreadStore(const ThreadStore&) = delete;
  ThreadStore& operator=(const ThreadStore&) = delete;

  // A thread ready to be first switched to; stack_bytes 0 takes the default. Throws what the
  // stack mapping throws (std::system_error naming vm.max_map_count).
  UThread* make(std::unique_ptr<ThreadBody> body, std::size_t stack_bytes, int worker);
  // The fiber has ended for good: its stack goes back (called on a worker's own stack).
  void release_stack(UThread& t, int worker) noexcept;
  // Drops one reference; the last one recycles the block.
  void unref(UThread& t, int worker) noexcept;

  std::size_t default_stack_bytes() const noexcept { return default_stacks_.usable_bytes(); }
  // Every block made so far, ended or not (UT1): for reports, which skip the kDone ones.
  std::vector<UThread*> blocks();
  // Threads made and not yet ended, and their high-water mark (relaxed readings).
  std::size_t live() const noexcept { return live_.load(std::memory_order_acquire); }
  std::size_t max_live() const noexcept { return max_live_.load(std::memory_order_relaxed); }
  std::uint64_t made() const noexcept { return made_.load(std::memory_order_relaxed); }
  // Restarts the high-water mark at the live count (a race with a thread being made loses
  // at most that thread from the mark).
  void reset_max_live() noexcept {
    max_live_.store(live_.load(std::memory_order_relaxed), std::memory_order_relaxed);
  }
  std::size_t stack_bytes_live() const noexcept {
    return stack_bytes_live_.load(std::memory_order_relaxed);
  }
  // Idle stacks in the shared pool and in the workers' own lists.
  std::size_t stack_bytes_pooled() const noexcept;

 private:
  static constexpr std::size_t kOwnListCapacity = 32;
  struct alignas(kFalseSharingRange) OwnLists {
    WorkerFreeList<platform::FiberStack, kOwnListCapacity> stacks;
    WorkerFreeList<UThread*, kOwnListCapacity> blocks;
  };

  platform::FiberStack acquire_default_stack(int worker);
  UThread* reuse_block(int worker) noexcept;
  void recycle_block(UThread& t, int worker) noexcept;

  Pool& pool_;
  platform::FiberStackPool default_stacks_;
  std::unique_ptr<OwnLists[]> own_;  // one per worker
  std::size_t workers_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<UThread>> all_;  // guarded by mutex_; never shrinks (UT1)
  std::vector<UThread*> free_;                 // guarded by mutex_
  std::atomic<std::size_t> live_{0};
  std::atomic<std::size_t> max_live_{0};
  std::atomic<std::uint64_t> made_{0};
  std::atomic<std::size_t> stack_bytes_live_{0};
};

// The first function a thread's fiber runs (worker_switch.cpp).
void thread_main(platform::ExecutionContext& self, void* data);

// A thread's exception was lost: it left the thread after (or before) it was detached.
[[noreturn]] void exception_left_detached(const UThread& t) noexcept;

}  // namespace weft::detail
