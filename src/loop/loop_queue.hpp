// Where idle workers find loops to help with: the interface of the two queues of PCBs (the
// non-locking multi-item queue, pcb_queue.hpp, and the locked doubly-linked list,
// dlist_queue.hpp), and the counters their operations keep.
#pragma once

#include <cstdint>

#include "loop/pcb.hpp"
#include "loop/shared_access.hpp"
#include "weft/detail/worker_core.hpp"

namespace weft::detail {

// Counted by the worker that performs each operation.
struct LoopCounters {
  Counter forked;           // loops forked as PCBs
  Counter reused_in_place;  // forks that found their PCB still on the queue
  Counter enqueued;         // PCBs appended to the queue
  Counter dequeued;         // PCBs removed from the queue
  Counter misplaced;        // dequeues that found PCBs appended to a removed tail
  Counter serial_forks;     // loops run serially (adaptive fork, full PCB or loop frame stack)
  Counter owner_chunks;     // chunks run by their loop's owner
  Counter helper_chunks;    // chunks run by other workers
};

// A chunk taken from the queue.
struct QueueTake {
  Pcb* pcb = nullptr;  // nullptr: nothing taken
  std::uint64_t index = 0;
  std::uint32_t seq = 0;  // the instance the chunk belongs to
  bool last = false;      // it was the last chunk: the queue must hear of it (PCB3)
};

// Which loops a search may take from: any, or only those nested in one loop's instance
// (isolation: a loop's owner, waiting for its helpers, takes nothing else).
struct TakeFilter {
  const Pcb* within = nullptr;
  std::uint32_t within_seq = 0;
};

class LoopQueue {
 public:
  virtual ~LoopQueue() = default;
  // The owner's fork: b's fields and number_left are written; publishes `work` (release)
  // and makes b findable.
  virtual void publish(Pcb& b, std::uint64_t work, LoopCounters& counters) noexcept = 0;
  // b's last chunk was just taken by the caller (PCB3).
  virtual void emptied(Pcb& b, LoopCounters& counters) noexcept = 0;
  // Takes one chunk of the first loop the filter accepts that has one.
  virtual QueueTake take(const TakeFilter& filter, LoopCounters& counters) noexcept = 0;
  // A cheap look (one relaxed load): false when nothing is queued.
  virtual bool maybe_has_work() const noexcept = 0;
};

// Takes a chunk of b: of any instance (filter.within == nullptr) by fetch_sub, else by a
// compare-exchange from `seen`, the value whose instance nested_in() accepted. Fills `taken`
// (the chunk's index and instance, and whether it was the last) and returns true, or
// returns false. The caller tells the queue of a last chunk.
bool take_from(Pcb& b, std::uint64_t seen, const TakeFilter& filter, QueueTake& taken) noexcept;

// The owner's or a member's next chunk of the instance it holds (Rule 1; PCB2 pins the
// instance): fetch_sub. The index, or -1 when none is left; `last` as above. Inline: it is
// every chunk's one shared access.
inline std::int64_t take_next(Pcb& b, bool& last) noexcept {
  // relaxed is enough: PCB2 pins the instance, whose fields this worker already saw.
  const std::int64_t m = multiplicity_of(b.work.fetch_sub(1, std::memory_order_relaxed));
  count_shared();
  if (m <= 0) return -1;
  last = m == 1;
  return static_cast<std::int64_t>(b.plan.chunks) - m;
}

}  // namespace weft::detail
