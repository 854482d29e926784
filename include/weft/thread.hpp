// User-level threads and blocking synchronisation: weft::thread, weft::mutex,
// weft::condition_variable, weft::counting_semaphore and weft::barrier, with the interfaces of
// their std:: namesakes (std::unique_lock<weft::mutex>, std::scoped_lock, cv.wait(lock, pred)
// and the timed waits work as they do with the std:: types), and this_thread's yield, get_id,
// sleep_for and sleep_until.
//
// A weft::thread runs on its own small stack (Config::thread_stack_bytes, 16 KiB unless its
// options say otherwise) and carries its own task stack, so spawn, scope and parallel loops
// work inside it. Blocking in a thread parks the thread, never its worker: the worker runs
// other threads and tasks meanwhile. Which ready thread runs next is Config::thread_sched's
// choice (docs/THREADS.md, "Scheduling").
//
// Everything here must be used under a Runtime (inside run(), or a thread started there);
// anywhere else it aborts with a message, as do an unlock by a thread that does not hold the
// mutex, a second join, destroying a joinable thread, and an exception leaving a detached
// thread. A thread that overflows its stack dies with a message naming it and the stack's
// size; a deadlock of threads and tasks on these primitives is reported, with what each
// waits on (Config::deadlock); Runtime::dump_threads() lists the threads at any time.
#pragma once

#include <atomic>
#include <chrono>
#include <concepts>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <ostream>
#include <type_traits>
#include <utility>

#include "weft/detail/thread_core.hpp"
#include "weft/detail/worker_core.hpp"

namespace weft {

namespace detail {
// Who holds a mutex, for the owner check: the user-level thread, or the worker whose own
// stack the calling task runs on (sync_caller's answer, from the core sync_core returned).
inline const void* sync_identity(const WorkerCore* core) noexcept {
  return core->thread != nullptr ? static_cast<const void*>(core->thread)
                                 : static_cast<const void*>(core->runner);
}
}  // namespace detail

struct thread_options {
  std::size_t stack_bytes = 0;  // 0: Config::thread_stack_bytes (WEFT_THREAD_STACK)
};

class thread {
 public:
  class id {
   public:
    id() noexcept = default;
    friend bool operator==(id, id) noexcept = default;
    friend auto operator<=>(id, id) noexcept = default;
    friend std::ostream& operator<<(std::ostream& os, id i) { return os << i.number_; }
    // 1, 2, 3, ... in creation order within the process; 0 for "not a thread".
    std::uint64_t number() const noexcept { return number_; }

   private:
    friend class thread;
    friend id this_thread_id() noexcept;
    explicit id(std::uint64_t n) noexcept : number_(n) {}
    std::uint64_t number_ = 0;
  };

  thread() noexcept = default;
  template <class F>
  requires std::invocable<std::decay_t<F> &&> explicit thread(F&& f, thread_options options = {})
      : t_(detail::start_thread(
            std::make_unique<detail::ThreadBodyOf<std::decay_t<F>>>(std::forward<F>(f)),
            options.stack_bytes)) {}
  template <class F, class A, class... Args>
  requires(!std::same_as<std::decay_t<A>, thread_options>) &&
      std::invocable<std::decay_t<F>&&, std::decay_t<A>&&, std::decay_t<Args>&&...> explicit thread(
          F&& f, A&& a, Args&&... args)
      : thread([fn = std::forward<F>(f), first = std::forward<A>(a),
                ... rest = std::forward<Args>(args)]() mutable {
          std::invoke(std::move(fn), std::move(first), std::move(rest)...);
        }) {}

  thread(thread&& other) noexcept : t_(std::exchange(other.t_, nullptr)) {}
  thread& operator=(thread&& other) noexcept {
    if (t_ != nullptr) detail::thread_misuse("a joinable weft::thread was assigned to");
    t_ = std::exchange(other.t_, nullptr);
    return *this;
  }
  thread(const thread&) = delete;
  thread& operator=(const thread&) = delete;
  ~thread() {
    if (t_ != nullptr) detail::thread_misuse("a joinable weft::thread was destroyed");
  }

