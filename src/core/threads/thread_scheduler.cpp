// The ready-thread scheduler: fifo, lifo and df over one intrusive list (invariants S1-S3 in
// thread_scheduler.hpp).
#include "core/threads/thread_scheduler.hpp"

#include "core/threads/spin_lock.hpp"

namespace weft::detail {

class ThreadScheduler::Guard {
 public:
  explicit Guard(ThreadScheduler& s) noexcept : s_(s) {
    lock_spinning(s_.lock_);
    // Under the lock: a plain increment would do; relaxed atomics keep stats readers legal.
    s_.acquisitions_.store(s_.acquisitions_.load(std::memory_order_relaxed) + 1,
                           std::memory_order_relaxed);
  }
  ~Guard() { unlock_spinning(s_.lock_); }
  Guard(const Guard&) = delete;
  Guard& operator=(const Guard&) = delete;

 private:
  ThreadScheduler& s_;
};

void ThreadScheduler::link_back(UThread* t) noexcept {
  t->next = nullptr;
  t->prev = tail_;
  (tail_ != nullptr ? tail_->next : head_) = t;
  tail_ = t;
}

void ThreadScheduler::link_before(UThread* t, UThread* at) noexcept {
  t->next = at;
  t->prev = at->prev;
  (at->prev != nullptr ? at->prev->next : head_) = t;
  at->prev = t;
}

void ThreadScheduler::unlink(UThread* t) noexcept {
  (t->prev != nullptr ? t->prev->next : head_) = t->next;
  (t->next != nullptr ? t->next->prev : tail_) = t->prev;
  t->prev = t->next = nullptr;
}

void ThreadScheduler::set_ready(UThread* t) noexcept {
  t->state = UThread::State::kReady;
  if (policy_ != ThreadSched::kDf) link_back(t);
  ready_count_.fetch_add(1, std::memory_order_seq_cst);  // S3
}

bool ThreadScheduler::add_new(UThread* child, UThread* creator) noexcept {
  bool run_child_now = false;
  {
    Guard g(*this);
    if (policy_ == ThreadSched::kDf) {
      if (creator != nullptr) {
        link_before(child, creator);  // just left of its creator, which it preempts
        child->state = UThread::State::kRunning;
        run_child_now = true;
      } else {
        link_back(child);
        child->state = UThread::State::kReady;
        ready_count_.fetch_add(1, std::memory_order_seq_cst);
      }
    } else {
      set_ready(child);
    }
  }
  if (!run_child_now) waker_(waker_arg_);  // after the update (S3)
  return run_child_now;
}

void ThreadScheduler::make_ready(UThread* t) noexcept {
  {
    Guard g(*this);
    unlist_stealable(t);
    set_ready(t);
  }
  waker_(waker_arg_);
}

UThread* ThreadScheduler::take() noexcept {
  if (!has_ready()) return nullptr;  // the idle loop's common case: no lock
  Guard g(*this);
  UThread* t = nullptr;
  switch (policy_) {
    case ThreadSched::kFifo: t = head_; break;
    case ThreadSched::kLifo: t = tail_; break;
    case ThreadSched::kDf:
      for (t = head_; t != nullptr && t->state != UThread::State::kReady; t = t->next) {
      }
      break;
  }
  if (t == nullptr) return nullptr;
  if (policy_ != ThreadSched::kDf) unlink(t);
  t->state = UThread::State::kRunning;
  ready_count_.fetch_sub(1, std::memory_order_seq_cst);
  return t;
}

void ThreadScheduler::mark_blocked(UThread* t, bool has_tasks) noexcept {
  Guard g(*this);
  t->state = UThread::State::kBlocked;
  if (has_tasks && !t->stealable_listed) {
    t->stealable_listed = true;
    t->stealable_next = stealable_;
    stealable_ = t;
    stealable_count_.fetch_add(1, std::memory_order_relaxed);
  }
}

void ThreadScheduler::unlist_stealable(UThread* t) noexcept {
  if (!t->stealable_listed) return;
  for (UThread** p = &stealable_; *p != nullptr; p = &(*p)->stealable_next) {
    if (*p == t) {
      *p = t->stealable_next;
      break;
    }
  }
  t->stealable_listed = false;
  t->stealable_next = nullptr;
  stealable_count_.fetch_sub(1, std::memory_order_relaxed);
}

WorkerCore* ThreadScheduler::stealable_core() noexcept {
  if (!has_stealable()) return nullptr;
  Guard g(*this);
  UThread* t = stealable_;
  if (t == nullptr) return nullptr;
  // Rotate, so that several idle workers spread over the listed threads, and drop a thread
  // whose stack is empty now (a thief took the last task; U1 keeps a stale read harmless).
  stealable_ = t->stealable_next;
  t->stealable_listed = false;
  t->stealable_next = nullptr;
  stealable_count_.fetch_sub(1, std::memory_order_relaxed);
  if (t->core.stack.available() > 0) {
    t->stealable_listed = true;
    UThread** end = &stealable_;
    while (*end != nullptr) end = &(*end)->stealable_next;
    *end = t;
    stealable_count_.fetch_add(1, std::memory_order_relaxed);
    return &t->core;
  }
  return nullptr;
}

void ThreadScheduler::remove(UThread* t) noexcept {
  Guard g(*this);
  unlist_stealable(t);
  if (policy_ == ThreadSched::kDf) unlink(t);
  t->state = UThread::State::kDone;
}

}  // namespace weft::detail
