// The ready-thread scheduler: fifo, lifo and df, and the parts dfd shares with them
// (invariants SCH1-SCH4 in thread_scheduler.hpp; dfd's own half is thread_scheduler_dfd.cpp).
#include "threads/thread_scheduler.hpp"

#include "threads/scheduler_guard.hpp"

namespace weft::detail {

namespace {
constexpr auto kRelaxed = std::memory_order_relaxed;
}  // namespace

void ThreadScheduler::link_back(UThread* t) noexcept {
  t->next = nullptr;
  t->prev = tail_;
  (tail_ != nullptr ? tail_->next : head_) = t;
  tail_ = t;
}

void ThreadScheduler::unlink(UThread* t) noexcept {
  (t->prev != nullptr ? t->prev->next : head_) = t->next;
  (t->next != nullptr ? t->next->prev : tail_) = t->prev;
  t->prev = t->next = nullptr;
}

void ThreadScheduler::place_ready_locked(UThread* t) noexcept {
  t->state.store(UThread::State::kReady, kRelaxed);
  if (policy_ == ThreadSched::kDf) {
    df_.push_ready(t);
  } else {
    link_back(t);
  }
}

void ThreadScheduler::set_ready(UThread* t) noexcept {
  place_ready_locked(t);
  ready_count_.fetch_add(1, std::memory_order_seq_cst);  // SCH3
}

bool ThreadScheduler::add_new(UThread* child, UThread* creator) noexcept {
  const bool run_child_now = creator != nullptr && depth_first(policy_);
  if (run_child_now) {
    child->state.store(UThread::State::kRunning, kRelaxed);
    if (policy_ == ThreadSched::kDfd) return true;  // no list to join: SCH2
  }
  {
    Guard g(*this);
    if (policy_ == ThreadSched::kDf) df_.insert_before(child, creator);  // nullptr: right end
    if (!run_child_now) set_ready(child);
  }
  if (!run_child_now) wake();  // after the update (SCH3)
  return run_child_now;
}

void ThreadScheduler::resume_creator(UThread* creator, int worker) noexcept {
  if (policy_ == ThreadSched::kDfd) {
    creator->state.store(UThread::State::kReady, kRelaxed);
    dfd_push(creator, worker);  // we pop it ourselves when the child ends: no wake (SCH3)
    return;
  }
  make_ready(creator, worker);
}

void ThreadScheduler::make_ready(UThread* t, int worker) noexcept {
  if (policy_ == ThreadSched::kDfd) {
    t->state.store(UThread::State::kReady, std::memory_order_seq_cst);  // SCH5
    // The lock only for a thread on the stealable list, or while a report may be reading
    // its node (SCH5): it is then done with it.
    if (t->ever_stealable || inspecting_.load(std::memory_order_seq_cst) > 0) {
      Guard g(*this);
      unlist_stealable(t);
    }
    dfd_push(t, worker);
    wake();  // another worker may be idle while ours is busy with what woke it
    return;
  }
  {
    Guard g(*this);
    unlist_stealable(t);
    set_ready(t);
  }
  wake();
}

void ThreadScheduler::preempt(UThread* t, int worker) noexcept {
  if (policy_ == ThreadSched::kDfd) {
    dfd_preempt(t, worker);
    return;
  }
  make_ready(t, worker);  // df: its place in the order is kept
}

UThread* ThreadScheduler::pop_ready_locked() noexcept {
  UThread* t = nullptr;
  switch (policy_) {
    case ThreadSched::kFifo: t = head_; break;
    case ThreadSched::kLifo: t = tail_; break;
    case ThreadSched::kDf: t = df_.pop_leftmost_ready(); break;
    case ThreadSched::kDfd: break;
  }
  if (t == nullptr) return nullptr;
  if (policy_ != ThreadSched::kDf) unlink(t);
  t->state.store(UThread::State::kRunning, kRelaxed);
  return t;
}

UThread* ThreadScheduler::begin_yield(int worker) noexcept {
  if (policy_ == ThreadSched::kDfd) return dfd_take(worker);
  if (!has_ready()) return nullptr;
  lock_counted();  // released by end_yield, or here when nothing is ready
  UThread* const next = pop_ready_locked();
  if (next == nullptr) unlock_spinning(lock_);
  return next;
}

void ThreadScheduler::end_yield(UThread* yielder, int worker) noexcept {
  if (policy_ == ThreadSched::kDfd) {
    resume_creator(yielder, worker);  // pushed on our deque, run when the new thread is done
    return;
  }
  // Still under begin_yield's lock: the yielder takes the new thread's place, so the ready
  // count stays as it is.
  place_ready_locked(yielder);
  unlock_spinning(lock_);
}

UThread* ThreadScheduler::take(int worker) noexcept {
  if (policy_ == ThreadSched::kDfd) return dfd_take(worker);
  if (!has_ready()) return nullptr;  // the idle loop's common case: no lock
  Guard g(*this);
  UThread* const t = pop_ready_locked();
  if (t != nullptr) ready_count_.fetch_sub(1, std::memory_order_seq_cst);
  return t;
}

UThread* ThreadScheduler::take_after_quota(int worker) noexcept {
  return policy_ == ThreadSched::kDfd ? dfd_take_after_quota(worker) : nullptr;
}

void ThreadScheduler::mark_blocked(UThread* t, bool has_tasks) noexcept {
  if (policy_ == ThreadSched::kDfd && !has_tasks) {
    t->state.store(UThread::State::kBlocked, kRelaxed);
    return;
  }
  Guard g(*this);
  t->state.store(UThread::State::kBlocked, kRelaxed);
  if (has_tasks) list_stealable(t);
}

void ThreadScheduler::list_stealable(UThread* t) noexcept {
  t->ever_stealable = true;
  if (t->stealable_listed) return;
  t->stealable_listed = true;
  t->stealable_next = stealable_;
  stealable_ = t;
  stealable_count_.fetch_add(1, kRelaxed);
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
  stealable_count_.fetch_sub(1, kRelaxed);
}

WorkerCore* ThreadScheduler::stealable_core() noexcept {
  if (!has_stealable()) return nullptr;
  Guard g(*this);
  UThread* t = stealable_;
  if (t == nullptr) return nullptr;
  // Rotate, so that several idle workers spread over the listed threads, and drop a thread
  // whose stack is empty now (a thief took the last task; UT1 keeps a stale read harmless).
  stealable_ = t->stealable_next;
  t->stealable_listed = false;
  t->stealable_next = nullptr;
  stealable_count_.fetch_sub(1, kRelaxed);
  if (t->core.stack.available() > 0) {
    t->stealable_listed = true;
    UThread** end = &stealable_;
    while (*end != nullptr) end = &(*end)->stealable_next;
    *end = t;
    stealable_count_.fetch_add(1, kRelaxed);
    return &t->core;
  }
  return nullptr;
}

void ThreadScheduler::remove(UThread* t) noexcept {
  // dfd: a thread never listed as stealable is in no list of ours (SCH2).
  if (policy_ == ThreadSched::kDfd && !t->ever_stealable) {
    t->state.store(UThread::State::kDone, kRelaxed);
    return;
  }
  Guard g(*this);
  unlist_stealable(t);
  if (policy_ == ThreadSched::kDf) df_.erase(t);
  t->state.store(UThread::State::kDone, kRelaxed);
}

}  // namespace weft::detail
