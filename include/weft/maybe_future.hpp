// MaybeFuture: what spawn_if returns. Either the task was spawned, and the MaybeFuture wraps
// its Future, or the task already ran at the spawn_if, and the MaybeFuture holds its value
// inline: no task-stack slot, no ready slot, no allocation. So a task that a cutoff runs at
// once costs its call, a move of its value and one test at the join.
//
// The spawned case keeps every Future rule (LIFO joins, joined when destroyed unjoined,
// exceptions rethrown at the join); a MaybeFuture holding its outcome may be joined anywhere,
// in any order, on any thread. It converts to Future<T> (e.g. for a FutureVector), moving a
// held value into a ready slot.
//
// State, in one word beside the value's storage (every slot's word is at least 64):
//   kHeldValue (3)    `storage_` holds the task's value (a Unit for void);
//   any other word    a Future's word: the spawned task's slot, or, for a task that ran at
//                     once and threw, a ready slot holding the exception (rare, so it may
//                     cost the slot), or kEmptyFuture (joined, moved from, default).
// A ready slot's word is its 64-byte-aligned address with the low bit set, never 3.
#pragma once

#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <new>
#include <type_traits>
#include <utility>

#include "weft/future.hpp"

namespace weft {

namespace detail {
inline constexpr std::uintptr_t kHeldValue = 3;
struct RunHere {};
}  // namespace detail

template <class T, class C = void>
class [[nodiscard]] MaybeFuture {
  static_assert(!std::is_reference_v<T>,
                "weft: a task may not return a reference; return a pointer or a "
                "std::reference_wrapper instead");
  using Value = detail::ValueOf<T>;
  static_assert(std::is_move_constructible_v<Value>, "weft: a task's value must be movable");
  static constexpr bool kNothrowMove = std::is_nothrow_move_constructible_v<Value>;
  // Such a value moves as its bytes, with no test of the state (held or not alike).
  static constexpr bool kBytewise =
      std::is_trivially_copyable_v<Value> && std::is_trivially_destructible_v<Value>;

 public:
  using value_type = T;

  MaybeFuture() noexcept = default;
  // The spawned case: takes over the future.
  explicit MaybeFuture(Future<T, C>&& spawned) noexcept
      : word_(detail::FutureAccess::release(spawned)) {}
  // The ran-at-once case: runs `fn` now, as the task would have run (on a copy it owns, as
  // an rvalue), and keeps its outcome. Only copying the closure can throw from here, as it
  // would from spawn; what the task throws is its outcome.
  template <class Fn>
  MaybeFuture(detail::RunHere,
              Fn&& fn) noexcept(std::is_nothrow_constructible_v<std::decay_t<Fn>, Fn&&>) {
    std::decay_t<Fn> task(std::forward<Fn>(fn));
    try {
      if constexpr (std::is_void_v<T>) {
        std::invoke(std::move(task));
        ::new (static_cast<void*>(storage_)) Value{};
      } else {
        ::new (static_cast<void*>(storage_)) Value(std::invoke(std::move(task)));
      }
      word_ = detail::kHeldValue;
    } catch (...) {
      word_ = held_exception(std::current_exception());
    }
  }

  MaybeFuture(MaybeFuture&& other) noexcept(kNothrowMove) { take_from(other); }
  // Erases the closure type, as Future<T, C> converts to Future<T>.
  // clang-format off
  template <class C2>
    requires(std::is_void_v<C> && !std::is_void_v<C2>)
  MaybeFuture(MaybeFuture<T, C2>&& other) noexcept(kNothrowMove) {  // NOLINT: implicit
    // clang-format on
    take_from(other);
  }
  MaybeFuture& operator=(MaybeFuture&& other) noexcept(kNothrowMove) {
    if (this != &other) {
      reset();
      word_ = detail::kEmptyFuture;  // so a value whose move throws below is not dropped twice
      take_from(other);
    }
    return *this;
  }
  MaybeFuture(const MaybeFuture&) = delete;
  MaybeFuture& operator=(const MaybeFuture&) = delete;
  ~MaybeFuture() { reset(); }

