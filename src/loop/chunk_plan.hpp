// How a loop's range is cut into chunks: a plan made once at the fork, and a cursor each
// worker keeps while it takes chunks of one loop. Every schedule maps a chunk's index to
// its bounds as a pure function of (n, schedule, P), so a chunk is handed out by one
// fetch-and-add on a counter, and the chunks partition [0, n) exactly. For every named
// schedule chunk i ends where chunk i + 1 starts; auto's chunks are laid in two halves
// instead: even indices one after another from 0 up, odd ones from the split point up.
//
// Guided and factoring chunks depend on what the chunks before them left; the cursor walks
// forward from the last chunk its worker took, so a worker taking increasing indices (as
// every worker does, since the counter only counts down) pays O(1) amortised per chunk.
#pragma once

#include <cstdint>

#include "weft/schedule.hpp"

namespace weft::detail {

struct ChunkPlan {
  Schedule::Kind kind = Schedule::Kind::kDynamic;  // never kAuto: make() resolves it
  std::uint64_t n = 0;
  // dynamic and guided: the chunk size K; factoring: the smallest chunk (1, or what
  // make() was given for auto)
  std::uint64_t k = 1;
  std::uint64_t p = 1;  // the worker count the schedule divides by
  std::uint64_t chunks = 0;
  // auto: chunks in take order alternate between two halves, even indices in [0, split)
  // and odd ones in [split, n), each half in order. The first chunks of a loop (the owner's
  // and the first helper's) start where static's would, and the chunks running at the same
  // time are half a range apart to the last: the small last chunks of the low half end at
  // split, whose neighbour (the high half's first chunk) ran at the start, and those of the
  // high half end at n. Chunks that run at once never write neighbouring words.
  bool two_halves = false;
  std::uint64_t split = 0;  // two_halves: where the odd chunks start

  // min_chunk: auto's floor, in iterations (ignored by every named schedule); once the
  // floor binds, auto cuts the rest into equal chunks (chunk_plan.cpp, floor_binds).
  static ChunkPlan make(std::uint64_t n, Schedule schedule, unsigned workers,
                        std::uint64_t min_chunk = 1) noexcept;
};

struct ChunkBounds {
  std::uint64_t begin;
  std::uint64_t end;
};

class ChunkCursor {
 public:
  explicit ChunkCursor(const ChunkPlan& plan) noexcept;
  // The bounds of chunk i; i must not be below the last index asked for. Inline for
  // dynamic:K, the schedule whose chunks are small enough for a call to matter.
  ChunkBounds bounds(std::uint64_t i) noexcept {
    if (plan_.kind == Schedule::Kind::kDynamic) {
      const std::uint64_t b = i * plan_.k;  // below n, so no overflow
      return {b, plan_.n - b > plan_.k ? b + plan_.k : plan_.n};
    }
    return walk_to(i);
  }

 private:
  ChunkBounds walk_to(std::uint64_t i) noexcept;
  // Auto, once its floor binds: chunk i of the equal chunks the rest is cut into.
  ChunkBounds floor_tail(std::uint64_t i) const noexcept;

  const ChunkPlan& plan_;
  // Guided: chunk first_ starts at start_ with remaining_ iterations left before it.
  // Factoring: the batch whose first chunk is first_ starts at start_, remaining_ left
  // before it, its chunks of size_.
  std::uint64_t first_ = 0;
  std::uint64_t start_ = 0;
  std::uint64_t remaining_ = 0;
  std::uint64_t size_ = 0;
  // Two halves: the iterations the chunks of the batches before first_ took in the low
  // half (even indices) and in the high half (odd indices).
  std::uint64_t low_used_ = 0;
  std::uint64_t high_used_ = 0;
};

}  // namespace weft::detail
