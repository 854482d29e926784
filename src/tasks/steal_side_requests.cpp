// The request mechanism's protocol on the task stack (Config::mechanism = kRequest): a thief
// posts a request at its victim's steal port and waits; the victim notices it at its next
// spawn, join or poll and hands over its oldest tasks itself (the seed paper's Algorithms 1
// and 2). The thief's side of the waiting (timeout, serving its own requests meanwhile) is
// Worker::request_from in worker_thief.cpp.
//
// State, beyond the stack's T and H (task_stack.hpp):
//   request_     the pending request, or null. Set by the port holder; taken (exchanged for
//                null) by the owner, or withdrawn (CAS back to null) by the thief.
//   limit_       open_limit_, or nullptr while a request may be pending: fails the spawn's check.
//   head_        owner_head_ (the true H), or request_flag() while a request may be pending:
//                fails the join's check.
//   port_        held by the posting thief from its post until it has its answer or has
//                withdrawn; the owner never takes it under this mechanism.
//
// Invariants.
//   RQ1 At most one request is pending per victim: only the port holder posts, and it holds
//       the port until the request is answered or withdrawn.
//   RQ2 Only the owner moves H (owner_head_), and only to hand out [H, H+k) with H+k <= T,
//       or to lower it when it collected a stolen slot. head_ is always owner_head_ or the
//       flag; thieves write only the flag, and the owner's release_stolen uses a CAS so as
//       never to overwrite one.
//   RQ3 Every request is taken by exactly one side: the owner's exchange or the thief's
//       withdrawing CAS on request_ (both RMWs on one word), so a request is answered once
//       or not at all, and a withdrawn request is never answered.
//   RQ4 No request is lost: while one is pending, the owner's next poll sees a flag. The
//       owner clears the flags and then exchanges request_; the thief stores request_ and
//       then the flags; all four are seq_cst. If the owner's exchange misses the request,
//       it precedes the thief's store in the single total order, so the owner's clearing
//       stores precede the thief's flag stores and the flags stay set.
//   RQ5 The answer is published by a release store of the request's state after the claim
//       and the claimed slots' `thief` fields are written; the thief acquire-loads it. The
//       closures in the handed-out slots were written by the owner before that, so the
//       thief sees them too.
// Flags left set by a withdrawn request (or stored after the owner already took the request)
// only send the owner's next spawn or join down its slow path once, where it finds nothing.
#include <cstdint>

#include "model/steal_amount.hpp"
#include "tasks/steal_side.hpp"
#include "weft/config.hpp"
#include "weft/detail/task_stack.hpp"

namespace weft::detail {

bool StealSide::post_request(StealRequest* req) noexcept {
  if (!StealPort(s_.port_).try_lock())
    return false;  // another thief's request is pending here (RQ1)
  req->state.store(StealRequest::kWaiting, std::memory_order_relaxed);   // ours alone now
  s_.request_.store(req, std::memory_order_seq_cst);                     // RQ4
  s_.limit_.store(nullptr, std::memory_order_seq_cst);                   // RQ4
  s_.head_.store(TaskStack::request_flag(), std::memory_order_seq_cst);  // RQ4
  return true;
}

bool StealSide::withdraw_request(StealRequest* req) noexcept {
  StealRequest* expected = req;
  // seq_cst: one RMW against the owner's exchange decides who has the request (RQ3).
  return s_.request_.compare_exchange_strong(expected, nullptr, std::memory_order_seq_cst);
}

StealRequest* StealSide::take_request() noexcept {
  // Clear the flags first, then take the request (RQ4).
  s_.limit_.store(s_.open_limit_, std::memory_order_seq_cst);
  s_.head_.store(s_.owner_head_, std::memory_order_seq_cst);
  return s_.request_.exchange(nullptr, std::memory_order_seq_cst);
}

void StealSide::answer_request(StealRequest* req, const StealPolicy& policy) noexcept {
  // T is ours: at a join it is already lowered past the task being joined, so that task is
  // never handed out.
  Slot* const t = s_.tail_.load(std::memory_order_relaxed);
  const Index n = t - s_.owner_head_;
  const Index k = steal_amount(policy, n, req->task_work_per_steal_cost);
  if (k == 0) {
    req->state.store(StealRequest::kRefused, std::memory_order_release);  // RQ5
    return;
  }
  Slot* const h = s_.owner_head_;
  for (Slot* c = h; c < h + k; ++c) c->thief.store(req->thief_id, std::memory_order_relaxed);
  s_.owner_head_ = h + k;
  // seq_cst like the clearing store in take_request(); no new request can be posted before
  // our answer (RQ1), so this overwrites no other thief's flag.
  s_.head_.store(s_.owner_head_, std::memory_order_seq_cst);
  req->claim = Claim{h, k};
  req->state.store(StealRequest::kGranted, std::memory_order_release);  // RQ5
}

bool StealSide::serve_request(const StealPolicy& policy) noexcept {
  StealRequest* const req = take_request();
  if (req == nullptr) return false;
  answer_request(req, policy);
  return true;
}

}  // namespace weft::detail
