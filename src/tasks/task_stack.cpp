// TaskStack's out-of-line members: its storage, the switch between barriers, the reset after a
// stolen task returned, the error for an out-of-order join. The thieves' claims and the
// owner's conflict path are StealSide's (steal_side.cpp). The states, invariants (TS1-TS4) and the
// barrier pairing are at the top of include/weft/detail/task_stack.hpp.
#include "weft/detail/task_stack.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <type_traits>

#include "platform/monotonic_clock.hpp"
#include "platform/virtual_memory.hpp"
#include "tasks/barrier_mode.hpp"
#include "tasks/steal_side.hpp"
#include "weft/config.hpp"

namespace weft::detail {

TaskStack::TaskStack(SerialTag) noexcept
    : head_(reinterpret_cast<Slot*>(~std::uintptr_t{0} & ~std::uintptr_t{kSlotBytes - 1})) {}

TaskStack::~TaskStack() {
  platform::release_reserved(slots_, static_cast<std::size_t>(capacity()) * sizeof(Slot));
}

void TaskStack::init(Index capacity, StealMechanism mechanism, bool switching, bool counting) {
  // Reserved, not touched: a page of slots is committed when the stack first grows into it,
  // so the capacity can follow the deepest program the worker's thread stack allows (the
  // default) while a shallow one uses a few pages. The mapping is zero-filled, which is the
  // value of a Slot{} (no exec, state kPending, thief 0), so no slot is constructed here.
  static_assert(std::is_trivially_destructible_v<Slot>);
  slots_ = static_cast<Slot*>(platform::reserve_zeroed(
      static_cast<std::size_t>(capacity) * sizeof(Slot), "a worker's task stack (task_slots)"));
  end_ = slots_ + capacity;
  tail_.store(slots_, std::memory_order_relaxed);
  owner_head_ = slots_;
  // A stack of no slots (the serial worker's) diverts every spawn already and counts none.
  open_limit_ = counting && capacity > 0 ? slots_ : end_;
  limit_.store(open_limit_, std::memory_order_relaxed);
  mechanism_ = mechanism;
  // relaxed: decided once per process before any stack is initialised.
  const bool process_fenced = g_pop_needs_fence.load(std::memory_order_relaxed);
  fence_on_pop_.store(!request_mode() && process_fenced, std::memory_order_relaxed);
  switching_ = switching && !request_mode() && !process_fenced;
  fenced_pops_to_check_ = barrier_switching().recheck_pops;
  // A fenced stack's inline pop always fails to its settling (see never_pops()).
  head_.store(fenced() ? never_pops() : slots_, std::memory_order_relaxed);
  fenced_head_.store(slots_, std::memory_order_relaxed);
}

void TaskStack::switch_to_fenced() noexcept {
  // Under the port (BS1), before the caller's membarrier (BS2). relaxed: the membarrier
  // orders these stores before every owner load that follows it, and the port orders them
  // before every later thief's loads.
  fenced_head_.store(head_.load(std::memory_order_relaxed), std::memory_order_relaxed);
  head_.store(never_pops(), std::memory_order_relaxed);
  fence_on_pop_.store(true, std::memory_order_relaxed);
  barrier_switches_.fetch_add(1, std::memory_order_relaxed);
}

void TaskStack::maybe_unfence() noexcept {
  const BarrierSwitching windows = barrier_switching();
  fenced_pops_to_check_ = windows.recheck_pops;
  // relaxed: a hint; the decision is taken again under the port.
  const std::uint64_t last = port_taken_ns_.load(std::memory_order_relaxed);
  if (platform::monotonic_ns() - last < windows.unfence_after_ns) return;
  StealPort port(port_);
  port.lock();
  // Under the port no thief claims, so H in fenced_head_ is stable; storing it into head_
  // makes our pops inline again (BS3). relaxed: the port's release publishes both to the next
  // thief, and we read our own writes.
  head_.store(fenced_head_.load(std::memory_order_relaxed), std::memory_order_relaxed);
  fence_on_pop_.store(false, std::memory_order_relaxed);
  barrier_switches_.fetch_add(1, std::memory_order_relaxed);
  port.unlock();
}

void TaskStack::release_stolen(Slot* s) noexcept {
  s->state.store(static_cast<std::uint32_t>(Outcome::kPending), std::memory_order_relaxed);
  if (request_mode()) {
    owner_head_ = s;
    tail_.store(s, std::memory_order_relaxed);
    // head_ is our H or a thief's flag (RQ2). An RMW, so a flag posted meanwhile is never
    // overwritten; if it is there, the next poll rewrites head_ from owner_head_.
    Slot* expected = s + 1;
    head_.compare_exchange_strong(expected, s, std::memory_order_seq_cst);
    return;
  }
  // Under the port: a thief holding it must not see H and T lowered one at a time, or it
  // could claim from a stale H and overwrite our reset (TS3, TS4).
  StealPort port(port_);
  port.lock();
  h().store(s, std::memory_order_relaxed);
  tail_.store(s, std::memory_order_relaxed);
  port.unlock();
}

void TaskStack::lifo_violation(const Slot* expected) const noexcept {
  const Index top = size() - 1;
  const bool ours = slots_ != nullptr && expected >= slots_ && expected < end_;
  if (ours) {
    std::fprintf(stderr,
                 "weft: Future::join out of LIFO order: joining the task in slot %lld while the "
                 "newest unjoined task on this worker is in slot %lld. Join futures in the "
                 "reverse order of their spawns (e.g. `auto b = fb.join(); auto a = fa.join();`)"
                 " or use weft::invoke / weft::scope. A std::vector of futures destroyed "
                 "unjoined destroys them oldest first: keep them in a weft::FutureVector, "
                 "which joins newest first.\n",
                 static_cast<long long>(expected - slots_), static_cast<long long>(top));
  } else {
    std::fprintf(stderr,
                 "weft: Future::join on a thread or worker that did not spawn the task: a "
                 "Future must be joined by the task that spawned it (do not pass futures to "
                 "other tasks or threads).\n");
  }
  std::abort();
}

}  // namespace weft::detail
