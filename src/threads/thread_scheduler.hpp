// Which ready user-level thread runs next: one structure per Pool, ordered by
// Config::thread_sched, under one spin lock (`lock_`) except where dfd says otherwise.
//
//   fifo  `list_` holds the ready threads, oldest first; take() pops the front.
//   lifo  the same list; take() pops the back (one global stack).
//   df    `df_` (df_order.hpp) holds every live thread in the serial program's depth-first
//         order (AsyncDF): a thread created by a thread goes just left of its creator and
//         runs at once, the creator waiting ready; one created by a task (not in the list)
//         goes at the right end. take() returns the leftmost ready thread (a heap on order
//         labels: O(log n)).
//   dfd   no lock on fork, join, park, wake or end (Narlikar's DFDeques): each worker owns
//         a deque (thread_deque.hpp) and pushes and pops its bottom alone; a creator is
//         pushed while its child runs, a thread woken by a worker is pushed on that
//         worker's deque, and a worker whose thread ended or parked pops its next one. The
//         deques sit in one list R in the depth-first order, which only steals and
//         preemptions touch, under the lock: a worker whose deque is empty takes, from the
//         leftmost deque that has a thread, the oldest (rightmost) of one that has an owner,
//         and puts its own deque just right of it, or the newest (leftmost) of one that has
//         none, and puts its deque just left of it; a preempted thread is pushed on its
//         deque, which the worker then leaves in R for others, and the worker steals; a
//         yielding one is pushed on its deque once the worker has taken its next thread
//         (its deque's bottom, else a steal). The end of a dummy (a large allocation's,
//         heap_accounting.cpp) spends its worker's quota, so that worker too leaves its
//         deque and steals: the one end that takes the lock. Threads made by tasks wait in
//         `list_` (under the lock) at the right end of the order.
//
// Invariants, all under `lock_` (SCH1-SCH4):
//   SCH1 A thread is in state kReady iff some worker may take it: exactly once, by take().
//        (dfd: while it is in a deque or in list_.)
//   SCH2 fifo/lifo: a thread is in list_ iff it is kReady. df: in df_'s list iff it is live
//        (made, not ended), and in its ready heap iff kReady. dfd: list_ holds the ready
//        threads made by tasks.
//   SCH3 ready_count_ (the threads in list_ or df_'s heap) is written only under the lock
//        (seq_cst, because an idle worker reads it without the lock between its sleep ticket
//        and its futex wait: sleep.hpp's protocol, whose waker side is the wake after the
//        update). A dfd deque push wakes nobody when the pusher will pop it itself, as a
//        spawn does: the watchman's nap bounds the delay (Pool::sleep counts live threads as
//        an active run).
//   SCH4 dfd: a deque in R with owner -1 is never pushed again, so once empty it is dead and
//        the thief that finds it so unlinks and recycles it; deques are never freed while
//        the scheduler lives (a lock-free look at one is always a valid read).
//   SCH5 A report (inspect) reads a kBlocked thread's parked_on node under the lock; dfd's
//        wake, which takes no lock, first makes the thread kReady and then, if a report is
//        under way, passes through the lock before the thread can run (seq_cst pair).
// The stealable list: blocked threads whose task stacks held unstarted tasks when they
// parked; an idle worker steals from them (their owners cannot push them anywhere else).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "threads/df_order.hpp"
#include "threads/spin_lock.hpp"
#include "threads/thread_deque.hpp"
#include "threads/uthread.hpp"
#include "weft/config.hpp"

namespace weft::detail {

// The schedulers that keep the serial depth-first order, and with it the memory quota.
constexpr bool depth_first(ThreadSched s) noexcept {
  return s == ThreadSched::kDf || s == ThreadSched::kDfd;
}

class ThreadScheduler {
 public:
  explicit ThreadScheduler(ThreadSched policy) noexcept : policy_(policy) {}
  ~ThreadScheduler();
  ThreadScheduler(const ThreadScheduler&) = delete;
  ThreadScheduler& operator=(const ThreadScheduler&) = delete;
  // The pool's worker count, once, before any thread is made (dfd's deques).
  void set_workers(unsigned n);

  // In the calls that take it, `worker` is the id of the worker making the call (on its own
  // stack or running one of its threads): dfd's deque is that worker's.
  //
  // A new thread. `creator` is the thread that made it, or nullptr for a task. Returns true
  // when the creator must yield to the child at once (df and dfd with a thread creator: the
  // caller then switches with kRunChild, and the child runs before anything else on this
  // worker); otherwise the child is ready and `wake` has been called for it.
  bool add_new(UThread* child, UThread* creator) noexcept;
  // The creator a child preempted is off its stack now: ready, beside the child.
  void resume_creator(UThread* creator, int worker) noexcept;
  // A blocked thread can run again (SCH1).
  void make_ready(UThread* t, int worker) noexcept;
  // A running thread gives way to its memory quota: ready, in its place.
  void preempt(UThread* t, int worker) noexcept;
  // A running thread yields, on its own stack, in two halves around the switch straight to
  // the thread that runs instead (worker_switch.cpp, TR4). begin_yield returns that thread,
  // marked running, or nullptr when no other is ready (the yielder runs on). With a thread
  // returned, fifo, lifo and df keep the lock until end_yield, which runs on the new
  // thread's stack once the yielder can be resumed and makes it ready in the taken one's
  // place: the pop and the push stay one critical section, one lock acquisition in all, and
  // the ready count never changes (no write, no wake: SCH3). dfd takes no lock: its take, then
  // the yielder pushed on this worker's deque.
  UThread* begin_yield(int worker) noexcept;
  void end_yield(UThread* yielder, int worker) noexcept;
  // The thread a worker should run next, marked running; nullptr if none is ready.
  UThread* take(int worker) noexcept;
  // After a thread of this worker's spent its memory quota by ending (a dummy of a large
  // allocation): under dfd the worker gives up its deque, as a preemption does, and steals
  // from the leftmost one (DFDeques), returning what it took, marked running, or nullptr.
  // The other schedulers return nullptr: the worker's next take() starts from the leftmost
  // ready thread anyway.
  UThread* take_after_quota(int worker) noexcept;
  // The thread parked (kBlocked); `has_tasks`: its task stack had unstarted tasks.
  void mark_blocked(UThread* t, bool has_tasks) noexcept;
  // The thread ended: out of every list.
  void remove(UThread* t) noexcept;

