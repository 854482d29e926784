// The df scheduler's structure: every live user-level thread in one list in the serial
// program's depth-first order, and a heap of the ready ones keyed by their place in it, so
// that the leftmost ready thread is found in O(log n) rather than by a scan of the list.
// Single-threaded: the scheduler calls it under its lock.
//
// Places are order-maintenance labels: a thread inserted between two others gets a label
// between theirs; when no integer is left between them, the whole list is relabelled evenly
// (O(n), rare: each relabel leaves gaps of 2^64 / (2n)) and the heap rebuilt from the new
// labels.
#pragma once

#include <cstdint>
#include <vector>

namespace weft::detail {

struct UThread;

class DfOrder {
 public:
  // A new thread just left of `at`, or at the right end when `at` is nullptr.
  void insert_before(UThread* t, UThread* at);
  void erase(UThread* t) noexcept;
  // Ready threads: pushed when they become ready, popped leftmost first.
  void push_ready(UThread* t);
  UThread* pop_leftmost_ready() noexcept;

 private:
  void relabel();
  struct Entry {
    std::uint64_t label;
    UThread* thread;
  };
  UThread* head_ = nullptr;
  UThread* tail_ = nullptr;
  std::size_t size_ = 0;
  std::vector<Entry> ready_;  // a min-heap on label
};

}  // namespace weft::detail
