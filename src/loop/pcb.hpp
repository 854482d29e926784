// A parallel control block (PCB): one running parallel loop, as its owner forked it and as
// the workers that help with it see it. Each worker keeps its PCBs on a stack of its own
// (loop_worker.hpp); a PCB is on one of the loop queues (pcb_queue.hpp, dlist_queue.hpp)
// from its first fork until it is removed, and is reused for the owner's next loop at the
// same depth.
//
// The chunk counter. `work` packs the instance number (`seq`, 32 bits) above the
// multiplicity (the chunks not yet handed out, 32 bits, biased by kChunkBias so that the
// overshoot below zero of racing takers never borrows from seq). One fetch_sub(1) takes a
// chunk: the fetched multiplicity m > 0 gives chunk index chunks - m; m == 1 means the
// taker took the last chunk and must tell the queue (LoopQueue::emptied) before it
// finishes that chunk. m <= 0 means there was none. The overshoot is at most one per
// worker per positive reading, far from the bias.
//
// Invariants:
//   PCB1 The owner writes the loop's fields (body, plan, base, control, parent), then
//        number_left, then publishes `work` with a release store; a taker reads the fields
//        only after a successful take, whose acquire read-modify-write is in the release
//        sequence of that store. So a taker sees the loop it took a chunk of.
//   PCB2 number_left counts the chunks not yet finished (skipped chunks of a stopped loop
//        count as finished). Each worker subtracts the chunks it ran when it leaves the loop
//        (release); the owner reuses the PCB only after reading 0 (acquire). A worker holding
//        a chunk therefore pins the instance: `work` cannot be republished under it, so its
//        further fetch_subs (Rule 1) hit the same loop.
//   PCB3 Exactly one take fetches m == 1 per instance (or, for a stopped loop, one CAS claims
//        the rest down to 0): the queue hears of each emptied instance exactly once, and
//        before number_left can reach 0.
//   PCB4 `seq` changes with every publish, so a compare-exchange on `work` that expects a
//        value read earlier succeeds only on the instance it was read from (isolation's
//        take, loop_worker.cpp).
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>

#include "loop/chunk_plan.hpp"
#include "weft/detail/loop_body.hpp"
#include "weft/detail/task_stack.hpp"

namespace weft {
class LoopControl;
}

namespace weft::detail {

inline constexpr std::int64_t kChunkBias = std::int64_t{1} << 31;
// The most chunks one PCB hands out; a loop with more (only dynamic:K can have them) runs
// as consecutive segments of at most this many.
inline constexpr std::uint64_t kMaxPcbChunks = std::uint64_t{1} << 30;

constexpr std::uint64_t pack_work(std::uint32_t seq, std::int64_t multiplicity) noexcept {
  return (std::uint64_t{seq} << 32) | static_cast<std::uint32_t>(kChunkBias + multiplicity);
}
constexpr std::int64_t multiplicity_of(std::uint64_t work) noexcept {
  return static_cast<std::int64_t>(static_cast<std::uint32_t>(work)) - kChunkBias;
}
constexpr std::uint32_t seq_of(std::uint64_t work) noexcept {
  return static_cast<std::uint32_t>(work >> 32);
}

struct alignas(kFalseSharingRange) Pcb {
  // The loop (PCB1): plain fields, read by takers after a successful take only.
  const LoopBody* body = nullptr;
  ChunkPlan plan;
  std::uint64_t base = 0;  // the offset of this segment's chunk 0 in the loop
  LoopControl* control = nullptr;
  std::uint32_t seq = 0;    // the owner's copy of the current instance's number
  std::int32_t owner = -1;  // the worker whose PCB stack holds this PCB (fixed)
  // The first exception a chunk threw: the worker that flips `failed` writes `error`; the
  // owner reads it after number_left reached 0 (PCB2 orders the two).
  std::atomic<bool> failed{false};
  std::exception_ptr error;
  // The PCB whose chunk the owner was running at the fork, and that instance's number:
  // isolation's test of nesting. Atomic (relaxed) because a searching worker reads them
  // before it takes a chunk, while the owner may be rewriting them for its next loop; the
  // take's compare-exchange then fails (PCB4).
  std::atomic<Pcb*> parent{nullptr};
  std::atomic<std::uint32_t> parent_seq{0};

  // What searching workers read and write: the chunk counter and the queue's fields.
  alignas(kFalseSharingRange) std::atomic<std::uint64_t> work{pack_work(0, 0)};
  std::atomic<std::int32_t> state{0};  // the non-locking queue's event counter
  std::atomic<Pcb*> next{nullptr};     // the non-locking queue's link
  // The locking queue's links and membership, guarded by its lock.
  Pcb* dl_prev = nullptr;
  Pcb* dl_next = nullptr;
  bool dl_listed = false;

  // Written once per departing worker, polled by the waiting owner.
  alignas(kFalseSharingRange) std::atomic<std::int64_t> number_left{0};
};

// Whether the loop `c` was forked inside a chunk of `within` (instance `within_seq`),
// directly or through loops nested in between: isolation's test. Reads racing links
// (relaxed), so a caller must confirm its answer with a take that expects the `work` value
// read before (PCB4); the walk is bounded so that links torn by a reuse cannot loop it.
bool nested_in(const Pcb& c, const Pcb* within, std::uint32_t within_seq) noexcept;

}  // namespace weft::detail