  // True until joined (or moved from).
  bool valid() const noexcept { return word_ != detail::kEmptyFuture; }

  // The task's value, or its exception rethrown. A spawned task is joined as Future::join
  // joins it (run inline if not stolen).
  T join() {
    const std::uintptr_t word = std::exchange(word_, detail::kEmptyFuture);
    if (word == detail::kHeldValue) {
      if constexpr (std::is_void_v<T>) {
        value().~Value();
        return;
      } else {
        T v(std::move(value()));
        value().~Value();
        return v;
      }
    }
    return detail::FutureAccess::join_word<Future<T, C>>(word);
  }

  // To a Future (the same closure type, or type-erased): a held value moves into a ready
  // slot, as a spawn that runs at once leaves it.
  // clang-format off
  template <class C2>
    requires(std::is_same_v<C2, C> || std::is_void_v<C2>)
  operator Future<T, C2>() && {  // NOLINT: implicit, so spawn_if's result fills a FutureVector
    // clang-format on
    if (word_ == detail::kHeldValue) {
      detail::Slot* r = detail::new_ready_slot();  // if this throws, the value stays held
      word_ = detail::kEmptyFuture;
      detail::Outcome outcome = detail::Outcome::kValue;
      if constexpr (std::is_void_v<T>) {
        ::new (static_cast<void*>(r->storage)) detail::Unit{};
      } else {
        try {
          detail::store_value<T>(r, std::move(value()));
        } catch (...) {  // boxing the value failed to allocate: that is its outcome now
          detail::store_exception(r, std::current_exception());
          outcome = detail::Outcome::kException;
        }
      }
      value().~Value();
      return detail::FutureAccess::make<Future<T, C2>>(detail::ready_word(r, outcome));
    }
    return detail::FutureAccess::make<Future<T, C2>>(std::exchange(word_, detail::kEmptyFuture));
  }

 private:
  Value& value() noexcept { return *std::launder(reinterpret_cast<Value*>(storage_)); }

  // A task that threw keeps its exception in a ready slot, as Future keeps it.
  [[gnu::noinline]] static std::uintptr_t held_exception(std::exception_ptr e) noexcept {
    detail::Slot* r = detail::new_ready_slot();  // std::terminate if even this fails
    detail::store_exception(r, std::move(e));
    return detail::ready_word(r, detail::Outcome::kException);
  }

  template <class, class>
  friend class MaybeFuture;

  template <class C2>
  void take_from(MaybeFuture<T, C2>& other) noexcept(kNothrowMove) {
    const std::uintptr_t word = other.word_;
    if constexpr (kBytewise) {
      std::memcpy(storage_, other.storage_, sizeof(Value));
    } else if (word == detail::kHeldValue) {
      ::new (static_cast<void*>(storage_)) Value(std::move(other.value()));
      other.value().~Value();
    }
    word_ = word;
    other.word_ = detail::kEmptyFuture;
  }

  // Drops what is held (leaving word_ as it was: the caller overwrites or ends it); a
  // spawned, unjoined task is joined as a Future's destructor joins it. The two words that
  // name no slot, kEmptyFuture (1) and kHeldValue (3), are the only ones below 4.
  void reset() noexcept {
    if constexpr (!std::is_trivially_destructible_v<Value>) {
      if (word_ == detail::kHeldValue) value().~Value();
    }
    if (word_ > detail::kHeldValue) [[unlikely]] {
      drop_future(word_);
    }
  }
  [[gnu::noinline]] static void drop_future(std::uintptr_t word) noexcept {
    Future<T, C> unjoined = detail::FutureAccess::make<Future<T, C>>(word);
  }

  std::uintptr_t word_ = detail::kEmptyFuture;
  alignas(Value) unsigned char storage_[sizeof(Value)];
};

template <class F>
using SpawnedIfFuture = MaybeFuture<SpawnResult<F>, detail::StoredClosure<std::decay_t<F>>>;

}  // namespace weft
