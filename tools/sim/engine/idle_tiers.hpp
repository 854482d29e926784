// What a simulated worker with nothing to do does after a failed steal attempt: weft's idle
// tiers (src/model/idle_backoff.hpp, whose thresholds this reads rather than copies), in
// simulated time. Spin: 16 (P-1) attempts with a pause; yield: as many again, and for at
// least kMinYield; then sleep, where one sleeper at a time (the watchman) naps from
// kFirstNap doubling to kMaxNap and looks again, and the others park until a thief that
// leaves work behind wakes one.
#pragma once

#include <algorithm>
#include <cstdint>

#include "model/idle_backoff.hpp"

namespace sim {

class IdleTiers {
 public:
  enum class Step : std::uint8_t { kSpin, kYield, kSleep };

  explicit IdleTiers(unsigned workers)
      : spin_limit_(weft::detail::kSpinAttemptsPerVictim * std::max(1u, workers - 1)),
        yield_limit_(spin_limit_ +
                     weft::detail::kYieldAttemptsPerVictim * std::max(1u, workers - 1)) {}

  void reset() {
    failures_ = 0;
    nap_ps_ = to_ps(weft::detail::kFirstNap);
  }

  // One more failed attempt at simulated time `now_ps`: what to do next.
  Step failed(std::uint64_t now_ps) {
    if (failures_ > yield_limit_) return Step::kSleep;
    ++failures_;
    if (failures_ <= spin_limit_) return Step::kSpin;
    if (failures_ == spin_limit_ + 1) yield_from_ps_ = now_ps;
    if (failures_ <= yield_limit_) return Step::kYield;
    if (now_ps - yield_from_ps_ < to_ps(weft::detail::kMinYield)) {
      --failures_;  // not yet: stay at the end of the yield tier
      return Step::kYield;
    }
    return Step::kSleep;
  }

  // The watchman's next nap: the first, then twice the last, up to kMaxNap.
  std::uint64_t next_nap_ps() {
    const std::uint64_t nap = nap_ps_;
    nap_ps_ = std::min(2 * nap_ps_, to_ps(weft::detail::kMaxNap));
    return nap;
  }

 private:
  static std::uint64_t to_ps(std::chrono::microseconds us) {
    return static_cast<std::uint64_t>(us.count()) * 1'000'000;
  }

  unsigned spin_limit_;
  unsigned yield_limit_;
  unsigned failures_ = 0;
  std::uint64_t yield_from_ps_ = 0;
  std::uint64_t nap_ps_ = to_ps(weft::detail::kFirstNap);
};

}  // namespace sim
