#include "loop/chunk_plan.hpp"

#include <algorithm>

namespace weft::detail {

namespace {

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) noexcept { return a / b + (a % b != 0); }

// The even and the odd indices in [a, b).
std::uint64_t evens(std::uint64_t a, std::uint64_t b) noexcept { return (b + 1) / 2 - (a + 1) / 2; }
std::uint64_t odds(std::uint64_t a, std::uint64_t b) noexcept { return b / 2 - a / 2; }

// Guided: the chunk taken with r iterations left, a share 1/P of them but at least K.
std::uint64_t guided_size(const ChunkPlan& p, std::uint64_t r) noexcept {
  return std::min(r, std::max(p.k, ceil_div(r, p.p)));
}

// Factoring: each chunk of the batch that starts with r iterations left, ceil(r / 2P), or
// the floor K if larger (auto's; 1 for factoring as published).
std::uint64_t factoring_size(const ChunkPlan& p, std::uint64_t r) noexcept {
  return std::max(p.k, ceil_div(r, 2 * p.p));
}

// Auto: the floor binds once factoring's chunks for r left would be shorter than K. The
// rest is then cut into equal chunks: a multiple of P of them, each at least K, where r
// allows P chunks of K; else one per K begun, at most P (each at least K/2). Batches of K
// would cut it unevenly (150 iterations with K = 50 on 2 workers: 50, 50, 50, where 75, 75
// balance).
bool floor_binds(const ChunkPlan& p, std::uint64_t r) noexcept {
  return p.k > 1 && ceil_div(r, 2 * p.p) < p.k;
}
std::uint64_t floor_tail_chunks(const ChunkPlan& p, std::uint64_t r) noexcept {
  const std::uint64_t fit = r / p.k;
  return fit >= p.p ? fit / p.p * p.p : std::min(p.p, ceil_div(r, p.k));
}

// r iterations cut into count equal chunks (within one iteration): where chunk j starts.
// Static's chunks, and auto's tail once its floor binds.
std::uint64_t share_start(std::uint64_t r, std::uint64_t count, std::uint64_t j) noexcept {
  return static_cast<std::uint64_t>(static_cast<unsigned __int128>(j) * r / count);
}

// Factoring: what the batch starting with r left covers, P chunks of its size (fewer at
// the end, when fewer than P iterations are left).
std::uint64_t factoring_covered(const ChunkPlan& p, std::uint64_t r) noexcept {
  const std::uint64_t s = factoring_size(p, r);
  return r / s >= p.p ? p.p * s : r;
}

}  // namespace

ChunkPlan ChunkPlan::make(std::uint64_t n, Schedule schedule, unsigned workers,
                          std::uint64_t min_chunk) noexcept {
  ChunkPlan plan;
  plan.n = n;
  plan.p = workers == 0 ? 1 : workers;
  plan.kind =
      schedule.kind() == Schedule::Kind::kAuto ? Schedule::Kind::kFactoring : schedule.kind();
  plan.k = schedule.chunk() == 0 ? 1 : schedule.chunk();
  if (schedule.kind() == Schedule::Kind::kAuto) {
    plan.k = std::max<std::uint64_t>(1, min_chunk);
    plan.two_halves = true;
  }
  switch (plan.kind) {
    case Schedule::Kind::kStatic: plan.chunks = std::min(n, plan.p); break;
    case Schedule::Kind::kDynamic: plan.chunks = ceil_div(n, plan.k); break;
    case Schedule::Kind::kGuided: {
      // The shrinking chunks, one at a time, until they reach K; then chunks of K.
      std::uint64_t r = n;
      std::uint64_t c = 0;
      while (r > 0 && ceil_div(r, plan.p) > plan.k) {
        r -= guided_size(plan, r);
        ++c;
      }
      plan.chunks = c + ceil_div(r, plan.k);
      break;
    }
    case Schedule::Kind::kFactoring:
    case Schedule::Kind::kAuto: {
      // Counts the chunks and, for two halves, what the even ones cover: the split.
      std::uint64_t r = n;
      std::uint64_t c = 0;
      std::uint64_t low = 0;
      while (r > 0) {
        if (floor_binds(plan, r)) {
          const std::uint64_t count = floor_tail_chunks(plan, r);
          low += share_start(r, count, evens(c, c + count));
          c += count;
          break;
        }
        const std::uint64_t covered = factoring_covered(plan, r);
        const std::uint64_t size = factoring_size(plan, r);
        const std::uint64_t in_batch = ceil_div(covered, size);
        low += size * evens(c, c + in_batch);
        c += in_batch;
        r -= covered;
      }
      plan.chunks = c;
      if (plan.two_halves) plan.split = low;
      break;
    }
  }
  return plan;
}

