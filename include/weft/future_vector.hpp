// FutureVector: a growing list of futures that is safe to leave early.
//
// Futures must be joined newest first, and an unjoined future is joined by its destructor.
// A std::vector<Future<T>> destroys its elements front to back, oldest first, so an early
// return or an exception in a loop of spawns breaks that order and aborts. FutureVector
// keeps the futures the same way but joins newest first: in join_all(), and in its
// destructor for whatever is left.
#pragma once

#include <cstddef>
#include <exception>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "weft/future.hpp"

namespace weft {

template <class T>
class FutureVector {
 public:
  FutureVector() = default;
  FutureVector(const FutureVector&) = delete;
  FutureVector& operator=(const FutureVector&) = delete;
  FutureVector(FutureVector&&) noexcept = default;
  FutureVector& operator=(FutureVector&& other) noexcept {
    if (this != &other) {
      join_all_discarding();
      futures_ = std::move(other.futures_);
    }
    return *this;
  }
  // Joins what is left, newest first; their values and exceptions are discarded.
  ~FutureVector() { join_all_discarding(); }

  // Spawns fn() and keeps its future as the newest.
  template <class F>
  void spawn(F&& fn) {
    static_assert(std::is_same_v<SpawnResult<F>, T>,
                  "weft::FutureVector<T>::spawn: the task must return T");
    push_back(weft::spawn(std::forward<F>(fn)));
  }
  // Keeps a future spawned by the caller; it must be newer than every future kept already.
  void push_back(Future<T>&& f) { futures_.push_back(std::move(f)); }
  void reserve(std::size_t n) { futures_.reserve(n); }

  std::size_t size() const noexcept { return futures_.size(); }
  bool empty() const noexcept { return futures_.empty(); }

  // Joins every future, newest first. Returns the values in the order of the spawns (nothing
  // for T = void); if any task threw, rethrows the first exception in join order once all
  // are joined. The vector is empty afterwards.
  auto join_all() {
    std::exception_ptr first;
    if constexpr (std::is_void_v<T>) {
      for (; !futures_.empty(); futures_.pop_back()) {
        try {
          futures_.back().join();
        } catch (...) {
          if (!first) first = std::current_exception();
        }
      }
      if (first) std::rethrow_exception(first);
    } else {
      std::vector<std::optional<T>> joined(futures_.size());
      for (; !futures_.empty(); futures_.pop_back()) {
        try {
          joined[futures_.size() - 1].emplace(futures_.back().join());
        } catch (...) {
          if (!first) first = std::current_exception();
        }
      }
      if (first) std::rethrow_exception(first);
      std::vector<T> values;
      values.reserve(joined.size());
      for (std::optional<T>& v : joined) values.push_back(std::move(*v));
      return values;
    }
  }

 private:
  void join_all_discarding() noexcept {
    // pop_back destroys the newest future, whose destructor joins it.
    while (!futures_.empty()) futures_.pop_back();
  }

  std::vector<Future<T>> futures_;
};

}  // namespace weft
