// spawn and Future: lazy task creation.
//
// spawn(f) constructs f in the next slot of the current worker's task stack and makes it
// stealable; it allocates nothing (unless f is larger than a slot), takes no lock and does no
// atomic read-modify-write. join() pops the slot and, if no thief took it, calls f inline.
//
// Rules (checked, never undefined):
//   - Join futures in the reverse order of their spawns (LIFO), on the task that spawned
//     them. A violation terminates the program with a message saying so, in every build,
//     with two exceptions: a future whose task already ran at its spawn (a full stack,
//     outside a runtime; spawn_if's cut-off tasks, in a MaybeFuture) holds its outcome and
//     may be joined anywhere, in any order;
//     and a child task joining its parent's future is caught only if the child was stolen.
//   - An unjoined Future is joined by its destructor, so the closure's references to the
//     spawning frame stay valid; an exception from a task joined that way is discarded.
//   - An exception thrown by a task is rethrown by its join.
//   - Outside any runtime, spawn runs f at once (serial elision) and join returns its value.
//   - When the worker's task stack is full, spawn runs f at once, too.
//   - Under the request mechanism, spawn and join are where a worker notices steal
//     requests; a long stretch of code without either should call weft::poll().
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <new>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "weft/detail/slot.hpp"
#include "weft/detail/worker_core.hpp"

namespace weft {

using detail::Unit;

// A Future<T> is type-erased; spawn returns a Future<T, C> that also knows the stored
// closure type C, so that its inline join is a direct call. Both join the same way, and a
// Future<T, C> converts to Future<T> (e.g. to keep futures in a weft::FutureVector).
namespace detail {
// The one way to make a future from a word: spawn and spawn_if, and the C interface, which
// keeps a future as its word between weft_spawn and weft_join.
struct FutureAccess {
  template <class Fut>
  static Fut make(std::uintptr_t word) noexcept {
    return Fut::from_word(word);
  }
  // The C interface keeps a future as its word: takes the word, leaving the future empty.
  template <class Fut>
  static std::uintptr_t release(Fut& f) noexcept {
    return f.release_word();
  }
  // The C interface's inline join (weft.h) pops the slot itself; when a thief is at it, this
  // settles the pop as a join whose check failed would.
  template <class Fut>
  static typename Fut::value_type join_contended(WorkerCore* w, Slot* s) {
    return Fut::join_contended(w, s);
  }
  // A MaybeFuture joins its spawned task's word as Future::join would.
  template <class Fut>
  static typename Fut::value_type join_word(std::uintptr_t word) {
    return Fut::join_word(word);
  }
};
}  // namespace detail

template <class T, class C = void>
class [[nodiscard]] Future;

namespace detail {
// A Future is one word, so that spawn and join keep it in a register and no out-of-line
// code ever takes its address:
//   an even, non-zero word   the task-stack slot its task was pushed into (64-byte aligned);
//   kEmptyFuture (1)         joined, moved from, or default-constructed;
//   a heap slot | kReadyBit  the task already ran at the spawn (no runtime, or a full task
//                            stack), and its outcome waits in that slot.
inline constexpr std::uintptr_t kReadyBit = 1;
inline constexpr std::uintptr_t kEmptyFuture = 1;

// Slots for spawns that run at once (src/tasks/ready_slots.cpp): each thread keeps the ones
// it freed for its next ones, so a full task stack does not allocate per task.
Slot* new_ready_slot();
void delete_ready_slot(Slot* s) noexcept;

template <class Fn, class Arg>
void construct_closure(Slot* s, Arg&& fn) {
  if constexpr (kFitsInSlot<Fn>) {
    ::new (static_cast<void*>(s->storage)) Fn(std::forward<Arg>(fn));
  } else {
    ::new (static_cast<void*>(s->storage))
        BoxedClosure<Fn>{std::make_unique<Fn>(std::forward<Arg>(fn))};
  }
}

// The word a Future keeps for a ready slot whose storage holds `outcome`.
inline std::uintptr_t ready_word(Slot* r, Outcome outcome) noexcept {
  r->state.store(static_cast<std::uint32_t>(outcome), std::memory_order_relaxed);
  return reinterpret_cast<std::uintptr_t>(r) | kReadyBit;
}

// Runs a task now and keeps its outcome in a ready slot (no allocation once the thread has
// one free); returns the future's word.
template <class Fn, class T, class Arg>
std::uintptr_t run_now(Arg&& fn) {
  Slot* r = new_ready_slot();
  construct_closure<Fn>(r, std::forward<Arg>(fn));
  return ready_word(r, exec_closure<StoredClosure<Fn>, T>(r));
}

// Pushes a task into `s`, the top slot (not full); returns the future's word.
template <class Fn, class T, class Arg>
std::uintptr_t push_task(WorkerCore* w, Slot* s, Arg&& fn) {
  construct_closure<Fn>(s, std::forward<Arg>(fn));
  s->exec = &exec_closure<StoredClosure<Fn>, T>;
  w->stack.publish(s);
  return reinterpret_cast<std::uintptr_t>(s);
}

// The spawn whose check failed: a counting stack (count, then push), a steal request pending
// (answer it, then push), or a task that cannot be pushed (serial elision, or a full task
// stack: run it now). Off the fast path, which counts nothing.
// The closure comes by value: a small one then travels in registers, and the caller's frame
// has no local whose address escapes (which would keep the compiler from keeping the
// caller's variables in registers across its calls).
template <class Fn, class T>
[[gnu::noinline]] std::uintptr_t spawn_slow(WorkerCore* w, Fn fn) {
  if (w->stack.request_flagged()) serve_steal_requests(w);
  Slot* s = w->stack.top();
  if (!w->stack.full(s)) {
    if (w->stack.counting()) w->spawns.bump();
    return push_task<Fn, T>(w, s, std::move(fn));
  }
  note_overflow_spawn(w);
  return run_now<Fn, T>(std::move(fn));
}
}  // namespace detail

template <class T, class C>
class [[nodiscard]] Future {
  static_assert(!std::is_reference_v<T>,
                "weft: a task may not return a reference; return a pointer or a "
                "std::reference_wrapper instead");

