// How a worker with nothing to do waits: spin, then yield, then sleep. Every threshold is
// named here with its reason; docs/ARCHITECTURE.md, "Idling", has the whole story.
#pragma once

#include <algorithm>
#include <chrono>

namespace weft::detail {

// Failed steal attempts per potential victim before a worker stops spinning (pause between
// attempts) and starts yielding, and as many again before it sleeps. Victims are drawn
// uniformly from the P-1 others, so after 16(P-1) draws the chance that one particular
// victim was never probed is (1 - 1/(P-1))^(16(P-1)) < e^-16: a worker only sleeps when
// it has, with near certainty, looked at everybody, yet the spin phase stays around a
// microsecond per victim.
inline constexpr unsigned kSpinAttemptsPerVictim = 16;
inline constexpr unsigned kYieldAttemptsPerVictim = 16;

// While a run is in progress a sleeping worker naps for a bounded time and looks again, so
// that a wake-up an owner never sends (spawns do not wake anyone: see "Idling") costs at
// most one nap of parallelism. The first nap is the paper's 100 us halved; naps double up
// to 1 ms, which keeps a worker idle through a long serial phase near 0.1% CPU.
inline constexpr std::chrono::microseconds kFirstNap{50};
inline constexpr std::chrono::microseconds kMaxNap{1000};

// A join waiting for a stolen task spins this many rounds before it yields between them.
// The awaited task is running on another worker, so a short wait is the common case.
inline constexpr unsigned kJoinSpinRounds = 64;

enum class IdleStep { kSpin, kYield, kSleep };

class IdleBackoff {
 public:
  explicit IdleBackoff(unsigned workers) noexcept
      : spin_limit_(kSpinAttemptsPerVictim * std::max(1u, workers - 1)),
        yield_limit_(spin_limit_ + kYieldAttemptsPerVictim * std::max(1u, workers - 1)) {}

  void reset() noexcept {
    failures_ = 0;
    nap_ = kFirstNap;
  }
  // Records one more failed attempt and says what to do about it.
  IdleStep failed() noexcept {
    ++failures_;
    if (failures_ <= spin_limit_) return IdleStep::kSpin;
    if (failures_ <= yield_limit_) return IdleStep::kYield;
    return IdleStep::kSleep;
  }
  // The next nap, doubling up to kMaxNap.
  std::chrono::microseconds next_nap() noexcept {
    const auto nap = nap_;
    nap_ = std::min(nap_ * 2, kMaxNap);
    return nap;
  }

 private:
  unsigned spin_limit_;
  unsigned yield_limit_;
  unsigned failures_ = 0;
  std::chrono::microseconds nap_ = kFirstNap;
};

}  // namespace weft::detail
