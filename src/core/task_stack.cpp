// The off-fast-path half of the task stack protocol: claims by thieves, the owner's conflict
// path and the reset after a stolen task returned. The states, invariants (I1-I4) and the
// barrier pairing are at the top of include/weft/detail/task_stack.hpp.
#include "weft/detail/task_stack.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <type_traits>

#include "core/activity_clock.hpp"
#include "core/barrier_mode.hpp"
#include "core/steal_amount.hpp"
#include "core/steal_side.hpp"
#include "platform/cpu.hpp"
#include "platform/virtual_memory.hpp"
#include "weft/config.hpp"

namespace weft::detail {

namespace {
// A claim that crossed the owner's top is retried at most this many more times, with the
// amount the policy gives for what is left. The owner is popping right then, so a retry can
// race it again; the bound keeps the thief's hold on the port short (the owner may be
// spinning on it), and each retry costs one more heavy barrier.
constexpr int kClaimRetries = 2;
}  // namespace

void StealPort::lock() noexcept {
  while (!try_lock()) platform::cpu_relax();
}

TaskStack::TaskStack(SerialTag) noexcept
    : head_(reinterpret_cast<Slot*>(~std::uintptr_t{0} & ~std::uintptr_t{kSlotBytes - 1})) {}

TaskStack::~TaskStack() {
  platform::release_reserved(slots_, static_cast<std::size_t>(capacity()) * sizeof(Slot));
}

void TaskStack::init(Index capacity, StealMechanism mechanism, bool switching) {
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
  limit_.store(end_, std::memory_order_relaxed);
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
  // Under the port (S1), before the caller's membarrier (S2). relaxed: the membarrier
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
  if (monotonic_ns() - last < windows.unfence_after_ns) return;
  StealPort port(port_);
  port.lock();
  // Under the port no thief claims, so H in fenced_head_ is stable; storing it into head_
  // makes our pops inline again (S3). relaxed: the port's release publishes both to the next
  // thief, and we read our own writes.
  head_.store(fenced_head_.load(std::memory_order_relaxed), std::memory_order_relaxed);
  fence_on_pop_.store(false, std::memory_order_relaxed);
  barrier_switches_.fetch_add(1, std::memory_order_relaxed);
  port.unlock();
}

bool StealSide::pop_contended(Slot* t) noexcept {
  if (s_.slots_ == nullptr) s_.lifo_violation(t);  // the serial worker: a join outside a runtime
  // A fenced stack's inline pop stored T = t and read never_pops(): its barrier and its load
  // of H happen here (the owner's half of the symmetric barrier, then the true H).
  if (s_.fenced() && s_.pop_top_fenced(t)) return true;
  // We stored T = t and then saw H > t: a thief claimed slot t, or is deciding whether it
  // may (its claim crossed our store, I3). The port serialises us with that decision.
  StealPort port(s_.port_);
  port.lock();
  const Slot* h = s_.h().load(std::memory_order_relaxed);  // stable: only port holders write H
  if (h <= t) {                                            // the thief backed off
    port.unlock();
    return true;
  }
  // Slot t was claimed, so H == t + 1 (a claim never passes the T its thief re-read, I1).
  // Anything else means the join was not of the top slot: an out-of-order join.
  if (h != t + 1) s_.lifo_violation(t);
  // Keep the slot occupied while it runs elsewhere: T = H = t + 1, nothing available (I4).
  s_.tail_.store(t + 1, std::memory_order_relaxed);
  port.unlock();
  return false;
}

bool StealSide::pop_owned(Slot* t) noexcept {
  if (s_.slots_ == nullptr) s_.lifo_violation(t);  // the serial worker: a join outside a runtime
  if (s_.owner_head_ <= t) return true;            // not given away: ours to run inline
  // We gave slot t away, so H == t + 1 (a request hands over only slots below T, which is
  // t + 1 until the pop); anything else means the join was not of the top slot.
  if (s_.owner_head_ != t + 1) s_.lifo_violation(t);
  s_.tail_.store(t + 1, std::memory_order_relaxed);  // keep it occupied until collected (I4)
  return false;
}

void TaskStack::release_stolen(Slot* s) noexcept {
  s->state.store(static_cast<std::uint32_t>(Outcome::kPending), std::memory_order_relaxed);
  if (request_mode()) {
    owner_head_ = s;
    tail_.store(s, std::memory_order_relaxed);
    // head_ is our H or a thief's flag (R2). An RMW, so a flag posted meanwhile is never
    // overwritten; if it is there, the next poll rewrites head_ from owner_head_.
    Slot* expected = s + 1;
    head_.compare_exchange_strong(expected, s, std::memory_order_seq_cst);
    return;
  }
  // Under the port: a thief holding it must not see H and T lowered one at a time, or it
  // could claim from a stale H and overwrite our reset (I3, I4).
  StealPort port(port_);
  port.lock();
  h().store(s, std::memory_order_relaxed);
  tail_.store(s, std::memory_order_relaxed);
  port.unlock();
}

Claim StealSide::steal(const StealPolicy& policy, std::int32_t thief_id, StealFailure* why,
                       double task_work_per_steal_cost) noexcept {
  auto fail = [why](StealFailure reason) {
    if (why != nullptr) *why = reason;
    return Claim{};
  };
  // Cheap looks before the port, which shares its line with H: a thief that takes the port
  // for nothing costs the owner a cache miss on its next pop.
  const Index seen = s_.available();
  if (seen == 0) return fail(StealFailure::kEmpty);
  if (steal_amount(policy, seen, task_work_per_steal_cost) == 0) {
    return fail(StealFailure::kPolicyDeclined);
  }
  StealPort port(s_.port_);
  if (!port.try_lock()) return fail(StealFailure::kPortBusy);

  // The mode is stable while we hold the port (S1). A switching stack whose membarrier
  // claims come close together becomes fenced at this claim's first barrier, which is still
  // a membarrier (S2).
  const bool fenced = s_.fenced();
  bool switch_now = false;
  if (s_.switching_) {
    const std::uint64_t now = monotonic_ns();
    s_.port_taken_ns_.store(now, std::memory_order_relaxed);  // relaxed: a hint for the owner
    // 0: no membarrier claim yet (the clock counts from boot, and a machine up for less
    // than the window must not take its first claim for a close one).
    switch_now = !fenced && s_.membarrier_claim_ns_ != 0 &&
                 now - s_.membarrier_claim_ns_ < barrier_switching().fence_within_ns;
  }
  Slot* const h = s_.h().load(std::memory_order_relaxed);  // stable while we hold the port
  StealFailure reason = StealFailure::kEmpty;
  for (int attempt = 0; attempt <= kClaimRetries; ++attempt) {
    // acquire: pairs with the owner's release in publish(); the slots below T are written.
    const Index n = s_.tail_.load(std::memory_order_acquire) - h;
    if (n <= 0) {
      reason = attempt == 0 ? StealFailure::kEmpty : StealFailure::kLostRace;
      break;
    }
    const Index k = steal_amount(policy, n, task_work_per_steal_cost);
    if (k == 0) {
      reason = attempt == 0 ? StealFailure::kPolicyDeclined : StealFailure::kLostRace;
      break;
    }
    if (switch_now) {  // H moves to fenced_head_, which s_.h() names from now on
      s_.switch_to_fenced();
      switch_now = false;
    }
    s_.h().store(h + k, std::memory_order_relaxed);  // ordered before the load by the barrier
    const std::uint64_t membarrier_end = thief_store_load_barrier(fenced);
    const bool paid_membarrier = membarrier_end != 0;
    if (paid_membarrier) s_.membarrier_claim_ns_ = membarrier_end;
    // acquire: if the owner popped and pushed again meanwhile, we see its newer closures.
    if (h + k <= s_.tail_.load(std::memory_order_acquire)) {
      for (Slot* c = h; c < h + k; ++c) c->thief.store(thief_id, std::memory_order_relaxed);
      port.unlock();
      if (why != nullptr) *why = StealFailure::kNone;
      return Claim{h, k, !paid_membarrier};
    }
    s_.h().store(h, std::memory_order_relaxed);  // crossed the owner's top: back off (I3)
    reason = StealFailure::kLostRace;
  }
  port.unlock();
  return fail(reason);
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
