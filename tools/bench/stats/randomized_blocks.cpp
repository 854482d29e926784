#include "tools/bench/stats/randomized_blocks.hpp"

#include <numeric>
#include <random>
#include <utility>

namespace bench_stats {

std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t stream) {
  std::uint64_t z = seed + 0x9e3779b97f4a7c15ULL * (stream + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::vector<std::size_t> block_order(std::size_t count, std::uint64_t seed,
                                     std::uint64_t repetition) {
  std::vector<std::size_t> order(count);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::mt19937_64 rng(derive_seed(seed, repetition));
  for (std::size_t i = count; i > 1; --i) std::swap(order[i - 1], order[index_below(rng(), i)]);
  return order;
}

}  // namespace bench_stats
