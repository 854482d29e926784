// The random numbers the theoretical models draw: the runtime's own victim generator
// (weft::platform::Rng, SplitMix64 seeding xorshift64*), with the few distributions the
// models need written out here, so that the same seed gives the same run on every standard
// library (std::uniform_real_distribution and friends are not specified bit for bit).
#pragma once

#include <cmath>
#include <cstdint>

#include "platform/cpu.hpp"

namespace sim {

class ModelRandom {
 public:
  explicit ModelRandom(std::uint64_t seed) noexcept : rng_(seed) {}

  // Uniform in [0, bound), bound > 0.
  std::uint32_t below(std::uint32_t bound) noexcept { return rng_.below(bound); }
  // Uniform over [0, count) without `excluded` (count >= 2): a victim other than oneself.
  std::uint32_t other_than(std::uint32_t excluded, std::uint32_t count) noexcept {
    const std::uint32_t pick = rng_.below(count - 1);
    return pick >= excluded ? pick + 1 : pick;
  }
  // Uniform in [0, 1) with 53 random bits.
  double unit() noexcept { return static_cast<double>(rng_.next() >> 11) * 0x1.0p-53; }
  bool bernoulli(double p) noexcept { return unit() < p; }
  // Exponential with the given rate (> 0); 1 - unit() is in (0, 1], so the log is finite.
  double exponential(double rate) noexcept { return -std::log(1.0 - unit()) / rate; }

 private:
  weft::platform::Rng rng_;
};

}  // namespace sim
