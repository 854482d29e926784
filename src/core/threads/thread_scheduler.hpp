// Which ready user-level thread runs next: one lock-guarded structure per Pool, ordered by
// Config::thread_sched.
//
//   fifo  `list_` holds the ready threads, oldest first; take() pops the front.
//   lifo  the same list; take() pops the back (one global stack).
//   df    `list_` holds every live thread, ready or not, in the serial program's depth-first
//         order (AsyncDF): a thread created by a thread goes just left of its creator; one
//         created by a task (which is not in the list) goes at the right end. take() returns
//         the leftmost ready thread (a scan: the list stays short under df, which is its
//         point; the lock-free dfd variant is future work).
//
// Invariants, all under `lock_` (S1-S3):
//   S1  A thread is in state kReady iff some worker may take it: exactly once, by take().
//   S2  fifo/lifo: a thread is in list_ iff it is kReady. df: iff it is live (made, not
//       ended); ready_count_ counts its kReady members.
//   S3  ready_count_ is written only under the lock (seq_cst, because an idle worker reads
//       it without the lock between its sleep ticket and its futex wait: sleep.hpp's
//       protocol, whose waker side is make_ready's wake after the update).
// The stealable list: blocked threads whose task stacks held unstarted tasks when they
// parked; an idle worker steals from them (their owners cannot push them anywhere else).
#pragma once

#include <atomic>
#include <cstdint>

#include "core/threads/spin_lock.hpp"
#include "core/threads/uthread.hpp"
#include "weft/config.hpp"

namespace weft::detail {

class ThreadScheduler {
 public:
  explicit ThreadScheduler(ThreadSched policy) noexcept : policy_(policy) {}

  // A new thread. `creator` is the thread that made it, or nullptr for a task. Returns true
  // when the creator must yield to the child at once (df with a thread creator: the caller
  // then switches, and the child runs before anything else on this worker); otherwise the
  // child is ready and `wake` has been called for it.
  bool add_new(UThread* child, UThread* creator) noexcept;
  // A blocked or yielding thread can run again (S1).
  void make_ready(UThread* t) noexcept;
  // The thread a worker should run next, marked running; nullptr if none is ready.
  UThread* take() noexcept;
  // The thread parked (kBlocked); `has_tasks`: its task stack had unstarted tasks.
  void mark_blocked(UThread* t, bool has_tasks) noexcept;
  // The thread ended: out of every list.
  void remove(UThread* t) noexcept;

  // A relaxed look for idle loops; see S3 for the sleeper's.
  bool has_ready() const noexcept { return ready_count_.load(std::memory_order_relaxed) > 0; }
  bool has_ready_seq_cst() const noexcept {
    return ready_count_.load(std::memory_order_seq_cst) > 0;
  }
  // A blocked thread whose stack may have unstarted tasks, or nullptr; rotates the list.
  WorkerCore* stealable_core() noexcept;
  bool has_stealable() const noexcept {
    return stealable_count_.load(std::memory_order_relaxed) > 0;
  }

  // Runs fn() under the lock, for reports (thread_report.hpp): no thread changes state
  // meanwhile, so a kBlocked thread's parked_on node stays valid. Not counted in
  // lock_acquisitions(), which the deadlock watch reads as its sign of progress.
  template <class F>
  void inspect(F&& fn) noexcept {
    lock_spinning(lock_);
    fn();
    unlock_spinning(lock_);
  }

  std::uint64_t lock_acquisitions() const noexcept {
    return acquisitions_.load(std::memory_order_relaxed);
  }

  // Who is woken when a thread becomes ready (the pool's sleep), set once before use.
  void set_waker(void (*waker)(void*), void* arg) noexcept {
    waker_ = waker;
    waker_arg_ = arg;
  }

 private:
  class Guard;
  void link_back(UThread* t) noexcept;
  void link_before(UThread* t, UThread* at) noexcept;
  void unlink(UThread* t) noexcept;
  void unlist_stealable(UThread* t) noexcept;
  void set_ready(UThread* t) noexcept;  // under the lock

  const ThreadSched policy_;
  std::atomic<bool> lock_{false};  // acquire on lock, release on unlock
  UThread* head_ = nullptr;        // list_, guarded by lock_
  UThread* tail_ = nullptr;
  UThread* stealable_ = nullptr;  // singly linked, guarded by lock_
  std::atomic<std::int64_t> ready_count_{0};
  std::atomic<std::int64_t> stealable_count_{0};
  // Written under the lock (relaxed load and store), read racily for stats.
  std::atomic<std::uint64_t> acquisitions_{0};
  void (*waker_)(void*) = nullptr;
  void* waker_arg_ = nullptr;
};

}  // namespace weft::detail
