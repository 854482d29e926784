// Structured helpers over spawn/join: invoke (two tasks in parallel) and scope (any number of
// children, all joined when the scope ends).
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <type_traits>
#include <utility>
#include <vector>

#include "weft/future.hpp"

namespace weft {

namespace detail {
// invoke's second function, called here: its value, or Unit for void.
template <class G>
ValueOf<std::invoke_result_t<G>> call_for_value(G&& g) {
  if constexpr (std::is_void_v<std::invoke_result_t<G>>) {
    std::invoke(std::forward<G>(g));
    return Unit{};
  } else {
    return std::invoke(std::forward<G>(g));
  }
}

// g threw while f's task (its future's word) was pending: joins f, whose own exception, if
// it threw too, propagates instead of g's. Out of line: the throwing path adds no code to
// the caller's frame.
template <class FutureF>
[[gnu::noinline]] void join_first_after_throw(std::uintptr_t f_word) {
  (void)FutureAccess::make<FutureF>(f_word).join();
}
}  // namespace detail

// Runs f and g in parallel and returns both results; a task returning void contributes
// weft::Unit. f is spawned (a thief may take it) and g runs here, as Cilk's `spawn f(); g();
// sync;`: put the larger half first, and the thief gets it. If either throws, the other is
// still joined and the exception propagates (f's if both throw).
//
// Why the frame holds f's future as a bare word and catches rather than lets a Future's
// destructor clean up: a destructor across g's call is an exception cleanup, and GCC splits
// no function (the `n < 2` test of a recursion, inlined into its callers) and turns no
// recursion into a loop across one; a handler that joins f and rethrows keeps the guarantee
// (f is joined before the frame is left) and lets both happen (docs/TASK_STACK.md,
// "Forms over the task stack").
template <class F, class G>
auto invoke(F&& f, G&& g) -> std::pair<detail::ValueOf<std::invoke_result_t<F>>,
                                       detail::ValueOf<std::invoke_result_t<G>>> {
  using FutureF = SpawnedFuture<F>;
  using VG = detail::ValueOf<std::invoke_result_t<G>>;
  // The join reads the core again rather than keep it across g's call: one register fewer,
  // which measured cheaper (31.49 instructions a fib node against 32.40).
  const std::uintptr_t f_word = detail::spawn_word(std::forward<F>(f));
  VG b = [&]() -> VG {
    try {
      return detail::call_for_value(std::forward<G>(g));
    } catch (...) {
      detail::join_first_after_throw<FutureF>(f_word);
      throw;
    }
  }();
  if constexpr (std::is_void_v<std::invoke_result_t<F>>) {
    detail::FutureAccess::make<FutureF>(f_word).join();
    return {Unit{}, std::move(b)};
  } else {
    auto a = detail::FutureAccess::make<FutureF>(f_word).join();
    return {std::move(a), std::move(b)};
  }
}

namespace detail {
// invoke_if's serial branch: f() then g(), two plain calls. If f throws, g still runs (its own
// exception dropped) and f's propagates, as invoke would have it; the handler is on the throw
// path only, so the calls compile as they would without it.
template <class F, class G>
[[gnu::always_inline]] inline auto call_both(F&& f, G&& g)
    -> std::pair<ValueOf<std::invoke_result_t<F>>, ValueOf<std::invoke_result_t<G>>> {
  using VF = ValueOf<std::invoke_result_t<F>>;
  VF a = [&]() -> VF {
    try {
      return call_for_value(std::forward<F>(f));
    } catch (...) {
      try {
        (void)call_for_value(std::forward<G>(g));
      } catch (...) {  // NOLINT: f's exception wins, as in invoke
      }
      throw;
    }
  }();
  return {std::move(a), call_for_value(std::forward<G>(g))};
}
}  // namespace detail

// invoke(f, g) when `cond` holds; otherwise f() and then g(), here, as two plain calls: no
// task on the stack, no counter, no check (a cut-off, as spawn_if's, for a recursion whose
// small calls should cost what serial calls do). Either way both run, and if either throws
// the exception propagates, f's if both do.
template <class F, class G>
auto invoke_if(bool cond, F&& f, G&& g) -> std::pair<detail::ValueOf<std::invoke_result_t<F>>,
                                                     detail::ValueOf<std::invoke_result_t<G>>> {
  if (cond) return invoke(std::forward<F>(f), std::forward<G>(g));
  return detail::call_both(std::forward<F>(f), std::forward<G>(g));
}

// The children of one weft::scope call. Children return void and are joined in reverse
// order of spawning when the scope ends; they may capture the enclosing frame by reference.
// The first kInlineChildren futures live in the Scope itself, so a scope of a few children
// (most divide-and-conquer nodes) allocates nothing; more go to a vector.
//
// The Scope keeps each child's future as its bare word (future.hpp), not as a Future: a
// Future has a destructor, so it is returned through memory, and an array of them costs a
// constructor and a destructor per element on every scope, spawned into or not. Words below
// size_ are the unjoined children; nothing else in inline_ is ever read.
class Scope {
 public:
  static constexpr std::size_t kInlineChildren = 8;