 public:
  using value_type = T;

  Future() noexcept = default;
  Future(Future&& other) noexcept : word_(std::exchange(other.word_, detail::kEmptyFuture)) {}
  // clang-format 14 runs a requires clause into the declaration it constrains.
  // clang-format off
  template <class C2>
    requires(std::is_void_v<C> && !std::is_void_v<C2>)
  Future(Future<T, C2>&& other) noexcept  // NOLINT: implicit erasure is the point
      : word_(std::exchange(other.word_, detail::kEmptyFuture)) {}
  // clang-format on
  Future& operator=(Future&& other) noexcept {
    if (this != &other) {
      if (word_ != detail::kEmptyFuture) discard(word_);
      word_ = std::exchange(other.word_, detail::kEmptyFuture);
    }
    return *this;
  }
  Future(const Future&) = delete;
  Future& operator=(const Future&) = delete;
  ~Future() {
    if (word_ != detail::kEmptyFuture) [[unlikely]] {
      discard(word_);
    }
  }

  // True until joined (or moved from).
  bool valid() const noexcept { return word_ != detail::kEmptyFuture; }

  // Waits for the task and returns its value, or rethrows its exception. If the task was
  // not stolen, runs it here and now.
  //
  // Only the not-stolen path is inline; the rest is out of line and takes the word by
  // value, so that spawn and join add little code to the caller and never make the future
  // escape: small recursive functions then compile about as tightly as their serial forms.
  // One compare sorts out every other case: a future whose task ran at the spawn, an empty
  // one and an out-of-order join all have a word that top_if() rejects.
  T join() { return join_word(std::exchange(word_, detail::kEmptyFuture)); }

 private:
  template <class, class>
  friend class Future;
  friend struct detail::FutureAccess;

  static T join_word(std::uintptr_t word) {
    // Outside a worker this is the serial worker, whose stack has no top: top_if() fails.
    detail::WorkerCore* w = detail::current_worker();
    if (detail::Slot* s = w->stack.top_if(word)) [[likely]] {
      if (w->stack.pop_top(s)) [[likely]] {
        return run_inline(s);
      }
      return join_contended(w, s);
    }
    return join_not_top(w, word);
  }

  // For spawn and spawn_if only (through FutureAccess): a word names a slot, and a future
  // made from any other word would pop or free memory it does not own.
  static Future from_word(std::uintptr_t word) noexcept {
    Future f;
    f.word_ = word;
    return f;
  }
  std::uintptr_t release_word() noexcept { return std::exchange(word_, detail::kEmptyFuture); }

// GCC follows a constant empty word (a join of a default-constructed future) into the pop
// path that top_if() rules out at run time, and warns that the slot is out of bounds there;
// and, depending on what else it inlined, GCC 12 may take a closure moved out of the slot
// (a std::string capture) for uninitialized, which the slot's construction rules out.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Warray-bounds"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
  static T run_inline(detail::Slot* s) {
    if constexpr (std::is_void_v<C>) {
      return collect(s, s->exec(s));
    } else {
      // Move the closure out first: the slot is popped, and the closure's own spawns will
      // reuse it. For small closures this is the load of the captures into registers.
      C* in_slot = s->as<C>();
      C closure(std::move(*in_slot));
      in_slot->~C();
      return std::invoke(std::move(closure));
    }
  }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

