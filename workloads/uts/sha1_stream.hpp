// The splittable random stream of UTS: every tree node carries a 20-byte SHA-1 digest, and
// a child's digest is a hash of its parent's digest and its index. Any subtree can so be
// generated from its root alone, in any order and on any thread, with the same result.
//
// Definitions (bit-exact with the UTS reference's SHA-1 generator, rng/brg_sha1.c):
//   root state   = SHA-1(16 zero bytes || seed as 4 big-endian bytes)
//   child state  = SHA-1(parent state || child index as 4 big-endian bytes)
//   random value = state bytes 16..19 read big-endian, top bit cleared (31 bits)
//   probability  = random value / 2^31, in [0, 1)
#pragma once

#include <array>
#include <cstdint>

namespace uts {

inline constexpr int kStateBytes = 20;

struct RngState {
  std::array<std::uint8_t, kStateBytes> bytes{};

  friend bool operator==(const RngState&, const RngState&) = default;
};

// The root's state for seed `seed` (the reference's rng_init).
RngState root_state(std::int32_t seed);

// The state of child number `index` of a node with state `parent` (rng_spawn).
RngState child_state(const RngState& parent, std::int32_t index);

// The node's 31-bit random value (rng_rand): it reads the state, it does not advance it.
inline std::int32_t rand31(const RngState& s) {
  const std::uint32_t word = (std::uint32_t{s.bytes[16]} << 24) |
                             (std::uint32_t{s.bytes[17]} << 16) |
                             (std::uint32_t{s.bytes[18]} << 8) | std::uint32_t{s.bytes[19]};
  return static_cast<std::int32_t>(word & 0x7fffffffu);
}

// A 31-bit value as a probability in [0, 1) (rng_toProb). The reference maps negative input
// to 0.0; rand31 never produces any, but the mapping is kept for exactness.
inline double to_prob(std::int32_t n) {
  return n < 0 ? 0.0 : static_cast<double>(n) / 2147483648.0;
}

}  // namespace uts
