// A worker's own small free list in front of a shared, locked one (the magazine layer of
// Bonwick's slab allocator): a worker that makes and ends user-level threads takes their
// blocks and stacks from here without a lock, and goes to the shared list only to refill an
// empty list or to spill a full one, half a list at a time.
//
// Invariant FL1: only one OS thread touches a list at a time: the one running its worker,
// between two fiber switches (nothing here switches). `count_` alone is read by others
// (statistics), hence atomic; its owner's relaxed stores are all the ordering a reading
// needs, since it only reports.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>

namespace weft::detail {

template <class T, std::size_t kCapacity>
class WorkerFreeList {
  static_assert(kCapacity >= 2 && kCapacity % 2 == 0);

 public:
  static constexpr std::size_t kBatch = kCapacity / 2;

  // The most recently pushed item, or false when the list is empty and
  // `refill(T* into, std::size_t n) -> std::size_t` brought none from the shared list.
  template <class Refill>
  bool pop(T& out, Refill&& refill) {
    std::size_t n = count_.load(std::memory_order_relaxed);
    if (n == 0) n = refill(items_, kBatch);
    if (n == 0) return false;
    out = items_[--n];
    count_.store(n, std::memory_order_relaxed);
    return true;
  }

  // Keeps `item`. A full list first hands its older half to `spill(const T* from, n)`, so
  // that the most recently freed items, the ones still warm in cache, stay here.
  template <class Spill>
  void push(const T& item, Spill&& spill) {
    std::size_t n = count_.load(std::memory_order_relaxed);
    if (n == kCapacity) {
      spill(static_cast<const T*>(items_), kBatch);
      std::copy(items_ + kBatch, items_ + kCapacity, items_);
      n = kCapacity - kBatch;
    }
    items_[n++] = item;
    count_.store(n, std::memory_order_relaxed);
  }

  // Everything held, emptied in one go (for the shared list's owner, at its end).
  template <class Spill>
  void drain(Spill&& spill) {
    spill(static_cast<const T*>(items_), count_.load(std::memory_order_relaxed));
    count_.store(0, std::memory_order_relaxed);
  }

  std::size_t count() const noexcept { return count_.load(std::memory_order_relaxed); }

 private:
  T items_[kCapacity] = {};
  std::atomic<std::size_t> count_{0};
};

}  // namespace weft::detail