  // The pop's check failed: the stack is fenced (every pop comes here, and decides here
  // unless a thief is at the slot), a thief is at the slot (concurrent), or a request is
  // pending or the slot was handed out (request). Settle it; run the task here if it is still
  // ours.
  [[gnu::noinline]] static T join_contended(detail::WorkerCore* w, detail::Slot* s) {
    if (w->stack.fenced() && w->stack.pop_top_fenced(s)) [[likely]] {
      return run_inline(s);
    }
    if (detail::settle_pop(w, s)) return run_inline(s);
    const detail::Outcome outcome = detail::wait_for_stolen(w, s);
    if (outcome == detail::Outcome::kException) {
      std::exception_ptr e = detail::take_exception(s);
      w->stack.release_stolen(s);
      std::rethrow_exception(std::move(e));
    }
    if constexpr (std::is_void_v<T>) {
      s->as<Unit>()->~Unit();
      w->stack.release_stolen(s);
    } else {
      T v = detail::take_value<T>(s);
      w->stack.release_stolen(s);
      return v;
    }
  }

  // The word does not name the newest task on this worker: the task ran at its spawn (take
  // its outcome from the heap slot), the future is empty, or the join is out of order.
  [[gnu::noinline]] static T join_not_top(detail::WorkerCore* w, std::uintptr_t word) {
    if (word == detail::kEmptyFuture) {
      throw std::logic_error(
          "weft::Future::join: the future is empty (already joined, moved from, or "
          "default-constructed)");
    }
    if ((word & detail::kReadyBit) == 0) {
      w->stack.lifo_violation(reinterpret_cast<detail::Slot*>(word));
    }
    detail::Slot* r = reinterpret_cast<detail::Slot*>(word & ~detail::kReadyBit);
    struct Free {
      detail::Slot* r;
      ~Free() { detail::delete_ready_slot(r); }
    } free_slot{r};
    return collect(r, static_cast<detail::Outcome>(r->state.load(std::memory_order_relaxed)));
  }

  // Takes the outcome left in the slot by exec_closure.
  static T collect(detail::Slot* s, detail::Outcome outcome) {
    if (outcome == detail::Outcome::kException) [[unlikely]] {
      std::rethrow_exception(detail::take_exception(s));
    }
    if constexpr (std::is_void_v<T>) {
      s->as<Unit>()->~Unit();
    } else {
      return detail::take_value<T>(s);
    }
  }

  [[gnu::noinline]] static void discard(std::uintptr_t word) noexcept {
    Future f = from_word(word);
    try {
      (void)f.join();
    } catch (...) {  // NOLINT: an unjoined task's exception has nobody to go to
    }
  }

  std::uintptr_t word_ = detail::kEmptyFuture;
};

template <class F>
using SpawnResult = std::invoke_result_t<std::decay_t<F>>;

template <class F>
using SpawnedFuture = Future<SpawnResult<F>, detail::StoredClosure<std::decay_t<F>>>;

namespace detail {
// spawn, returning the future's word: a word travels in a register, where a Future (which
// has a destructor) is returned through memory. weft::Scope keeps its children this way.
// Always inlined, so that weft::spawn is the same code as when this body was its own.
template <class F>
[[gnu::always_inline]] inline std::uintptr_t spawn_word(F&& fn) {
  using Fn = std::decay_t<F>;
  static_assert(std::is_invocable_v<Fn>,
                "weft::spawn: the task must be callable with no arguments");
  static_assert(std::is_move_constructible_v<Fn>, "weft::spawn: the task must be movable");
  WorkerCore* w = current_worker();  // the serial worker outside a runtime
  Slot* s = w->stack.top();
  // One check sends a full stack, the serial worker (no slots), a pending steal request
  // (request mechanism) and a counting stack off the fast path.
  if (!w->stack.diverts(s)) [[likely]] {
    return push_task<Fn, SpawnResult<F>>(w, s, std::forward<F>(fn));
  }
  // A counting stack goes out of line too, where spawn_slow counts and pushes. (Counting and
  // pushing here instead, without the call, made every spawn site larger: UTS's spawning loop
  // at 1 worker ran 9 % slower with the same instruction count within 0.6 %.)
  return spawn_slow<Fn, SpawnResult<F>>(w, Fn(std::forward<F>(fn)));
}
}  // namespace detail

// Makes `fn` a task the current worker's thieves may steal, and returns its future.
template <class F>
SpawnedFuture<F> spawn(F&& fn) {
  return detail::FutureAccess::make<SpawnedFuture<F>>(detail::spawn_word(std::forward<F>(fn)));
}

}  // namespace weft
