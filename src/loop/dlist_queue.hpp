// The locking alternative to the PCB queue (the paper's "d" schedulers): a doubly linked
// list under one mutex, from which a PCB is removed, wherever it is, as soon as its last
// chunk is taken. Searches traverse it under the lock, so every search and every removal
// of every worker is serialised; the owner's own chunks (Rule 1) never touch it.
#pragma once

#include <atomic>
#include <mutex>

#include "loop/loop_queue.hpp"

namespace weft::detail {

class DlistQueue final : public LoopQueue {
 public:
  void publish(Pcb& b, std::uint64_t work, LoopCounters& counters) noexcept override;
  void emptied(Pcb& b, LoopCounters& counters) noexcept override;
  QueueTake take(const TakeFilter& filter, LoopCounters& counters) noexcept override;
  bool maybe_has_work() const noexcept override {
    return listed_.load(std::memory_order_relaxed) != 0;
  }

 private:
  void unlink(Pcb& b, LoopCounters& counters) noexcept;  // with mutex_ held

  std::mutex mutex_;
  Pcb* head_ = nullptr;  // guarded by mutex_
  Pcb* tail_ = nullptr;  // guarded by mutex_
  // The list's length, for the lock-free look (written under the lock; a stale reading
  // delays or wastes one search).
  std::atomic<std::int32_t> listed_{0};
};

}  // namespace weft::detail
