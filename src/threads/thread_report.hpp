// What Runtime::dump_threads() and the deadlock report print: each live user-level thread with
// its state, what a blocked one waits on, and each task waiting on a weft primitive. One
// snapshot, taken under the locks that keep each piece still (the scheduler's for the threads,
// each worker's task-wait slot for the tasks: TKW1 in task_waits.hpp), then printed without
// them.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <vector>

#include "threads/uthread.hpp"

namespace weft::detail {

class Pool;

struct WaitSnapshot {
  WaitKind kind = WaitKind::kMutex;
  const void* waits_on = nullptr;
  const void* holder = nullptr;  // kMutex: its owner when the snapshot was taken
  bool timed = false;            // a wait with a deadline
};

struct ThreadLine {
  const UThread* block = nullptr;
  std::uint64_t number = 0;
  UThread::State state = UThread::State::kReady;
  bool on_wait_list = false;  // blocked on a primitive or a join (`wait`), not on a stolen task
  WaitSnapshot wait;
  int trace_depth = 0;  // Config::thread_debug: the backtrace taken when it parked
  void* trace[UThread::kParkTraceFrames] = {};
};

struct TaskLine {
  int worker = 0;
  WaitSnapshot wait;
};

struct ThreadReport {
  std::vector<ThreadLine> threads;  // in creation order of their blocks
  std::vector<TaskLine> tasks;
  std::vector<const void*> workers;  // the pool's workers, as a mutex records its owner
};

ThreadReport take_thread_report(Pool& pool);

// One line per thread (only the blocked ones if `blocked_only`) and per waiting task, each
// starting with two spaces; a blocked thread's backtrace follows its line when it has one.
void write_thread_report(const ThreadReport& report, std::ostream& out, bool blocked_only);

// Config::thread_debug: records where `t`, the calling thread, parks (on its own stack).
void record_park_trace(UThread& t) noexcept;
// backtrace() loads the unwinder on first use; done once on a worker-sized stack, so that a
// thread's first park does not do it on its small one.
void prepare_park_traces() noexcept;

}  // namespace weft::detail
