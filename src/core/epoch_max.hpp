// A running maximum that one thread raises and any thread may restart without writing it.
//
// Counters are reset by a baseline the reader subtracts (Counter), but a maximum cannot be
// recovered from two maxima. So the owner tags the value it stores with the reset epoch it
// read, and a reader takes the value only if its tag is the current epoch: after a reset
// (the epoch advanced) the old maximum reads as 0 until the owner raises it again, and the
// owner starts over from 0 the first time it sees the new epoch.
//
// Invariants:
//   EM1 Only the owner stores `packed_`; only the resetter advances the epoch.
//   EM2 get(e) never returns a value the owner stored under another epoch.
// Memory order: everything relaxed. The value is a statistic; EM2 holds for any interleaving
// because tag and value travel in one word.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>

namespace weft::detail {

class EpochMax {
 public:
  // 40 bits of value (1 TiB, more than any stack) and 24 bits of epoch: a value from 2^24
  // resets ago would be taken as current, which needs that many resets between two steals.
  static constexpr unsigned kValueBits = 40;
  static constexpr std::uint64_t kValueMask = (std::uint64_t{1} << kValueBits) - 1;
  static constexpr std::uint32_t kEpochMask = (std::uint32_t{1} << (64 - kValueBits)) - 1;

  // Owner: raises the maximum of `epoch` to `v`.
  void raise_to(std::uint64_t v, std::uint32_t epoch) noexcept {
    v = std::min(v, kValueMask);
    const std::uint64_t old = packed_.load(std::memory_order_relaxed);
    const bool same = tag(old) == (epoch & kEpochMask);
    if (!same || v > (old & kValueMask)) {
      packed_.store((std::uint64_t{epoch & kEpochMask} << kValueBits) | v,
                    std::memory_order_relaxed);
    }
  }

  // Any thread: the maximum raised under `epoch`, or 0.
  std::uint64_t get(std::uint32_t epoch) const noexcept {
    const std::uint64_t p = packed_.load(std::memory_order_relaxed);
    return tag(p) == (epoch & kEpochMask) ? (p & kValueMask) : 0;
  }

 private:
  static std::uint32_t tag(std::uint64_t p) noexcept {
    return static_cast<std::uint32_t>(p >> kValueBits);
  }
  std::atomic<std::uint64_t> packed_{0};
};

}  // namespace weft::detail
