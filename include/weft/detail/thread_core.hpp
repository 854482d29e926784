// What weft/thread.hpp's inline code needs of the user-level thread machinery: a thread's
// type-erased body, the wait list every blocking primitive parks its waiters on, and the
// out-of-line entry points (src/threads/).
//
// The wait-list protocol. A WaitList is a FIFO of WaitNodes under a spin lock. A waiter
// locks the list, decides to wait, links its node (which lives on its own stack) and calls
// block(), which returns once a waker has signalled the node:
//   WL1 The waiter's list lock is released only after the waiter can be resumed: a
//       user-level thread releases it from its worker's own stack after switching away
//       (src/threads/worker_switch.cpp), so a waker that finds the node cannot make
//       the thread ready while it still runs.
//   WL2 A waker unlinks the node under the list lock, fills in what the waiter is handed
//       (`handed`), and then signals it with wake(): the last access to the node, since the
//       waiter may return and pop its frame as soon as it is signalled.
//   WL3 A node's waiter is either a user-level thread (parked: wake() makes it ready) or a
//       task running on a worker's own stack, which cannot be parked: it waits by running
//       ready user-level threads, each on its own stack, until `signaled` is set (release
//       by the waker, acquire by the waiter). It never runs a task on its own stack
//       meanwhile (a task may block on something the waiter holds: rayon #592); a task it
//       steals becomes a new thread with a stack of its own.
//
// Timed waits (a node with a deadline): the notifier and the deadline race to wake it.
//   TW1 Only a node with `deadline_ns` != 0 is claimed: pop_front skips a timed node whose
//       claim it loses, so a notify_one or a semaphore unit goes to the next waiter.
//   TW2 `claim` goes 0 -> 1 once (acq_rel CAS): by pop_front under the list lock, or by
//       the deadline, i.e. the pool's Timers for a parked thread (src/threads/timers.hpp)
//       or the waiting task's own loop. The claimer alone wakes the node.
//   TW3 The deadline's claimer unlinks the node if it is still queued, under the list lock,
//       sets `timed_out`, and wakes it. The list is still alive then: its waiter was not
//       notified (std's rule for destroying a condition variable).
//   TW4 A thread's timer entry may still be in Timers::expire's hands when the waiter
//       resumes: the waiter then waits for `timer_done` (release by the timer, acquire by
//       the waiter) before its node leaves the stack.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <type_traits>
#include <utility>

namespace weft::detail {

struct UThread;  // a user-level thread's control block (src/threads/uthread.hpp)
struct WorkerCore;

class ThreadBody {
 public:
  virtual ~ThreadBody() = default;
  virtual void run() = 0;
};

template <class F>
class ThreadBodyOf final : public ThreadBody {
 public:
  explicit ThreadBodyOf(F f) : f_(std::move(f)) {}
  void run() override { std::invoke(std::move(f_)); }

 private:
  F f_;
};

// What a WaitNode waits on, for the deadlock report and Runtime::dump_threads().
enum class WaitKind : std::uint8_t {
  kMutex,
  kConditionVariable,
  kSemaphore,
  kBarrier,
  kJoin,
  kSleep
};

struct WaitNode {
  UThread* thread = nullptr;  // the waiting user-level thread; nullptr: a task (WL3)
  std::atomic<bool> signaled{false};
  WaitNode* next = nullptr;
  std::uintptr_t handed = 0;  // what the waker handed over (a semaphore's units, a lock)
  // For reports, set before the node is queued and constant while it is: the primitive (the
  // UThread joined, for kJoin), and for kMutex the mutex's owner word.
  const void* waits_on = nullptr;
  WaitKind kind = WaitKind::kMutex;
  const std::atomic<const void*>* holder = nullptr;
  // Timed waits (TW1-TW4): the deadline on the steady clock (0: none), the list the node is
  // queued on, and the claim.
  std::int64_t deadline_ns = 0;
  class WaitList* list = nullptr;
  std::atomic<std::uint32_t> claim{0};
  std::atomic<bool> timer_done{false};
  bool timed_out = false;
};

class WaitList {
 public:
  void lock() noexcept;
  void unlock() noexcept { locked_.store(false, std::memory_order_release); }
  // Under the lock.
  bool empty() const noexcept { return head_ == nullptr; }
  void push_back(WaitNode& node) noexcept;
  // The oldest node this caller may wake (TW1), unlinked; nullptr if none.
  WaitNode* pop_front() noexcept;
  // Unlinks `node` if it is queued.
  void remove(WaitNode& node) noexcept;
  // Under the lock, with `node` linked: releases the lock once the caller can be resumed
  // (WL1) and returns when the node was signalled (true) or, for a node with a deadline,
  // when the deadline passed first (false; the node is unlinked then).
  bool block(WaitNode& node) noexcept;
  // Not under the lock: `node`'s deadline passed. True if the deadline won the node (TW2);
  // it is then unlinked and marked timed out (TW3), and the caller wakes it if it is parked.
  bool claim_at_deadline(WaitNode& node) noexcept;

 private:
  std::atomic<bool> locked_{false};  // acquire on lock, release on unlock
  WaitNode* head_ = nullptr;         // guarded by locked_
  WaitNode* tail_ = nullptr;
};

// Signals a node unlinked under its list's lock (WL2).
void wake(WaitNode* node) noexcept;

// The caller's identity for ownership checks (a user-level thread, or the worker whose own
// stack the calling task runs on); aborts with a message naming `what` when the caller is
// not under a runtime.
const void* sync_caller(const char* what) noexcept;
// The same check, returning the caller's core (its identity is sync_identity(core)).
WorkerCore* sync_core(const char* what) noexcept;
[[noreturn]] void thread_misuse(const char* message) noexcept;

UThread* start_thread(std::unique_ptr<ThreadBody> body, std::size_t stack_bytes);
// Waits for the thread to end, then rethrows what its body threw.
void join_thread(UThread* t);
void detach_thread(UThread* t) noexcept;
std::uint64_t thread_number(const UThread* t) noexcept;
// The calling user-level thread's number; 0 for a task, or outside a runtime.
std::uint64_t current_thread_number() noexcept;
void yield_thread() noexcept;

// The steady clock in nanoseconds, the deadlines' clock.
std::int64_t steady_now_ns() noexcept;
// A deadline `rel` from now on the steady clock, saturated (never 0: that means none).
template <class Rep, class Period>
std::int64_t steady_deadline_ns(const std::chrono::duration<Rep, Period>& rel) noexcept {
  using Ns = std::chrono::duration<long double, std::nano>;
  const long double ns = std::chrono::duration_cast<Ns>(rel).count();
  const long double limit = static_cast<long double>(std::numeric_limits<std::int64_t>::max() / 2);
  const std::int64_t now = steady_now_ns();
  if (!(ns < limit)) return std::numeric_limits<std::int64_t>::max();  // NaN too: forever
  if (ns <= 0) return now > 0 ? now : 1;
  return now + static_cast<std::int64_t>(ns + 0.999L);  // rounded up: never early
}
// The same for an absolute time on any clock (a non-steady one converted once, now).
template <class Clock, class Duration>
std::int64_t steady_deadline_ns(const std::chrono::time_point<Clock, Duration>& t) noexcept {
  return steady_deadline_ns(t - Clock::now());
}
// Parks the caller (a thread; a task runs ready threads meanwhile) until `deadline_ns`.
void sleep_until_ns(std::int64_t deadline_ns) noexcept;

}  // namespace weft::detail
