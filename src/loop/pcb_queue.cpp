#include "loop/pcb_queue.hpp"

#include "loop/shared_access.hpp"
#include "loop/spin_wait.hpp"

namespace weft::detail {

std::atomic<void (*)(QueuePoint)> g_queue_delay{nullptr};

namespace {

// The most PCBs one search looks at: a queue is at most one PCB per worker per nesting
// depth long, and a search that gives up early just looks again later.
constexpr int kMaxSearchSteps = 4096;

inline void delay_point(QueuePoint p) noexcept {
  if (auto* hook = g_queue_delay.load(std::memory_order_relaxed)) hook(p);
}

}  // namespace

void PcbQueue::publish(Pcb& b, std::uint64_t work, LoopCounters& counters) noexcept {
  // PQ3: the increment reserves b against a dequeue that has not started.
  const std::int32_t before = b.state.fetch_add(1);
  count_shared();
  delay_point(QueuePoint::kProduceAfterIncrement);
  if (before == 2) {
    b.work.store(work, std::memory_order_release);  // PCB1
    count_shared();
    counters.reused_in_place.bump();
    return;
  }
  // Being removed (1) or removed (0): wait until the removal completes (state back at 1).
  SpinWait wait;
  while (b.state.load() != 1) wait.once();
  b.state.store(3);
  b.next.store(nullptr);
  b.work.store(work, std::memory_order_release);  // PCB1: takers may start before the link
  count_shared(4);
  enqueue(&b, &b, counters);
}

void PcbQueue::enqueue(Pcb* first, Pcb* last, LoopCounters& counters) noexcept {
  counters.enqueued.bump();
  Pcb* const previous = tail_.exchange(last);
  count_shared();
  delay_point(QueuePoint::kEnqueueAfterSwap);
  if (previous != nullptr) {
    previous->next.store(first);
    count_shared();
    return;
  }
  // The queue was empty: first becomes the head. If its chunks were all taken meanwhile,
  // this decrement is the second event and makes us its dequeuer.
  head_.store(first);
  count_shared(2);
  if (first->state.fetch_sub(1) == 2) dequeue(first, counters);
}

void PcbQueue::emptied(Pcb& b, LoopCounters& counters) noexcept {
  count_shared();
  if (b.state.fetch_sub(1) == 2) dequeue(&b, counters);  // b was the head already
}

void PcbQueue::dequeue(Pcb* head, LoopCounters& counters) noexcept {
  // PQ1: we are the only dequeuer; head is the empty head.
  Pcb* old_head = nullptr;
  for (;;) {
    old_head = head;
    head = old_head->next.load();
    head_.store(head);
    count_shared(2);
    delay_point(QueuePoint::kDequeueAfterHeadStore);
    if (head == nullptr) break;
    old_head->state.fetch_sub(1);  // removal complete
    counters.dequeued.bump();
    count_shared(2);
    if (head->state.fetch_sub(1) != 2) return;  // the new head has chunks: done
  }
  // The queue looks empty. Make tail_ agree, and recover PCBs appended to old_head after we
  // read its next (PQ2).
  delay_point(QueuePoint::kDequeueBeforeTailSwap);
  Pcb* const old_tail = tail_.exchange(nullptr);
  counters.dequeued.bump();
  if (old_tail == old_head) {
    old_head->state.fetch_sub(1);  // removal complete
    count_shared(2);
    return;
  }
  SpinWait wait;
  Pcb* first_missed = nullptr;
  while ((first_missed = old_head->next.load()) == nullptr) wait.once();
  old_head->state.fetch_sub(1);  // removal complete, after the last read of its next
  count_shared(3);
  counters.misplaced.bump();
  enqueue(first_missed, old_tail, counters);
}

QueueTake PcbQueue::take(const TakeFilter& filter, LoopCounters& counters) noexcept {
  Pcb* b = head_.load();
  count_shared();
  for (int steps = 0; b != nullptr && steps < kMaxSearchSteps; ++steps) {
    // A look before the take: holes are only read, never written, by searchers.
    const std::uint64_t seen = b->work.load(std::memory_order_acquire);
    count_shared();
    if (multiplicity_of(seen) > 0 &&
        (filter.within == nullptr || nested_in(*b, filter.within, filter.within_seq))) {
      delay_point(QueuePoint::kConsumeAfterRead);
      QueueTake taken;
      if (take_from(*b, seen, filter, taken)) {
        if (taken.last) emptied(*b, counters);
        return taken;
      }
    }
    b = b->next.load();
    count_shared();
  }
  return {};
}

}  // namespace weft::detail