  // A relaxed look for idle loops; see SCH3 for the sleeper's.
  bool has_ready() const noexcept {
    return ready_count_.load(std::memory_order_relaxed) > 0 ||
           (policy_ == ThreadSched::kDfd && some_deque_nonempty());
  }
  bool has_ready_seq_cst() const noexcept {
    return ready_count_.load(std::memory_order_seq_cst) > 0 ||
           (policy_ == ThreadSched::kDfd && some_deque_nonempty());
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
    // seq_cst: dfd's lock-free wake stores the thread's kReady, then loads this (a Dekker
    // pair): either the report sees kReady and skips the node, or the waker sees the report
    // and waits for the lock before the thread can run (SCH5).
    inspecting_.fetch_add(1, std::memory_order_seq_cst);
    lock_spinning(lock_);
    fn();
    unlock_spinning(lock_);
    inspecting_.fetch_sub(1, std::memory_order_seq_cst);
  }

  std::uint64_t lock_acquisitions() const noexcept {
    return acquisitions_.load(std::memory_order_relaxed);
  }
  // The memory quota's events (weft/memory.hpp); relaxed counts, read for stats.
  void count_dummies(std::uint64_t n) noexcept { dummies_.fetch_add(n, std::memory_order_relaxed); }
  void count_preemption() noexcept { preemptions_.fetch_add(1, std::memory_order_relaxed); }
  std::uint64_t dummies() const noexcept { return dummies_.load(std::memory_order_relaxed); }
  std::uint64_t preemptions() const noexcept {
    return preemptions_.load(std::memory_order_relaxed);
  }

  // Who is woken when a thread becomes ready (the pool's sleep), set once before use.
  void set_waker(void (*waker)(void*), void* arg) noexcept {
    waker_ = waker;
    waker_arg_ = arg;
  }

 private:
  class Guard;
  void lock_counted() noexcept;  // the lock, counted in lock_acquisitions() (Guard's)
  void link_back(UThread* t) noexcept;
  void unlink(UThread* t) noexcept;
  void list_stealable(UThread* t) noexcept;
  void unlist_stealable(UThread* t) noexcept;
  // fifo, lifo, df, under the lock: t marked ready and in its list; set_ready also counts it
  // (SCH3), which a yield's hand-over does not need, as the yielder takes the place of the
  // thread it popped.
  void place_ready_locked(UThread* t) noexcept;
  void set_ready(UThread* t) noexcept;
  // fifo, lifo, df: the next ready thread out of its list, marked running; the caller counts.
  UThread* pop_ready_locked() noexcept;
  void wake() noexcept { waker_(waker_arg_); }

  // dfd (thread_scheduler_dfd.cpp).
  void dfd_push(UThread* t, int worker) noexcept;
  UThread* dfd_take(int worker) noexcept;
  UThread* dfd_take_after_quota(int worker) noexcept;
  void dfd_preempt(UThread* t, int worker) noexcept;
  // A thread from the leftmost deque that has one, else the oldest made by a task, or
  // nullptr; under the lock.
  UThread* dfd_steal_locked(int worker) noexcept;
  ThreadDeque* dfd_new_deque_locked(int worker) noexcept;
  void dfd_link_locked(ThreadDeque* d, ThreadDeque* left_of, ThreadDeque* right_of) noexcept;
  void dfd_retire_locked(ThreadDeque* d) noexcept;
  bool some_deque_nonempty() const noexcept;

  const ThreadSched policy_;
  std::atomic<bool> lock_{false};  // acquire on lock, release on unlock
  UThread* head_ = nullptr;        // list_, guarded by lock_
  UThread* tail_ = nullptr;
  DfOrder df_;  // guarded by lock_
  // dfd: each worker's deque (read and written by that worker alone; replaced under the
  // lock), the list R (guarded by lock_), the recycled deques, and every deque made
  // (acquire/release: a deque is published whole before idle workers look at it).
  std::unique_ptr<ThreadDeque*[]> own_;
  unsigned workers_ = 0;
  ThreadDeque* r_head_ = nullptr;
  ThreadDeque* r_tail_ = nullptr;
  ThreadDeque* free_deques_ = nullptr;
  std::atomic<ThreadDeque*> made_deques_{nullptr};
  UThread* stealable_ = nullptr;  // singly linked, guarded by lock_
  std::atomic<std::int64_t> ready_count_{0};
  std::atomic<std::int64_t> stealable_count_{0};
  // Written under the lock (relaxed load and store), read racily for stats.
  std::atomic<std::uint64_t> acquisitions_{0};
  std::atomic<std::uint64_t> dummies_{0};
  std::atomic<int> inspecting_{0};  // reports under way (inspect, SCH5)
  std::atomic<std::uint64_t> preemptions_{0};
  void (*waker_)(void*) = nullptr;
  void* waker_arg_ = nullptr;
};

}  // namespace weft::detail