ChunkCursor::ChunkCursor(const ChunkPlan& plan) noexcept : plan_(plan), remaining_(plan.n) {
  if (plan.kind == Schedule::Kind::kFactoring) size_ = factoring_size(plan, plan.n);
}

ChunkBounds ChunkCursor::walk_to(std::uint64_t i) noexcept {
  const ChunkPlan& p = plan_;
  switch (p.kind) {
    case Schedule::Kind::kStatic:
      return {share_start(p.n, p.chunks, i), share_start(p.n, p.chunks, i + 1)};
    case Schedule::Kind::kDynamic: break;  // inline in bounds()
    case Schedule::Kind::kGuided: {
      // Walk forward while the chunks still shrink; past that, chunks of K in closed form.
      while (first_ < i && remaining_ > 0 && ceil_div(remaining_, p.p) > p.k) {
        const std::uint64_t s = guided_size(p, remaining_);
        start_ += s;
        remaining_ -= s;
        ++first_;
      }
      if (first_ == i && ceil_div(remaining_, p.p) > p.k) {
        return {start_, start_ + guided_size(p, remaining_)};
      }
      const std::uint64_t b = start_ + (i - first_) * p.k;
      return {b, p.n - b > p.k ? b + p.k : p.n};
    }
    case Schedule::Kind::kFactoring:
    case Schedule::Kind::kAuto: {
      for (;;) {
        if (remaining_ == 0) return {p.n, p.n};  // past the last chunk
        if (floor_binds(p, remaining_)) return floor_tail(i);
        const std::uint64_t covered = factoring_covered(p, remaining_);
        const std::uint64_t in_batch = ceil_div(covered, size_);
        if (i < first_ + in_batch) {
          if (p.two_halves) {
            // An auto batch is whole chunks of size_: a short last chunk needs fewer than
            // P left at a size above 1, where auto's floor has already taken over.
            const std::uint64_t b = i % 2 == 0 ? low_used_ + size_ * evens(first_, i)
                                               : p.split + high_used_ + size_ * odds(first_, i);
            return {b, b + size_};
          }
          const std::uint64_t b = start_ + (i - first_) * size_;
          return {b, std::min(b + size_, start_ + covered)};
        }
        if (p.two_halves) {
          low_used_ += size_ * evens(first_, first_ + in_batch);
          high_used_ += size_ * odds(first_, first_ + in_batch);
        }
        first_ += in_batch;
        start_ += covered;
        remaining_ -= covered;
        size_ = factoring_size(p, remaining_);
      }
    }
  }
  return {0, 0};
}

ChunkBounds ChunkCursor::floor_tail(std::uint64_t i) const noexcept {
  const ChunkPlan& p = plan_;
  const std::uint64_t count = floor_tail_chunks(p, remaining_);
  if (i - first_ >= count) return {p.n, p.n};  // past the last chunk
  const auto at = [&](std::uint64_t j) { return share_start(remaining_, count, j); };
  if (!p.two_halves) return {start_ + at(i - first_), start_ + at(i - first_ + 1)};
  // Two halves: the tail's first e slots, in order, are the low half's (even indices),
  // the rest the high half's (odd indices).
  const std::uint64_t e = evens(first_, first_ + count);
  if (i % 2 == 0) {
    const std::uint64_t slot = evens(first_, i);
    return {low_used_ + at(slot), low_used_ + at(slot + 1)};
  }
  const std::uint64_t slot = e + odds(first_, i);
  const std::uint64_t base = p.split + high_used_ - at(e);
  return {base + at(slot), base + at(slot + 1)};
}

}  // namespace weft::detail
