// StealSide's concurrent mechanism: claims by thieves under the victim's port, and the
// owner's conflict path when its pop's check failed. The states, invariants (TS1-TS4) and the
// barrier pairing are at the top of include/weft/detail/task_stack.hpp; the request
// mechanism's half of StealSide is in steal_side_requests.cpp.
#include "tasks/steal_side.hpp"

#include <cstdint>

#include "model/steal_amount.hpp"
#include "platform/cpu.hpp"
#include "platform/monotonic_clock.hpp"
#include "tasks/barrier_mode.hpp"
#include "weft/config.hpp"
#include "weft/detail/task_stack.hpp"

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

bool StealSide::pop_contended(Slot* t) noexcept {
  if (s_.slots_ == nullptr) s_.lifo_violation(t);  // the serial worker: a join outside a runtime
  // A fenced stack's inline pop stored T = t and read never_pops(): its barrier and its load
  // of H happen here (the owner's half of the symmetric barrier, then the true H).
  if (s_.fenced() && s_.pop_top_fenced(t)) return true;
  // We stored T = t and then saw H > t: a thief claimed slot t, or is deciding whether it
  // may (its claim crossed our store, TS3). The port serialises us with that decision.
  StealPort port(s_.port_);
  port.lock();
  const Slot* h = s_.h().load(std::memory_order_relaxed);  // stable: only port holders write H
  if (h <= t) {                                            // the thief backed off
    port.unlock();
    return true;
  }
  // Slot t was claimed, so H == t + 1 (a claim never passes the T its thief re-read, TS1).
  // Anything else means the join was not of the top slot: an out-of-order join.
  if (h != t + 1) s_.lifo_violation(t);
  // Keep the slot occupied while it runs elsewhere: T = H = t + 1, nothing available (TS4).
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
  s_.tail_.store(t + 1, std::memory_order_relaxed);  // keep it occupied until collected (TS4)
  return false;
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

  // The mode is stable while we hold the port (BS1). A switching stack whose membarrier
  // claims come close together becomes fenced at this claim's first barrier, which is still
  // a membarrier (BS2).
  const bool fenced = s_.fenced();
  bool switch_now = false;
  if (s_.switching_) {
    const std::uint64_t now = platform::monotonic_ns();
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
    s_.h().store(h, std::memory_order_relaxed);  // crossed the owner's top: back off (TS3)
    reason = StealFailure::kLostRace;
  }
  port.unlock();
  return fail(reason);
}

}  // namespace weft::detail
