// Randomized blocks: every repetition runs each variant once, in an order drawn afresh for
// that repetition from a seeded generator, so that neither a fixed position in the round (the
// first run after a pause, the run after a peer's process exits) nor a slow drift of the
// machine favours one variant. The order is a function of (seed, repetition) alone, so a
// sitting's order can be replayed from its seed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace bench_stats {

// A 64-bit value derived from (seed, stream) by SplitMix64's finaliser: the seeds of
// independent streams (a repetition's order, a pair's bootstrap) drawn from one sitting seed.
std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t stream);

// A uniform index in [0, n) from a 64-bit draw: the high half of draw * n.
inline std::size_t index_below(std::uint64_t draw, std::size_t n) {
  return static_cast<std::size_t>((static_cast<unsigned __int128>(draw) * n) >> 64);
}

// The order in which repetition `repetition` runs `count` variants: a permutation of
// 0..count-1 by Fisher-Yates on std::mt19937_64 seeded with derive_seed(seed, repetition).
std::vector<std::size_t> block_order(std::size_t count, std::uint64_t seed,
                                     std::uint64_t repetition);

}  // namespace bench_stats
