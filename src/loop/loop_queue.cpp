#include "loop/loop_queue.hpp"

#include "loop/shared_access.hpp"

namespace weft::detail {

namespace {

// Deeper than any chain of nested loops can be (each level holds a PCB of some worker's
// stack); only torn links read during a reuse could lead further.
constexpr int kMaxNestingWalk = 1 << 16;

}  // namespace

bool nested_in(const Pcb& c, const Pcb* within, std::uint32_t within_seq) noexcept {
  const Pcb* x = &c;
  for (int depth = 0; depth < kMaxNestingWalk; ++depth) {
    const Pcb* parent = x->parent.load(std::memory_order_relaxed);
    count_shared();
    if (parent == nullptr) return false;
    if (parent == within) return x->parent_seq.load(std::memory_order_relaxed) == within_seq;
    x = parent;
  }
  return false;
}

bool take_from(Pcb& b, std::uint64_t seen, const TakeFilter& filter, QueueTake& taken) noexcept {
  std::uint64_t before = seen;
  count_shared();  // the fetch_sub or the compare-exchange
  if (filter.within == nullptr) {
    // acquire: PCB1, the fields of whichever instance we took a chunk of.
    before = b.work.fetch_sub(1, std::memory_order_acquire);
  } else if (!b.work.compare_exchange_strong(before, seen - 1, std::memory_order_acquire,
                                             std::memory_order_relaxed)) {
    return false;  // another taker, or another instance (PCB4): look again later
  }
  const std::int64_t m = multiplicity_of(before);
  if (m <= 0) return false;
  taken.last = m == 1;
  taken.pcb = &b;
  taken.index = b.plan.chunks - static_cast<std::uint64_t>(m);
  taken.seq = seq_of(before);
  return true;
}

}  // namespace weft::detail
