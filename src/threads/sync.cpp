// The contended halves of weft::mutex, condition_variable and counting_semaphore, all on
// WaitList (WL1-WL3 in weft/detail/thread_core.hpp).
//
// mutex. SY1: the word goes to and from kContended, and the waiter list changes, only under
// the list's lock; the uncontended CASes free <-> held need no lock. A contended unlock
// frees the word and wakes the oldest waiter, which competes for it again (like std::mutex,
// no hand-over: a thread arriving meanwhile may take it first). Handing the mutex over
// made a convoy last: once waiters queued, every later lock queued behind them and each
// critical section waited for a switch to its holder, and under df a worker whose thread
// parked ran new threads, which parked on the same cell in turn (Barnes-Hut's tree build:
// 27 live threads in one run, 788 in the next). SY3 (no lost wake-up): while waiters are
// queued, the word says kContended or a woken waiter is on its way back to the list lock;
// that waiter, taking the word or queueing again, leaves kContended while any remain
// queued, so some later unlock wakes the next.
// condition_variable. A waiter queues itself under the cv's list lock before it unlocks the
// mutex, so a notify made after that unlock (with or without the mutex) finds it.
// counting_semaphore. SY2: a waiter is queued only while the count is 0, checked under the
// list's lock; release hands units to queued waiters first (under the lock) and adds the
// rest to the count. A timed waiter whose deadline claimed it is skipped (TW1 in
// thread_core.hpp), so no unit is handed to a waiter that has given up.
#include <cstdio>
#include <cstdlib>

#include "core/pool.hpp"
#include "platform/cpu.hpp"
#include "weft/thread.hpp"

