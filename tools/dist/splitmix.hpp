// SplitMix64: the small seeded stream each rank draws its victims from, and each fake
// endpoint its delays. Owned and advanced by one thread.
#pragma once

#include <cstdint>

namespace dist {

inline std::uint64_t splitmix(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

}  // namespace dist
