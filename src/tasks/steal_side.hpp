// The thief's side of a task stack, and the owner's out-of-line settling with thieves. The
// owner's fields and inline push and pop are TaskStack (include/weft/detail/task_stack.hpp),
// whose header states the concurrent protocol's invariants (TS1-TS4) and its barrier pairing;
// the request mechanism's (RQ1-RQ5) are in steal_side_requests.cpp. Nothing here is on the spawn's
// or the join's fast path.
#pragma once

#include <atomic>
#include <cstdint>

#include "weft/config.hpp"
#include "weft/detail/task_stack.hpp"

namespace weft::detail {

// A test-and-test-and-set lock over a stack's port word: the victim's steal port. Thieves
// only try it (a busy port means another thief is already there, and the paper's thief
// moves on); the owner spins on it in the rare conflict path, where the holder is a thief in
// the middle of a claim.
class StealPort {
 public:
  explicit StealPort(std::atomic<bool>& held) noexcept : held_(held) {}
  bool try_lock() noexcept {
    // acquire: what the previous holder wrote under the port is visible to us.
    return !held_.load(std::memory_order_relaxed) &&
           !held_.exchange(true, std::memory_order_acquire);
  }
  void lock() noexcept;
  void unlock() noexcept {
    held_.store(false, std::memory_order_release);  // publish what we wrote under the port
  }

 private:
  std::atomic<bool>& held_;
};

// What a thief got from one steal: `count` consecutive slots starting at `first`.
struct Claim {
  Slot* first = nullptr;
  Index count = 0;
  bool fenced = false;  // its barrier was a fence, not a membarrier (concurrent mechanism)
  explicit operator bool() const noexcept { return count > 0; }
};

// Why a concurrent steal came back empty-handed (for counters and tests).
enum class StealFailure : std::uint8_t { kNone, kEmpty, kPortBusy, kPolicyDeclined, kLostRace };

// One thief's steal request (request mechanism), owned by the thief and posted to one
// victim at a time. The victim fills in the answer and then release-stores `state`.
struct StealRequest {
  enum : std::uint32_t { kWaiting, kGranted, kRefused };
  std::atomic<std::uint32_t> state{kWaiting};  // release by the victim, acquire by the thief
  std::int32_t thief_id = -1;                  // the thief's worker id, set once
  double task_work_per_steal_cost = 0;         // the thief's part of the policy's view (StealView)
  Claim claim;                                 // the victim's answer when kGranted
};

// A view of one task stack from off its fast path. Cheap to make: one reference.
class StealSide {
 public:
  explicit StealSide(TaskStack& stack) noexcept : s_(stack) {}

  // ---- Thief, concurrent mechanism (task_stack.cpp) ----

  // Tries to claim tasks from the bottom; the amount is the policy's (steal_amount.hpp) for
  // the n seen and the thief's `task_work_per_steal_cost`. Never blocks on the port. On
  // failure, `why` (if given) says why.
  Claim steal(const StealPolicy& policy, std::int32_t thief_id, StealFailure* why = nullptr,
              double task_work_per_steal_cost = 0.0) noexcept;

  // ---- Owner, after its pop's check failed (task_stack.cpp) ----

  // Concurrent mechanism: settles with the thief under the port. Returns true if the thief
  // backed off (run the task inline), false if it took the task; the slot then stays
  // occupied until TaskStack::release_stolen().
  bool pop_contended(Slot* t) noexcept;
  // The same for the request mechanism, after any pending request was served: the owner
  // knows H itself, so no port is involved.
  bool pop_owned(Slot* t) noexcept;

  // ---- Request mechanism (steal_side_requests.cpp) ----

  // Thief: takes the port and posts `req`. False if another thief holds the port.
  bool post_request(StealRequest* req) noexcept;
  // Thief, after its wait ran out: withdraws `req`. False if the owner already took it up
  // (the answer is then on its way: keep waiting).
  bool withdraw_request(StealRequest* req) noexcept;
  // Thief, once answered or withdrawn: releases the port for the next thief.
  void end_request() noexcept { StealPort(s_.port_).unlock(); }
  // Owner: answers the pending request, if any: hands over the policy's amount of its
  // oldest tasks, or refuses. Returns true if there was a request. Also clears the flags.
  // The same as take_request() followed, if it returned a request, by answer_request().
  bool serve_request(const StealPolicy& policy) noexcept;
  // Owner: clears the flags and takes the pending request; null if there is none (the flags
  // were left by a withdrawn request, or raised before the request was stored).
  StealRequest* take_request() noexcept;
  // Owner: answers `req` from take_request() with the policy's amount, or a refusal.
  void answer_request(StealRequest* req, const StealPolicy& policy) noexcept;

 private:
  TaskStack& s_;
};

}  // namespace weft::detail