  template <class F>
  void spawn(F&& fn) {
    static_assert(std::is_void_v<std::invoke_result_t<std::decay_t<F>>>,
                  "weft::Scope::spawn: children return void; write results through captures");
    if (size_ < kInlineChildren) [[likely]] {
      inline_[size_] = detail::spawn_word(std::forward<F>(fn));
    } else {
      // Room first: once the child is spawned, keeping its word must not throw.
      if (overflow_.size() == overflow_.capacity()) overflow_.reserve(2 * overflow_.size() + 8);
      overflow_.push_back(detail::spawn_word(std::forward<F>(fn)));
    }
    ++size_;
  }
  std::size_t size() const noexcept { return size_; }

  Scope() noexcept {}  // inline_ stays unwritten until a spawn fills it
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;
  ~Scope() {
    if (size_ > 0) [[unlikely]] {
      join_all_discarding();
    }
  }

  // Joins every child, newest first; rethrows the first exception (in join order) after all
  // children have been joined.
  void join_all() {
    // A wide scope (its futures spilled to the heap) has just made a burst of tasks
    // stealable: wake a sleeper for them. Narrower ones, the nodes of divide and conquer,
    // pay nothing for it.
    if (size_ > kInlineChildren) detail::offer_work(detail::current_worker());
    std::exception_ptr first;
    while (size_ > 0) {
      try {
        join_word(take_newest());
      } catch (...) {
        if (!first) first = std::current_exception();
      }
    }
    if (first) std::rethrow_exception(first);
  }

 private:
  static void join_word(std::uintptr_t word) {
    detail::FutureAccess::join_word<Future<void>>(word);
  }
  // Removes the newest child's word from the scope and returns it.
  std::uintptr_t take_newest() noexcept {
    --size_;
    if (size_ < kInlineChildren) return inline_[size_];
    const std::uintptr_t word = overflow_.back();
    overflow_.pop_back();
    return word;
  }
  [[gnu::noinline]] void join_all_discarding() noexcept {
    while (size_ > 0) {
      try {
        join_word(take_newest());
      } catch (...) {  // NOLINT: the body threw first; a child's exception has nobody to go to
      }
    }
  }

  std::size_t size_ = 0;
  std::uintptr_t inline_[kInlineChildren];
  std::vector<std::uintptr_t> overflow_;
};

// Calls body(scope) and joins all the children it spawned before returning. If the body
// throws, the scope's destructor still joins every child (their exceptions are discarded)
// and the body's exception propagates; otherwise the first child exception is rethrown.
template <class Body>
void scope(Body&& body) {
  Scope s;
  std::invoke(std::forward<Body>(body), s);
  s.join_all();
}

}  // namespace weft
