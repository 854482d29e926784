// A task slot: the fixed-size cell of a worker's task stack that holds one spawned closure
// and, after a thief ran it, its result or exception.
//
// Lifetime of a slot's storage (see docs/TASK_STACK.md, "State"):
//   push          owner constructs the closure in `storage` and writes `exec`
//   inline join   owner pops the slot, moves the closure out onto its own frame (the slot
//                 is free again: the closure's own spawns reuse it) and calls it
//   stolen        the claiming thief calls `exec`, which moves the closure out, runs it and
//                 constructs the result (or a std::exception_ptr) in the slot's `storage`;
//                 the thief then release-stores the outcome into `state`; the owner
//                 acquire-loads `state`, moves the result out, destroys it and stores
//                 kPending again.
// So `state` is kPending except between a thief's completion and the owner's collection.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

namespace weft::detail {

inline constexpr std::size_t kSlotBytes = 64;  // one cache line per slot
inline constexpr std::size_t kSlotHeaderBytes = 16;
inline constexpr std::size_t kSlotStorageBytes = kSlotBytes - kSlotHeaderBytes;
inline constexpr std::size_t kSlotStorageAlign = 16;

enum class Outcome : std::uint32_t { kPending = 0, kValue = 1, kException = 2 };

struct Slot;
// Runs the closure stored in the slot, destroys it, and leaves the result or exception in
// the slot's storage. Never throws.
using ExecFn = Outcome (*)(Slot*) noexcept;

struct alignas(kSlotBytes) Slot {
  ExecFn exec;  // written by the owner at push, read by a thief after its claim
  // Outcome of a stolen run: release-stored by the thief when done, acquire-loaded by the
  // owner waiting in join. The owner resets it to kPending (relaxed; nobody else looks).
  std::atomic<std::uint32_t> state{0};
  // Id of the worker that claimed this slot; relaxed, written under the victim's steal port
  // and read by the owner after it took the same port, which orders the two. Only read for
  // a claimed slot. Every field's initial value is zero: task stacks are zero-filled
  // mappings whose slots are never constructed one by one.
  std::atomic<std::int32_t> thief{0};
  alignas(kSlotStorageAlign) unsigned char storage[kSlotStorageBytes];

  template <class T>
  T* as() noexcept {
    return std::launder(reinterpret_cast<T*>(storage));
  }
};
static_assert(sizeof(Slot) == kSlotBytes);
static_assert(offsetof(Slot, storage) == kSlotHeaderBytes);

// The value type for tasks that return nothing.
struct Unit {
  friend constexpr bool operator==(Unit, Unit) noexcept { return true; }
};

template <class T>
using ValueOf = std::conditional_t<std::is_void_v<T>, Unit, T>;

template <class T>
inline constexpr bool kFitsInSlot =
    sizeof(T) <= kSlotStorageBytes &&
    alignof(T) <= kSlotStorageAlign&& std::is_nothrow_move_constructible_v<T>;

// Closures that do not fit in a slot are moved to the heap; the slot then holds the pointer.
// This is the only allocation a spawn can make, and it is the caller's choice of capture.
template <class F>
struct BoxedClosure {
  std::unique_ptr<F> fn;
  decltype(auto) operator()() { return std::invoke(std::move(*fn)); }
};

template <class F>
using StoredClosure = std::conditional_t<kFitsInSlot<F>, F, BoxedClosure<F>>;

template <class F>
StoredClosure<F> make_stored_closure(F&& fn) {
  if constexpr (kFitsInSlot<F>) {
    return std::move(fn);
  } else {
    return BoxedClosure<F>{std::make_unique<F>(std::move(fn))};
  }
}

// Results likewise: kept in the slot when they fit, boxed otherwise.
template <class T>
struct BoxedValue {
  std::unique_ptr<T> value;
};

template <class T>
using StoredValue = std::conditional_t<kFitsInSlot<T>, T, BoxedValue<T>>;

template <class T>
void store_value(Slot* s, T&& v) {
  if constexpr (kFitsInSlot<T>) {
    ::new (static_cast<void*>(s->storage)) T(std::move(v));
  } else {
    ::new (static_cast<void*>(s->storage)) BoxedValue<T>{std::make_unique<T>(std::move(v))};
  }
}

// Moves the stored value out of the slot and destroys the stored copy.
template <class T>
T take_value(Slot* s) {
  StoredValue<T>* stored = s->as<StoredValue<T>>();
  if constexpr (kFitsInSlot<T>) {
    T v(std::move(*stored));
    stored->~T();
    return v;
  } else {
    T v(std::move(*stored->value));
    stored->~BoxedValue<T>();
    return v;
  }
}

inline void store_exception(Slot* s, std::exception_ptr e) noexcept {
  ::new (static_cast<void*>(s->storage)) std::exception_ptr(std::move(e));
}

inline std::exception_ptr take_exception(Slot* s) {
  std::exception_ptr* stored = s->as<std::exception_ptr>();
  std::exception_ptr e = std::move(*stored);
  stored->~exception_ptr();
  return e;
}

// The type-erased runner stored in every slot: used by thieves, and by joins through a
// type-erased Future<T>. The closure is first moved out of the slot onto this frame: when
// its owner runs it inline, the slot is already popped, and the closure's own spawns reuse
// that very slot. The result goes into the slot only after the closure has returned (and
// joined everything it spawned).
template <class C, class T>
Outcome exec_closure(Slot* s) noexcept {
  C* in_slot = s->as<C>();
  C closure(std::move(*in_slot));  // noexcept: kFitsInSlot, or a BoxedClosure
  in_slot->~C();
  try {
    if constexpr (std::is_void_v<T>) {
      std::invoke(std::move(closure));
      ::new (static_cast<void*>(s->storage)) Unit{};
    } else {
      T result = std::invoke(std::move(closure));
      store_value<T>(s, std::move(result));
    }
    return Outcome::kValue;
  } catch (...) {
    store_exception(s, std::current_exception());
    return Outcome::kException;
  }
}

}  // namespace weft::detail
