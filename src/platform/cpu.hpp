// Small CPU helpers: a spin-wait hint, the stack pointer, and a per-worker random generator.
#pragma once

#include <cstdint>

namespace weft::platform {

inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

inline const char* stack_pointer() noexcept {
  return static_cast<const char*>(__builtin_frame_address(0));
}

// SplitMix64 seeding a xorshift64*: tiny, fast, and good enough to pick victims uniformly.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) noexcept : state_(mix(seed) | 1) {}
  std::uint64_t next() noexcept {
    state_ ^= state_ >> 12;
    state_ ^= state_ << 25;
    state_ ^= state_ >> 27;
    return state_ * 0x2545F4914F6CDD1DULL;
  }
  // Uniform in [0, bound), bound > 0 (Lemire's multiply-shift; the bias is below 2^-32).
  std::uint32_t below(std::uint32_t bound) noexcept {
    return static_cast<std::uint32_t>(((next() >> 32) * bound) >> 32);
  }
  static std::uint64_t mix(std::uint64_t z) noexcept {
    z += 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }

 private:
  std::uint64_t state_;
};

}  // namespace weft::platform
