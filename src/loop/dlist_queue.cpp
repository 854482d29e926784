#include "loop/dlist_queue.hpp"

namespace weft::detail {

void DlistQueue::publish(Pcb& b, std::uint64_t work, LoopCounters& counters) noexcept {
  std::lock_guard lock(mutex_);
  // PCB3: b's previous instance was emptied, and so unlinked, before b could be reused.
  b.dl_prev = tail_;
  b.dl_next = nullptr;
  (tail_ != nullptr ? tail_->dl_next : head_) = &b;
  tail_ = &b;
  b.dl_listed = true;
  listed_.store(listed_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  b.work.store(work, std::memory_order_release);  // PCB1
  counters.enqueued.bump();
}

void DlistQueue::unlink(Pcb& b, LoopCounters& counters) noexcept {
  if (!b.dl_listed) return;
  (b.dl_prev != nullptr ? b.dl_prev->dl_next : head_) = b.dl_next;
  (b.dl_next != nullptr ? b.dl_next->dl_prev : tail_) = b.dl_prev;
  b.dl_listed = false;
  listed_.store(listed_.load(std::memory_order_relaxed) - 1, std::memory_order_relaxed);
  counters.dequeued.bump();
}

void DlistQueue::emptied(Pcb& b, LoopCounters& counters) noexcept {
  std::lock_guard lock(mutex_);
  unlink(b, counters);
}

QueueTake DlistQueue::take(const TakeFilter& filter, LoopCounters& counters) noexcept {
  std::lock_guard lock(mutex_);
  for (Pcb* b = head_; b != nullptr; b = b->dl_next) {
    const std::uint64_t seen = b->work.load(std::memory_order_acquire);
    if (multiplicity_of(seen) <= 0) continue;
    if (filter.within != nullptr && !nested_in(*b, filter.within, filter.within_seq)) continue;
    QueueTake taken;
    if (take_from(*b, seen, filter, taken)) {
      if (taken.last) unlink(*b, counters);
      return taken;
    }
  }
  return {};
}

}  // namespace weft::detail