  bool joinable() const noexcept { return t_ != nullptr; }
  // Waits for the thread to end; rethrows the exception its function threw, if any.
  void join() {
    if (t_ == nullptr) detail::thread_misuse("join() of a weft::thread that is not joinable");
    detail::join_thread(std::exchange(t_, nullptr));
  }
  void detach() {
    if (t_ == nullptr) detail::thread_misuse("detach() of a weft::thread that is not joinable");
    detail::detach_thread(std::exchange(t_, nullptr));
  }
  id get_id() const noexcept { return t_ == nullptr ? id{} : id{detail::thread_number(t_)}; }

 private:
  detail::UThread* t_ = nullptr;
};

inline thread::id this_thread_id() noexcept { return thread::id{detail::current_thread_number()}; }

namespace this_thread {
// Lets other ready threads run; the caller stays ready. In a task (not a thread), returns.
inline void yield() noexcept { detail::yield_thread(); }
// Parks the calling thread until the time has passed, never its worker (a task waiting here
// runs ready threads meanwhile). Deadlines are fired by the workers at their scheduling
// points and by an idle one whose nap ends by them: a wake-up is late by the timer slack
// when a worker is idle, by the running threads' and tasks' time to their next switch
// when none is.
template <class Rep, class Period>
void sleep_for(const std::chrono::duration<Rep, Period>& rel) {
  if (rel > rel.zero()) detail::sleep_until_ns(detail::steady_deadline_ns(rel));
}
template <class Clock, class Duration>
void sleep_until(const std::chrono::time_point<Clock, Duration>& t) {
  detail::sleep_until_ns(detail::steady_deadline_ns(t));
}
// The calling thread's id; a default id in a task.
inline thread::id get_id() noexcept { return this_thread_id(); }
}  // namespace this_thread

class mutex {
 public:
  mutex() noexcept = default;
  mutex(const mutex&) = delete;
  mutex& operator=(const mutex&) = delete;

  void lock() {
    detail::WorkerCore* const core = detail::sync_core("weft::mutex::lock");
    std::uint32_t expected = kFree;
    // acquire: the previous holder's writes happen-before ours.
    if (!state_.compare_exchange_strong(expected, kLocked, std::memory_order_acquire,
                                        std::memory_order_relaxed)) {
      lock_contended();
    }
    owner_.store(detail::sync_identity(core), std::memory_order_relaxed);
    ++core->held_mutexes;
  }
  bool try_lock() {
    detail::WorkerCore* const core = detail::sync_core("weft::mutex::try_lock");
    std::uint32_t expected = kFree;
    if (!state_.compare_exchange_strong(expected, kLocked, std::memory_order_acquire,
                                        std::memory_order_relaxed)) {
      return false;
    }
    owner_.store(detail::sync_identity(core), std::memory_order_relaxed);
    ++core->held_mutexes;
    return true;
  }
  void unlock() {
    detail::WorkerCore* const core = detail::sync_core("weft::mutex::unlock");
    if (owner_.load(std::memory_order_relaxed) != detail::sync_identity(core)) unlock_misuse();
    --core->held_mutexes;
    owner_.store(nullptr, std::memory_order_relaxed);
    std::uint32_t expected = kLocked;
    // release: our writes happen-before the next holder's acquire.
    if (!state_.compare_exchange_strong(expected, kFree, std::memory_order_release,
                                        std::memory_order_relaxed)) {
      unlock_contended();
    }
  }

 private:
  friend class condition_variable;
  // The lock word: free, held, or held with waiters perhaps queued (SY1, SY3 in
  // src/threads/sync.cpp: kContended is set and cleared only under waiters_' lock; the
  // uncontended transitions free <-> held are single CASes).
  static constexpr std::uint32_t kFree = 0;
  static constexpr std::uint32_t kLocked = 1;
  static constexpr std::uint32_t kContended = 2;

