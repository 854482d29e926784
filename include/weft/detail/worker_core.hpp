// The part of a worker that inline code (spawn and join) touches: its task stack and its
// owner-written counters, reached through a thread-local pointer. Everything else about a
// worker (victim selection, idling, helping) lives in src/core/worker.*.
#pragma once

#include <atomic>
#include <cstdint>

#include "weft/detail/sanitizers.hpp"
#include "weft/detail/task_stack.hpp"

namespace weft::detail {

class Worker;    // src/core/worker.hpp
struct UThread;  // src/threads/uthread.hpp

// A counter written by one thread and read by any: no atomic read-modify-write, since
// there is one writer; readers' relaxed loads see the old value or the new one. Nobody else
// ever writes it, not even to reset it: a store of zero from another thread would race with
// the owner's load-add-store and could be overwritten by the old value plus one. A reset is
// a baseline the reader subtracts (Worker::reset_counters).
class Counter {
 public:
  // The cheapest increment there is: on x86-64 one non-locked `add` on the counter's memory
  // (an aligned 8-byte store is single-copy atomic there, so a reader never sees a torn
  // value). The portable form below compiles to a load, an add and a store (compilers do not
  // merge atomic accesses). ThreadSanitizer builds keep the portable form, which TSan can see.
#if (defined(__x86_64__) || defined(_M_X64)) && !WEFT_DETAIL_TSAN
  void bump() noexcept {
    static_assert(sizeof(value_) == sizeof(std::uint64_t));
    // "+m": the asm reads and writes exactly this word, and nothing else in memory.
    asm("addq $1, %0" : "+m"(*reinterpret_cast<std::uint64_t*>(&value_)) : : "cc");
  }
#else
  void bump() noexcept { add(1); }
#endif
  void add(std::uint64_t n) noexcept {
    value_.store(value_.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
  }
  std::uint64_t get() const noexcept { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<std::uint64_t> value_{0};
};

// A core is what tls_worker points to: a worker's own (while it runs tasks on its own
// stack) or a user-level thread's (while a worker runs that thread), so a thread carries its
// task stack from worker to worker and spawn and join need no test for which it is.
struct alignas(kFalseSharingRange) WorkerCore {
  WorkerCore() = default;
  explicit WorkerCore(TaskStack::SerialTag tag) noexcept : stack(tag) {}

  TaskStack stack;
  // Owner-written, away from thief-written lines, and none on the fast path: `spawns` counts
  // on the spawn's out-of-line path, where a counting stack sends every spawn
  // (TaskStack::counting()); the inline joins are derived (every pushed task is joined once,
  // inline or stolen).
  alignas(kFalseSharingRange) Counter spawns;  // counted pushes plus overflow_spawns
  Counter overflow_spawns;
  Counter stolen_joins;
  std::int32_t id = 0;
  const void* pool = nullptr;  // the runtime this worker belongs to (for nested run())
  // Parallel loops under adaptive fork (Config::adaptive_fork = 1, not split): the pool's count
  // of idle workers, which weft/loop.hpp reads inline; while it is 0 a loop is a plain call of
  // its body (counted in inline_loops). nullptr elsewhere: loops go through run_loop.
  const std::atomic<std::int32_t>* loop_idle = nullptr;
  Counter inline_loops;
  // The worker running this core's code now: the worker itself for its own core; for a
  // user-level thread's core, whichever worker runs the thread (set at each switch to it).
  // Out-of-line paths reach the worker through it.
  Worker* runner = nullptr;
  // The user-level thread this core belongs to; nullptr for a worker's own core.
  UThread* thread = nullptr;
  // weft::mutexes held by the code running on this core (a thread's, or the tasks on a
  // worker's own stack); written only by that code. While it is not 0 a task's join of a
  // stolen task does not help with other tasks on this stack: one of them could lock a
  // mutex the joiner holds (rayon #592).
  std::int32_t held_mutexes = 0;
};

// Stands in for a worker on threads outside any runtime: its task stack has no slots, so
// every spawn runs at once (serial elision), and a join of a pushed task there fails the
// LIFO check. Never written: spawn counts nothing on it (note_overflow_spawn).
extern WorkerCore g_serial_worker;

// The worker running on this thread, or &g_serial_worker. Never null, so spawn and join need
// no test for it. `__thread` rather than `thread_local`: a constant-initialised pointer
// needs no TLS init wrapper call. The TLS model: initial-exec works in any code, including
// shared libraries; local-exec saves a register and an instruction per access but only links
// into an executable that contains weft itself. The CMake package defines
// WEFT_TLS_LOCAL_EXEC for executables that link the static weft library, and nothing else.
#if defined(WEFT_TLS_LOCAL_EXEC)
#define WEFT_TLS_MODEL "local-exec"
#else
#define WEFT_TLS_MODEL "initial-exec"
#endif
extern __thread WorkerCore* tls_worker __attribute__((tls_model(WEFT_TLS_MODEL)));

// Every read of tls_worker in inline code goes through current_worker(). A user-level thread
// may resume on another OS thread after any call that can block, so no read may reuse a TLS
// address from before such a call. An optimised build reads the variable with one
// %fs-relative load per use, which always reaches the running OS thread's copy (checked by
// thread_test's WorkerIdIsRightAfterResumingOnAnotherWorker); sanitizer builds compute the
// variable's address once and keep it in a register across calls (llvm #98479 is the same
// for coroutines), so there the read is a call the compiler cannot see into.
//
// current_worker_uncached() is that call; the runtime's own code on a fiber uses it after
// every switch, in every build.
WorkerCore* current_worker_uncached() noexcept;
#if WEFT_DETAIL_TSAN || WEFT_DETAIL_ASAN
inline WorkerCore* current_worker() noexcept { return current_worker_uncached(); }
#else
inline WorkerCore* current_worker() noexcept { return tls_worker; }
#endif
inline bool on_worker() noexcept { return current_worker() != &g_serial_worker; }

// A spawn that runs at once on a worker: always counted as an overflow, and as a spawn where
// spawns are counted.
inline void note_overflow_spawn(WorkerCore* w) noexcept {
  if (w != &g_serial_worker) {
    if (w->stack.counting()) w->spawns.bump();
    w->overflow_spawns.bump();
  }
}

// Out of line, off the fast path: waits for a stolen task to finish, helping meanwhile
// (leapfrogging, then bounded stealing), then frees the slot. Returns the outcome; the
// result or exception is left in the slot for the caller to take.
Outcome wait_for_stolen(WorkerCore* w, Slot* s) noexcept;

// Out of line: answers the steal request pending on `w` (request mechanism), reached from
// a spawn whose check failed on the request flag, or from weft::poll().
void serve_steal_requests(WorkerCore* w) noexcept;

// Out of line, once per weft::scope with more than Scope::kInlineChildren children, after
// its body: the owner has just made a burst of tasks stealable, so a sleeping worker is woken
// to take some rather than finding them when its nap runs out. Does nothing on the serial
// worker, when nobody sleeps, or when a thief would get nothing from the stack as it is.
void offer_work(WorkerCore* w) noexcept;

// Out of line: after pop_top() failed, settles the pop the way w's mechanism does (under
// the port, or by answering a pending request first). True: the task is the caller's to
// run inline; false: it was stolen, and its slot stays occupied until release_stolen().
bool settle_pop(WorkerCore* w, Slot* s) noexcept;

}  // namespace weft::detail
