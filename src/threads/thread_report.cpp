// Snapshots of the pool's threads and waiting tasks, and the words both reports use for them.
#include "threads/thread_report.hpp"

#include <execinfo.h>

#include <algorithm>
#include <cstdlib>
#include <ostream>

#include "core/pool.hpp"

namespace weft::detail {

namespace {

// Under the lock that keeps `node` linked (the scheduler's, or the task's slot lock).
WaitSnapshot snapshot(const WaitNode& node) noexcept {
  WaitSnapshot s;
  s.kind = node.kind;
  s.waits_on = node.waits_on;
  s.timed = node.deadline_ns != 0;
  // relaxed: the owner word is the mutex's own (weft/thread.hpp); a report may be a moment
  // late, never torn.
  if (node.holder != nullptr) s.holder = node.holder->load(std::memory_order_relaxed);
  return s;
}

const ThreadLine* find_thread(const ThreadReport& r, const void* block) noexcept {
  for (const ThreadLine& line : r.threads) {
    if (line.block == block) return &line;
  }
  return nullptr;
}

void write_holder(const ThreadReport& r, const void* holder, std::ostream& out) {
  if (holder == nullptr) {
    out << "nobody at this moment (being handed over)";
    return;
  }
  for (std::size_t i = 0; i < r.workers.size(); ++i) {
    if (r.workers[i] == holder) {
      out << "a task on worker " << i;
      return;
    }
  }
  if (const ThreadLine* line = find_thread(r, holder)) {
    out << "thread " << line->number;
  } else {
    out << "a thread or task of another runtime, or a thread that has ended";
  }
}

void write_wait_on(const ThreadReport& r, const WaitSnapshot& w, std::ostream& out);

// "waits on weft::mutex 0x... held by thread 2": the same words in both reports.
void write_wait(const ThreadReport& r, const WaitSnapshot& w, std::ostream& out) {
  write_wait_on(r, w, out);
  if (w.timed && w.kind != WaitKind::kSleep) out << " (until a deadline)";
}

void write_wait_on(const ThreadReport& r, const WaitSnapshot& w, std::ostream& out) {
  switch (w.kind) {
    case WaitKind::kMutex:
      out << "waits on weft::mutex " << w.waits_on << " held by ";
      write_holder(r, w.holder, out);
      return;
    case WaitKind::kConditionVariable:
      out << "waits on weft::condition_variable " << w.waits_on;
      return;
    case WaitKind::kSemaphore: out << "waits on weft::counting_semaphore " << w.waits_on; return;
    case WaitKind::kBarrier: out << "waits on weft::barrier " << w.waits_on; return;
    case WaitKind::kJoin:
      if (const ThreadLine* line = find_thread(r, w.waits_on)) {
        out << "waits to join thread " << line->number;
      } else {
        out << "waits to join a thread that is ending";
      }
      return;
    case WaitKind::kSleep: out << "sleeps until a deadline"; return;
  }
}

const char* state_name(UThread::State s) noexcept {
  switch (s) {
    case UThread::State::kReady: return "ready";
    case UThread::State::kRunning: return "running";
    case UThread::State::kBlocked: return "blocked";
    case UThread::State::kDone: return "done";
  }
  return "?";
}

void write_trace(const ThreadLine& line, std::ostream& out) {
  if (line.trace_depth <= 0) return;
  out << "    parked at (WEFT_THREAD_DEBUG):\n";
  char** symbols = backtrace_symbols(line.trace, line.trace_depth);
  for (int i = 0; i < line.trace_depth; ++i) {
    out << "      #" << i << " ";
    if (symbols != nullptr) {
      out << symbols[i];
    } else {
      out << line.trace[i];
    }
    out << "\n";
  }
  std::free(symbols);  // NOLINT: backtrace_symbols' one malloc'd block
}

}  // namespace

ThreadReport take_thread_report(Pool& pool) {
  ThreadReport r;
  for (unsigned i = 0; i < pool.size(); ++i) r.workers.push_back(&pool.worker(i));
  const std::vector<UThread*> blocks = pool.thread_store().blocks();
  // Sized before the locks: nothing is allocated under them.
  r.threads.resize(blocks.size());
  r.tasks.reserve(pool.size());
  std::size_t n = 0;
  pool.threads().inspect([&] {
    for (UThread* t : blocks) {
      if (t->state == UThread::State::kDone) continue;  // ended, or still being made
      ThreadLine& line = r.threads[n++];
      line.block = t;
      line.number = t->number;
      line.state = t->state;
      if (t->state == UThread::State::kBlocked && t->parked_on != nullptr) {
        line.on_wait_list = true;
        line.wait = snapshot(*t->parked_on);
        line.trace_depth = t->park_trace_depth;
        std::copy(t->park_trace, t->park_trace + t->park_trace_depth, line.trace);
      }
    }
  });
  r.threads.resize(n);
  pool.task_waits().inspect([&](int worker, const WaitNode& node) {
    r.tasks.push_back({worker, snapshot(node)});
  });
  return r;
}

void write_thread_report(const ThreadReport& r, std::ostream& out, bool blocked_only) {
  for (const ThreadLine& line : r.threads) {
    const bool blocked = line.state == UThread::State::kBlocked;
    if (blocked_only && !blocked) continue;
    out << "  thread " << line.number << ": " << state_name(line.state);
    if (line.on_wait_list) {
      out << ", ";
      write_wait(r, line.wait, out);
    } else if (blocked) {
      out << ", waits for a task stolen from it";
    }
    out << "\n";
    write_trace(line, out);
  }
  for (const TaskLine& task : r.tasks) {
    out << "  a task on worker " << task.worker << ": ";
    write_wait(r, task.wait, out);
    out << "\n";
  }
}

void record_park_trace(UThread& t) noexcept {
  t.park_trace_depth = backtrace(t.park_trace, UThread::kParkTraceFrames);
}

void prepare_park_traces() noexcept {
  void* frame[1];
  (void)backtrace(frame, 1);
}

}  // namespace weft::detail
