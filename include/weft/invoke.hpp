// Structured helpers over spawn/join: invoke (two tasks in parallel) and scope (any number of
// children, all joined when the scope ends).
#pragma once

#include <exception>
#include <functional>
#include <type_traits>
#include <utility>
#include <vector>

#include "weft/future.hpp"

namespace weft {

// Runs f and g in parallel (g may be stolen while f runs here) and returns both results;
// a task returning void contributes weft::Unit. If either throws, the other is still joined
// and the exception propagates (f's first if both throw).
template <class F, class G>
auto invoke(F&& f, G&& g) -> std::pair<detail::ValueOf<std::invoke_result_t<F>>,
                                       detail::ValueOf<std::invoke_result_t<G>>> {
  using RF = std::invoke_result_t<F>;
  using RG = std::invoke_result_t<G>;
  auto g_future = spawn(std::forward<G>(g));
  if constexpr (std::is_void_v<RF>) {
    std::invoke(std::forward<F>(f));
    if constexpr (std::is_void_v<RG>) {
      g_future.join();
      return {Unit{}, Unit{}};
    } else {
      return {Unit{}, g_future.join()};
    }
  } else {
    RF a = std::invoke(std::forward<F>(f));
    if constexpr (std::is_void_v<RG>) {
      g_future.join();
      return {std::move(a), Unit{}};
    } else {
      RG b = g_future.join();
      return {std::move(a), std::move(b)};
    }
  }
}

// The children of one weft::scope call. Children return void and are joined in reverse
// order of spawning when the scope ends; they may capture the enclosing frame by reference.
// The first kInlineChildren futures live in the Scope itself, so a scope of a few children
// (most divide-and-conquer nodes) allocates nothing; more go to a vector.
class Scope {
 public:
  static constexpr std::size_t kInlineChildren = 8;

  template <class F>
  void spawn(F&& fn) {
    static_assert(std::is_void_v<std::invoke_result_t<std::decay_t<F>>>,
                  "weft::Scope::spawn: children return void; write results through captures");
    if (size_ < kInlineChildren) {
      inline_[size_] = weft::spawn(std::forward<F>(fn));
    } else {
      overflow_.emplace_back(weft::spawn(std::forward<F>(fn)));
    }
    ++size_;
  }
  std::size_t size() const noexcept { return size_; }

  Scope() = default;
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;
  ~Scope() { join_all_discarding(); }

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
        newest().join();
      } catch (...) {
        if (!first) first = std::current_exception();
      }
      drop_newest();
    }
    if (first) std::rethrow_exception(first);
  }

 private:
  Future<void>& newest() noexcept {
    return size_ > kInlineChildren ? overflow_.back() : inline_[size_ - 1];
  }
  void drop_newest() noexcept {
    if (size_ > kInlineChildren) overflow_.pop_back();  // a joined future: nothing to do
    --size_;
  }
  void join_all_discarding() noexcept {
    for (; size_ > 0; drop_newest()) {
      Future<void> child = std::move(newest());  // its destructor joins
    }
  }

  std::size_t size_ = 0;
  Future<void> inline_[kInlineChildren];
  std::vector<Future<void>> overflow_;
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
