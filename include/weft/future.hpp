// spawn and Future: lazy task creation.
//
// spawn(f) constructs f in the next slot of the current worker's task stack and makes it
// stealable; it allocates nothing (unless f is larger than a slot), takes no lock and does no
// atomic read-modify-write. join() pops the slot and, if no thief took it, calls f inline.
//
// Rules (checked, never undefined):
//   - Join futures in the reverse order of their spawns (LIFO), on the task that spawned
//     them. A violation terminates the program with a message saying so, in every build.
//   - An unjoined Future is joined by its destructor, so the closure's references to the
//     spawning frame stay valid; an exception from a task joined that way is discarded.
//   - An exception thrown by a task is rethrown by its join.
//   - Outside any runtime, spawn runs f at once (serial elision) and join returns its value.
//   - When the worker's task stack is full, spawn runs f at once, too.
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
// Future<T, C> converts to Future<T> (e.g. to keep futures in a container).
template <class T, class C = void>
class [[nodiscard]] Future;

namespace detail {
// A Future's state in one word: a slot pointer (slots are 64-byte aligned, so never below
// 64), or one of these small tags. One word keeps spawn and join to a register move.
enum FutureTag : std::uintptr_t { kEmptyTag = 0, kValueTag = 1, kExceptionTag = 2 };

template <class Fn, class Arg>
void construct_closure(Slot* s, Arg&& fn) {
  if constexpr (kFitsInSlot<Fn>) {
    ::new (static_cast<void*>(s->storage)) Fn(std::forward<Arg>(fn));
  } else {
    ::new (static_cast<void*>(s->storage))
        BoxedClosure<Fn>{std::make_unique<Fn>(std::forward<Arg>(fn))};
  }
}
}  // namespace detail

template <class T, class C>
class [[nodiscard]] Future {
  static_assert(!std::is_reference_v<T>,
                "weft: a task may not return a reference; return a pointer or a "
                "std::reference_wrapper instead");
  using Value = detail::ValueOf<T>;

 public:
  using value_type = T;

  Future() noexcept {}
  Future(Future&& other) noexcept { take_from(other); }
  template <class C2>
    requires(std::is_void_v<C> && !std::is_void_v<C2>)
  Future(Future<T, C2>&& other) noexcept {  // NOLINT: implicit erasure is the point
    take_from(other);
  }
  Future& operator=(Future&& other) noexcept {
    if (this != &other) {
      discard();
      take_from(other);
    }
    return *this;
  }
  Future(const Future&) = delete;
  Future& operator=(const Future&) = delete;
  ~Future() { discard(); }

  // True until joined (or moved from).
  bool valid() const noexcept { return word_ != detail::kEmptyTag; }

  // Waits for the task and returns its value, or rethrows its exception. If the task was
  // not stolen, runs it here and now.
  T join() {
    const std::uintptr_t word = word_;
    if (word > detail::kExceptionTag) [[likely]] {
      word_ = detail::kEmptyTag;
      return join_slot(reinterpret_cast<detail::Slot*>(word));
    }
    return take_ready();
  }

  // For spawn: a future of a task pushed into slot `s`.
  static Future pushed(detail::Slot* s) noexcept {
    Future f;
    f.word_ = reinterpret_cast<std::uintptr_t>(s);
    return f;
  }

  // For spawn: runs `fn` now (serial elision, or a full task stack) and keeps the outcome.
  template <class F>
  static Future run_now(F&& fn) noexcept {
    Future f;
    try {
      if constexpr (std::is_void_v<T>) {
        std::invoke(std::forward<F>(fn));
        ::new (static_cast<void*>(&f.value_)) Value{};
      } else {
        ::new (static_cast<void*>(&f.value_)) Value(std::invoke(std::forward<F>(fn)));
      }
      f.word_ = detail::kValueTag;
    } catch (...) {
      ::new (static_cast<void*>(&f.error_)) std::exception_ptr(std::current_exception());
      f.word_ = detail::kExceptionTag;
    }
    return f;
  }

 private:
  template <class, class>
  friend class Future;

  static T join_slot(detail::Slot* s) {
    // On a thread that is no worker this is the serial worker, whose pop reports the misuse.
    detail::WorkerCore* w = detail::current_worker();
    if (w->stack.pop(s)) [[likely]] {
      return run_inline(s);
    }
    return collect_stolen(w, s, detail::wait_for_stolen(w, s));
  }

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

  static T collect_stolen(detail::WorkerCore* w, detail::Slot* s, detail::Outcome outcome) {
    if (outcome == detail::Outcome::kException) {
      std::exception_ptr e = detail::take_exception(s);
      w->stack.release_stolen(s);
      std::rethrow_exception(std::move(e));
    }
    if constexpr (std::is_void_v<T>) {
      w->stack.release_stolen(s);
    } else {
      T v = detail::take_value<T>(s);
      w->stack.release_stolen(s);
      return v;
    }
  }

  T take_ready() {
    if (word_ == detail::kValueTag) {
      word_ = detail::kEmptyTag;
      Value v(std::move(value_));
      value_.~Value();
      if constexpr (!std::is_void_v<T>) return v;
    } else if (word_ == detail::kExceptionTag) {
      word_ = detail::kEmptyTag;
      std::exception_ptr e = std::move(error_);
      error_.~exception_ptr();
      std::rethrow_exception(std::move(e));
    } else {
      throw std::logic_error(
          "weft::Future::join: the future is empty (already joined, moved from, or "
          "default-constructed)");
    }
  }

  template <class C2>
  void take_from(Future<T, C2>& other) noexcept {
    word_ = other.word_;
    if (word_ == detail::kValueTag) {
      ::new (static_cast<void*>(&value_)) Value(std::move(other.value_));
      other.value_.~Value();
    } else if (word_ == detail::kExceptionTag) {
      ::new (static_cast<void*>(&error_)) std::exception_ptr(std::move(other.error_));
      other.error_.~exception_ptr();
    }
    other.word_ = detail::kEmptyTag;
  }

  void discard() noexcept {
    if (word_ == detail::kEmptyTag) return;
    try {
      (void)join();
    } catch (...) {  // NOLINT: an unjoined task's exception has nobody to go to
    }
  }

  std::uintptr_t word_ = detail::kEmptyTag;
  union {
    Value value_;
    std::exception_ptr error_;
  };
};

template <class F>
using SpawnResult = std::invoke_result_t<std::decay_t<F>>;

template <class F>
using SpawnedFuture = Future<SpawnResult<F>, detail::StoredClosure<std::decay_t<F>>>;

// Makes `fn` a task the current worker's thieves may steal, and returns its future.
template <class F>
SpawnedFuture<F> spawn(F&& fn) {
  using Fn = std::decay_t<F>;
  static_assert(std::is_invocable_v<Fn>, "weft::spawn: the task must be callable with no arguments");
  static_assert(std::is_move_constructible_v<Fn>, "weft::spawn: the task must be movable");
  detail::WorkerCore* w = detail::current_worker();  // the serial worker outside a runtime
  detail::Slot* s = w->stack.top();
  if (!w->stack.full(s)) [[likely]] {
    detail::construct_closure<Fn>(s, std::forward<F>(fn));
    s->exec = &detail::exec_closure<detail::StoredClosure<Fn>, SpawnResult<F>>;
    w->stack.publish(s);
    w->spawns.bump();
    return SpawnedFuture<F>::pushed(s);
  }
  // A full task stack, or no runtime (the serial worker's stack has no slots): run it now.
  detail::note_overflow_spawn(w);
  return SpawnedFuture<F>::run_now(std::forward<F>(fn));
}

}  // namespace weft