namespace weft {

namespace {
// How long a contended lock spins before it queues, when another worker may be running the
// holder: critical sections guarded by a weft::mutex are mostly short (a tree build's cell
// update), and a park and wake cost two switches and a live thread meanwhile.
constexpr int kLockSpins = 128;
}  // namespace

void mutex::lock_contended() {
  if (detail::current_worker_uncached()->runner->home_pool().size() > 1) {
    for (int i = 0; i < kLockSpins; ++i) {
      std::uint32_t s = state_.load(std::memory_order_relaxed);
      // acquire: the last holder's writes happen-before ours (the uncontended CAS of SY1).
      // A free word with waiters queued is taken too (SY1: no hand-over; SY3 keeps them).
      if (s == kFree && state_.compare_exchange_weak(s, kLocked, std::memory_order_acquire,
                                                     std::memory_order_relaxed)) {
        return;
      }
      platform::cpu_relax();
    }
  }
  for (;;) {
    waiters_.lock();
    std::uint32_t s = state_.load(std::memory_order_relaxed);
    for (;;) {
      if (s == kFree) {
        // acquire: the last holder's writes happen-before ours. With waiters still queued
        // the word says kContended, so that our unlock wakes the next (SY3).
        const std::uint32_t taken = waiters_.empty() ? kLocked : kContended;
        if (state_.compare_exchange_weak(s, taken, std::memory_order_acquire,
                                         std::memory_order_relaxed)) {
          waiters_.unlock();
          return;
        }
      } else if (s == kLocked) {
        // relaxed: the list lock orders the queueing; the holder's unlock CAS then fails.
        if (state_.compare_exchange_weak(s, kContended, std::memory_order_relaxed)) break;
      } else {
        break;  // kContended
      }
    }
    detail::WaitNode node;
    node.waits_on = this;
    node.kind = detail::WaitKind::kMutex;
    node.holder = &owner_;
    waiters_.push_back(node);
    waiters_.block(node);
    // Woken by an unlock that freed the word: compete for it again (SY1, SY3).
  }
}

void mutex::unlock_misuse() const noexcept {
  detail::thread_misuse(owner_.load(std::memory_order_relaxed) == nullptr
                            ? "unlock of a weft::mutex that is not locked"
                            : "unlock of a weft::mutex by a thread or task that does not hold it");
}

void mutex::unlock_contended() noexcept {
  waiters_.lock();
  // Somebody is queued whenever an unlock finds kContended (SY1, SY3); if nobody were,
  // freeing the word would still leave the mutex usable.
  detail::WaitNode* const next = waiters_.pop_front();
  // release: our writes happen-before the next holder's acquire. `next`, woken, takes the
  // word or queues again, and restores kContended if others still wait (SY3).
  state_.store(kFree, std::memory_order_release);
  waiters_.unlock();
  if (next != nullptr) detail::wake(next);
}

void condition_variable::notify_one() noexcept {
  waiters_.lock();
  detail::WaitNode* const node = waiters_.pop_front();
  waiters_.unlock();
  if (node != nullptr) detail::wake(node);
}

void condition_variable::notify_all() noexcept {
  waiters_.lock();
  detail::WaitNode* node = nullptr;
  detail::WaitNode* all = nullptr;
  while ((node = waiters_.pop_front()) != nullptr) {
    node->next = all;
    all = node;
  }
  waiters_.unlock();
  // Each node's `next` is read before it is woken (WL2).
  while (all != nullptr) {
    detail::WaitNode* const n = all;
    all = all->next;
    detail::wake(n);
  }
}

void condition_variable::wait(std::unique_lock<mutex>& lock) {
  (void)wait_as(lock, detail::WaitKind::kConditionVariable, this, 0);
}

bool condition_variable::wait_until_ns(std::unique_lock<mutex>& lock, std::int64_t deadline_ns) {
  return wait_as(lock, detail::WaitKind::kConditionVariable, this, deadline_ns);
}

bool condition_variable::wait_as(std::unique_lock<mutex>& lock, detail::WaitKind kind,
                                 const void* what, std::int64_t deadline_ns) {
  if (!lock.owns_lock()) detail::thread_misuse("condition_variable::wait without the lock held");
  detail::WaitNode node;
  node.waits_on = what;
  node.kind = kind;
  node.deadline_ns = deadline_ns;
  waiters_.lock();
  waiters_.push_back(node);
  lock.mutex()->unlock();  // takes the mutex's list lock inside the cv's: always that order
  const bool notified = waiters_.block(node);
  lock.mutex()->lock();
  return notified;
}

namespace detail {

void SemaphoreCore::release(std::ptrdiff_t n) {
  (void)sync_caller("weft::counting_semaphore::release");
  if (n < 0) thread_misuse("counting_semaphore::release with a negative count");
  WaitNode* woken = nullptr;
  waiters_.lock();
  while (n > 0) {
    WaitNode* const node = waiters_.pop_front();
    if (node == nullptr) break;
    node->handed = 1;  // SY2: one unit, straight to the waiter
    node->next = woken;
    woken = node;
    --n;
  }
  // release: our writes happen-before an acquirer's acquire CAS.
  if (n > 0) count_.fetch_add(n, std::memory_order_release);
  waiters_.unlock();
  while (woken != nullptr) {
    WaitNode* const node = woken;
    woken = woken->next;
    wake(node);
  }
}

void SemaphoreCore::acquire() { (void)acquire_until_ns(0); }

bool SemaphoreCore::acquire_until_ns(std::int64_t deadline_ns) {
  if (try_acquire()) return true;
  waiters_.lock();
  std::ptrdiff_t c = count_.load(std::memory_order_relaxed);
  while (c > 0) {
    if (count_.compare_exchange_weak(c, c - 1, std::memory_order_acquire,
                                     std::memory_order_relaxed)) {
      waiters_.unlock();
      return true;
    }
  }
  if (deadline_ns != 0 && steady_now_ns() >= deadline_ns) {
    waiters_.unlock();
    return false;
  }
  WaitNode node;  // SY2: the count is 0 and only grows under the lock we hold
  node.waits_on = this;
  node.kind = WaitKind::kSemaphore;
  node.deadline_ns = deadline_ns;
  waiters_.push_back(node);
  return waiters_.block(node);  // a unit handed over (SY2), or the deadline
}

}  // namespace detail

}  // namespace weft