  void lock_contended();
  [[noreturn]] void unlock_misuse() const noexcept;
  void unlock_contended() noexcept;

  std::atomic<std::uint32_t> state_{kFree};
  // The holder (relaxed: written and checked by the holder itself; others read it only for
  // reports).
  std::atomic<const void*> owner_{nullptr};
  detail::WaitList waiters_;
};

class condition_variable {
 public:
  condition_variable() noexcept = default;
  condition_variable(const condition_variable&) = delete;
  condition_variable& operator=(const condition_variable&) = delete;

  void notify_one() noexcept;
  void notify_all() noexcept;
  // Releases the lock and waits for a notification, then takes the lock back.
  void wait(std::unique_lock<mutex>& lock);
  template <class Predicate>
  void wait(std::unique_lock<mutex>& lock, Predicate pred) {
    while (!pred()) wait(lock);
  }
  // Timed waits, as std's: a time on another clock than the steady one is converted once,
  // when the wait starts. The predicate forms return pred()'s last value.
  template <class Clock, class Duration>
  std::cv_status wait_until(std::unique_lock<mutex>& lock,
                            const std::chrono::time_point<Clock, Duration>& t) {
    return wait_until_ns(lock, detail::steady_deadline_ns(t)) ? std::cv_status::no_timeout
                                                              : std::cv_status::timeout;
  }
  template <class Clock, class Duration, class Predicate>
  bool wait_until(std::unique_lock<mutex>& lock, const std::chrono::time_point<Clock, Duration>& t,
                  Predicate pred) {
    return wait_until_deadline(lock, detail::steady_deadline_ns(t), std::move(pred));
  }
  template <class Rep, class Period>
  std::cv_status wait_for(std::unique_lock<mutex>& lock,
                          const std::chrono::duration<Rep, Period>& rel) {
    return wait_until_ns(lock, detail::steady_deadline_ns(rel)) ? std::cv_status::no_timeout
                                                                : std::cv_status::timeout;
  }
  template <class Rep, class Period, class Predicate>
  bool wait_for(std::unique_lock<mutex>& lock, const std::chrono::duration<Rep, Period>& rel,
                Predicate pred) {
    return wait_until_deadline(lock, detail::steady_deadline_ns(rel), std::move(pred));
  }

 private:
  template <class>
  friend class barrier;
  // wait(), reported as a wait on `what` of `kind` (a barrier waits on its condition), until
  // `deadline_ns` on the steady clock (0: none). True when notified, false at the deadline.
  bool wait_as(std::unique_lock<mutex>& lock, detail::WaitKind kind, const void* what,
               std::int64_t deadline_ns);
  bool wait_until_ns(std::unique_lock<mutex>& lock, std::int64_t deadline_ns);
  template <class Predicate>
  bool wait_until_deadline(std::unique_lock<mutex>& lock, std::int64_t deadline_ns,
                           Predicate pred) {
    while (!pred()) {
      if (!wait_until_ns(lock, deadline_ns)) return pred();
    }
    return true;
  }

  detail::WaitList waiters_;
};

template <std::ptrdiff_t LeastMaxValue = std::numeric_limits<std::ptrdiff_t>::max()>
class counting_semaphore;

namespace detail {
// The semaphore's non-template part (out of line).
class SemaphoreCore {
 public:
  explicit SemaphoreCore(std::ptrdiff_t initial) noexcept : count_(initial) {}
  void release(std::ptrdiff_t n);
  void acquire();
  // acquire() until `deadline_ns` on the steady clock (0: none); false at the deadline.
  bool acquire_until_ns(std::int64_t deadline_ns);
  bool try_acquire() noexcept {
    (void)sync_caller("weft::counting_semaphore::try_acquire");
    std::ptrdiff_t c = count_.load(std::memory_order_relaxed);
    // acquire: the releaser's writes happen-before ours.
    while (c > 0) {
      if (count_.compare_exchange_weak(c, c - 1, std::memory_order_acquire,
                                       std::memory_order_relaxed)) {
        return true;
      }
    }
    return false;
  }

