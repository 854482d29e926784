// The seeded values of the loop workloads' inputs: splitmix64's finaliser (Steele, Lea &
// Flood 2014; Vigna's public-domain code) over (seed, index), so that every element is a
// pure function of its position and verify() can regenerate any of it.
#pragma once

#include <cstdint>

namespace kernels {

inline std::uint64_t seed_mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Element `index` of the stream named by `seed`: the seed is hashed first, so that two seeds'
// streams start 2^64-randomly apart instead of being shifted copies of each other.
inline std::uint64_t seeded(std::uint64_t seed, std::uint64_t index) {
  return seed_mix(seed_mix(seed) + index);
}

// Uniform in [0, 1): the top 53 bits.
inline double unit_uniform(std::uint64_t bits) { return static_cast<double>(bits >> 11) * 0x1p-53; }

}  // namespace kernels
