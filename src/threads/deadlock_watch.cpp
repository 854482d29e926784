// The deadlock detector's looks and its report (DW1-DW3 in deadlock_watch.hpp).
#include "threads/deadlock_watch.hpp"

#include <unistd.h>

#include <cstdlib>
#include <sstream>
#include <string>

#include "core/activity_clock.hpp"
#include "core/pool.hpp"
#include "model/config_fields.hpp"
#include "threads/thread_report.hpp"

namespace weft::detail {

bool DeadlockWatch::stuck(Pool& pool) noexcept {
  ThreadScheduler& sched = pool.threads();
  if (sched.has_ready_seq_cst() || sched.has_stealable() || pool.has_pending_roots() ||
      pool.timers().armed()) {
    return false;  // work, or a deadline that will make some
  }
  const int waiting = pool.task_waits().quiet();
  if (pool.idle_workers() + waiting < static_cast<int>(pool.size())) return false;
  // Nobody runs a thread now, so a live one is blocked (or ready, which was ruled out).
  return waiting > 0 || pool.thread_store().live() > 0;
}

std::uint64_t DeadlockWatch::stamp(Pool& pool) noexcept {
  std::uint64_t s = pool.threads().lock_acquisitions() + pool.task_waits().entries();
  for (unsigned i = 0; i < pool.size(); ++i) s += pool.worker(i).steals.get();
  return s;
}

void DeadlockWatch::look(Pool& pool) noexcept {
  if (!enabled() || looking_.exchange(true, std::memory_order_acquire)) return;
  if (!stuck(pool)) {
    stuck_since_ns_ = 0;
  } else if (const std::uint64_t now = monotonic_ns(), s = stamp(pool);
             stuck_since_ns_ == 0 || s != stamp_) {
    stuck_since_ns_ = now;  // the window starts (again)
    stamp_ = s;
    reported_ = false;
  } else if (!reported_ && now - stuck_since_ns_ >= after_ns_) {
    act(pool);
    reported_ = true;
  }
  looking_.store(false, std::memory_order_release);
}

void DeadlockWatch::act(Pool& pool) noexcept {
  const bool abort_after = action_ == DeadlockAction::kAbort;
  std::string text;
  try {
    std::ostringstream out;
    out << "weft: deadlock: every worker is idle or waiting, no thread is ready, and nothing "
           "has changed for "
        << after_ns_ / 1000000 << " ms (" << config_field("deadlock_ms").variable
        << "); waiting:\n";
    write_thread_report(take_thread_report(pool), out, /*blocked_only=*/true);
    out << (abort_after ? "weft: aborting (WEFT_DEADLOCK=abort)\n"
                        : "weft: waiting on (WEFT_DEADLOCK=report)\n");
    text = out.str();
  } catch (...) {
    text = "weft: deadlock (no memory left to list the waiting threads)\n";
  }
  // One write where the text fits, so that reports of two runtimes do not interleave.
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(STDERR_FILENO, text.data() + done, text.size() - done);
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  if (abort_after) std::abort();
}

}  // namespace weft::detail
