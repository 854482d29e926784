// Tasks waiting on weft primitives, as reports and the deadlock watch see them. A task runs
// on its worker's own stack and cannot park: it waits in WaitList::block by running ready
// threads and stealing (WL3 in weft/detail/thread_core.hpp). Each worker has one slot here
// for the node of the task waiting on its stack, and the waiters count themselves quiet
// while their loop finds nothing to do.
//
// Invariants:
//   TKW1 A worker's slot is written only by that worker, under the slot's lock, and read by
//        reports under the same lock. A waiter clears its slot before it returns from
//        block(), so a node a report reads under the lock is still on the waiter's stack.
//   TKW2 quiet() counts the waiters in their quiet phase (nothing to run or steal at their
//        last look); entries() counts every entry into it. The deadlock watch reads both
//        next to the idle count and the scheduler's readings, so all are seq_cst: one order
//        for the readings of one look. The waiters pay for it only on their way into and out
//        of a wait that has already gone on for a while.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "threads/spin_lock.hpp"
#include "weft/detail/task_stack.hpp"
#include "weft/detail/thread_core.hpp"

namespace weft::detail {

class TaskWaits {
 public:
  explicit TaskWaits(unsigned workers) : slots_(std::make_unique<Slot[]>(workers)), n_(workers) {}

  // TKW1: the task on worker `worker`'s own stack waits on `node` until the matching end(),
  // which puts back what begin() returned.
  const WaitNode* begin(int worker, const WaitNode* node) noexcept {
    Slot& s = slots_[static_cast<unsigned>(worker)];
    lock_spinning(s.lock);
    const WaitNode* const previous = s.node;
    s.node = node;
    unlock_spinning(s.lock);
    return previous;
  }
  void end(int worker, const WaitNode* previous) noexcept {
    Slot& s = slots_[static_cast<unsigned>(worker)];
    lock_spinning(s.lock);
    s.node = previous;
    unlock_spinning(s.lock);
  }

  // TKW2
  void enter_quiet() noexcept {
    entries_.fetch_add(1, std::memory_order_seq_cst);
    quiet_.fetch_add(1, std::memory_order_seq_cst);
  }
  void leave_quiet() noexcept { quiet_.fetch_sub(1, std::memory_order_seq_cst); }
  int quiet() const noexcept { return quiet_.load(std::memory_order_seq_cst); }
  std::uint64_t entries() const noexcept { return entries_.load(std::memory_order_seq_cst); }

  // Calls fn(worker, node) for each waiting task, under its slot's lock (TKW1).
  template <class F>
  void inspect(F&& fn) noexcept {
    for (unsigned i = 0; i < n_; ++i) {
      Slot& s = slots_[i];
      lock_spinning(s.lock);
      if (s.node != nullptr) fn(static_cast<int>(i), *s.node);
      unlock_spinning(s.lock);
    }
  }

 private:
  struct alignas(kFalseSharingRange) Slot {
    std::atomic<bool> lock{false};  // acquire on lock, release on unlock
    const WaitNode* node = nullptr;
  };
  std::unique_ptr<Slot[]> slots_;
  unsigned n_;
  std::atomic<int> quiet_{0};
  std::atomic<std::uint64_t> entries_{0};
};

}  // namespace weft::detail
