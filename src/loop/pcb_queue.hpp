// The non-locking multi-item queue of PCBs (Hummel & Schonberg 1991, section 6 and the
// appendix), in C++ atomics. docs/LOOPS.md, "The PCB queue", argues each pair of
// concurrent operations; this header states what the code keeps.
//
// A singly linked list from head_ to tail_ through Pcb::next. Entries are never removed
// from the middle: a PCB whose chunks are all handed out stays where it is as a hole, and
// its owner's next fork at the same depth reuses it in place. Only the head is removed, by
// the one dequeuer of the moment, and only while it is empty.
//
// Pcb::state counts events (Table 2 of the paper): a PCB (re)entering the queue is set to
// 3; it is decremented when it becomes empty (its last chunk is taken), when it becomes the
// head, and when its removal completes; a producer's reuse increments it. So for a queued
// PCB: 3 nonempty interior, 2 empty interior or nonempty head, 1 empty head (being
// dequeued), 0 removed. Whoever's decrement fetches 2 saw the PCB become an empty head and
// is its dequeuer; two events can make that happen (emptied, became head) and only the
// second one's decrement fetches 2, so there is one dequeuer per removal.
//
// PQ1 One dequeuer at a time: a dequeue starts only from a fetched 2 (above), and the
//     dequeuer alone advances head_ until it finds a nonempty head (its decrement fetches 3)
//     or the queue is empty.
// PQ2 Enqueuers swap tail_ (exchange) and then link the previous tail's next, or set head_
//     when there was none. A dequeuer that empties the queue swaps tail_ to null; PCBs that
//     enqueuers appended to the PCB it removed meanwhile ("misplaced") are found through
//     that PCB's next (waited for: the enqueuer may be between its swap and its link) and
//     appended again as one list.
// PQ3 A producer reusing a PCB increments state first: fetching 2 means the PCB is queued
//     and empty but not yet the head, and the increment keeps any dequeuer from removing it
//     (its head decrement will fetch 3); fetching 1 or 0 means it is being removed or was,
//     and the producer waits for state 1 (removal complete) before enqueuing it afresh.
// Every access to head_, tail_, next and state is seq_cst, so the paper's interleaving
// arguments (which assume sequential consistency) apply as written. The chunk counters'
// orders are pcb.hpp's.
#pragma once

#include <atomic>

#include "loop/loop_queue.hpp"

namespace weft::detail {

// Places in the queue's operations where a test may inject a delay, to force the rare
// interleavings (Fig. 6's configurations, each correctness pair).
enum class QueuePoint : std::uint8_t {
  kProduceAfterIncrement,  // a producer between its state increment and its decision
  kEnqueueAfterSwap,       // an enqueuer between its tail_ swap and its link
  kDequeueAfterHeadStore,  // a dequeuer between advancing head_ and its state decrements
  kDequeueBeforeTailSwap,  // a dequeuer that found the queue empty, before swapping tail_
  kConsumeAfterRead,       // a searcher between reading a PCB's counter and taking
};
// Test hook: called at each point when set (a relaxed load of a null pointer otherwise).
extern std::atomic<void (*)(QueuePoint)> g_queue_delay;

class PcbQueue final : public LoopQueue {
 public:
  void publish(Pcb& b, std::uint64_t work, LoopCounters& counters) noexcept override;
  void emptied(Pcb& b, LoopCounters& counters) noexcept override;
  QueueTake take(const TakeFilter& filter, LoopCounters& counters) noexcept override;
  bool maybe_has_work() const noexcept override {
    return head_.load(std::memory_order_relaxed) != nullptr;
  }

  // For whitebox tests: the list as it stands (only meaningful while nothing runs).
  Pcb* head() const noexcept { return head_.load(); }
  Pcb* tail() const noexcept { return tail_.load(); }

 private:
  void enqueue(Pcb* first, Pcb* last, LoopCounters& counters) noexcept;
  void dequeue(Pcb* head, LoopCounters& counters) noexcept;

  alignas(kFalseSharingRange) std::atomic<Pcb*> head_{nullptr};
  alignas(kFalseSharingRange) std::atomic<Pcb*> tail_{nullptr};
};

}  // namespace weft::detail