 private:
  std::atomic<std::ptrdiff_t> count_;  // units free; changed by CAS or under waiters_' lock
  WaitList waiters_;
};
}  // namespace detail

template <std::ptrdiff_t LeastMaxValue>
class counting_semaphore {
 public:
  static_assert(LeastMaxValue >= 0);
  static constexpr std::ptrdiff_t max() noexcept { return LeastMaxValue; }

  explicit counting_semaphore(std::ptrdiff_t desired) : core_(desired) {}
  counting_semaphore(const counting_semaphore&) = delete;
  counting_semaphore& operator=(const counting_semaphore&) = delete;

  void release(std::ptrdiff_t update = 1) { core_.release(update); }
  void acquire() { core_.acquire(); }
  bool try_acquire() noexcept { return core_.try_acquire(); }
  // As std's: a time on another clock than the steady one is converted once, at the call.
  template <class Rep, class Period>
  bool try_acquire_for(const std::chrono::duration<Rep, Period>& rel) {
    return core_.try_acquire() || core_.acquire_until_ns(detail::steady_deadline_ns(rel));
  }
  template <class Clock, class Duration>
  bool try_acquire_until(const std::chrono::time_point<Clock, Duration>& t) {
    return core_.try_acquire() || core_.acquire_until_ns(detail::steady_deadline_ns(t));
  }

 private:
  detail::SemaphoreCore core_;
};

using binary_semaphore = counting_semaphore<1>;

namespace detail {
struct NoCompletion {
  void operator()() noexcept {}
};
}  // namespace detail

// std::barrier's interface: each phase ends when `expected` threads (or tasks) have arrived;
// the last to arrive runs the completion function, then releases the others.
template <class CompletionFunction = detail::NoCompletion>
class barrier {
 public:
  class arrival_token {
   private:
    friend class barrier;
    explicit arrival_token(std::uint64_t phase) noexcept : phase_(phase) {}
    std::uint64_t phase_;
  };

  static constexpr std::ptrdiff_t max() noexcept {
    return std::numeric_limits<std::ptrdiff_t>::max();
  }

  explicit barrier(std::ptrdiff_t expected, CompletionFunction f = CompletionFunction())
      : expected_(expected), left_(expected), completion_(std::move(f)) {}
  barrier(const barrier&) = delete;
  barrier& operator=(const barrier&) = delete;

  [[nodiscard]] arrival_token arrive(std::ptrdiff_t n = 1) {
    std::unique_lock lock(mutex_);
    const std::uint64_t phase = phase_;
    left_ -= n;
    if (left_ <= 0) complete(lock);
    return arrival_token(phase);
  }
  void wait(arrival_token&& token) const {
    std::unique_lock lock(mutex_);
    while (phase_ == token.phase_)
      (void)changed_.wait_as(lock, detail::WaitKind::kBarrier, this, 0);
  }
  void arrive_and_wait() { wait(arrive()); }
  void arrive_and_drop() {
    std::unique_lock lock(mutex_);
    --expected_;
    if (--left_ <= 0) complete(lock);
  }

 private:
  void complete(std::unique_lock<mutex>&) {
    completion_();
    left_ = expected_;
    ++phase_;
    changed_.notify_all();
  }

  mutable mutex mutex_;
  mutable condition_variable changed_;
  std::ptrdiff_t expected_;  // guarded by mutex_
  std::ptrdiff_t left_;      // to arrive in this phase
  std::uint64_t phase_ = 0;
  CompletionFunction completion_;
};

}  // namespace weft
