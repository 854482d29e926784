// How a worker with nothing to do waits: spin, then yield, then sleep. Every threshold is
// named here with its reason; docs/SLEEP.md, "The idle tiers", has the whole story and
// tools/bench/idle (weft-idle-bench) measures what the thresholds cost.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>

#include "platform/monotonic_clock.hpp"

namespace weft::detail {

// Failed steal attempts per potential victim before a worker stops spinning (pause between
// attempts) and starts yielding, and as many again before it sleeps. Victims are drawn
// uniformly from the P-1 others, so after 16(P-1) draws the chance that one particular
// victim was never probed is (1 - 1/(P-1))^(16(P-1)) < e^-16: a worker only sleeps when
// it has, with near certainty, looked at everybody, yet the spin phase stays around a
// microsecond per victim.
inline constexpr unsigned kSpinAttemptsPerVictim = 16;
inline constexpr unsigned kYieldAttemptsPerVictim = 16;

// The yield tier also lasts at least this long: Config::idle_awake_us, whose default is
// kMinYield. run() wakes a second worker next to the one that takes the root (pool.cpp);
// with few workers the attempts above pass in a few microseconds, and that worker would be
// napping when the root's first spawn comes (a futex wake-up takes some 30-80 us on the
// 2-core VM we measure on). weft-idle-bench at 2 workers: spawn to steal after an idle
// stretch went from 78-133 us (napping) to 54-63 us (what is left is the second thread's
// wake-up). It costs at most this much CPU per idle spell that ends in sleep. A longer
// setting keeps workers awake across short gaps between runs: see Config::idle_awake_us.
inline constexpr std::chrono::microseconds kMinYield{200};

// Sleeping while a run is in progress. Spawns wake nobody (docs/SLEEP.md), so one worker,
// the watchman, naps for a bounded time and looks again; all other idle workers park
// without a timeout and are woken by a thief that leaves work behind or by the watchman
// when it finds work. The first nap is the paper's 100 us halved; naps double up to
// kMaxNap, which bounds how late the pool notices the first spawn after a long serial
// phase (by one nap; the chain of wake-ups then fills the pool). One nap costs some 20 us
// of CPU on the VM we measure on (a timer, two context switches, a steal attempt), so
// during a long serial root the idle workers use about 20 us / kMaxNap = 0.5% of one core
// whatever their number (weft-idle-bench: 0.6% at 2 workers, 0.7% at 8, 1.2% at 32 over a
// 300 ms root, which includes the first, shorter naps and the spells before them).
inline constexpr std::chrono::microseconds kFirstNap{50};
inline constexpr std::chrono::microseconds kMaxNap{4000};

// A join waiting for a stolen task spins this many rounds before it yields between them.
// The awaited task is running on another worker, so a short wait is the common case.
inline constexpr unsigned kJoinSpinRounds = 64;

enum class IdleStep { kSpin, kYield, kSleep };

class IdleBackoff {
 public:
  // `min_yield`: how long the yield tier lasts at least (Config::idle_awake_us).
  IdleBackoff(unsigned workers, std::chrono::microseconds min_yield) noexcept
      : spin_limit_(kSpinAttemptsPerVictim * std::max(1u, workers - 1)),
        yield_limit_(spin_limit_ + kYieldAttemptsPerVictim * std::max(1u, workers - 1)),
        min_yield_(min_yield) {}

  void reset() noexcept {
    failures_ = 0;
    nap_ = kFirstNap;
  }
  // Straight to the sleep tier: for a worker that may not look for work now (the busy limit),
  // for which spinning and yielding would only take CPU time from the busy ones.
  void skip_to_sleep() noexcept { failures_ = yield_limit_ + 1; }
  // Records one more failed attempt and says what to do about it.
  IdleStep failed() noexcept {
    if (failures_ > yield_limit_) return IdleStep::kSleep;  // stays there until reset()
    ++failures_;
    if (failures_ <= spin_limit_) return IdleStep::kSpin;
    if (failures_ == spin_limit_ + 1) yield_from_ns_ = platform::monotonic_ns();
    if (failures_ <= yield_limit_) return IdleStep::kYield;
    const auto yielded = std::chrono::nanoseconds(platform::monotonic_ns() - yield_from_ns_);
    if (yielded < min_yield_) {
      --failures_;  // not yet: stay at the end of the yield tier
      return IdleStep::kYield;
    }
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
  std::chrono::microseconds min_yield_;
  unsigned failures_ = 0;
  std::uint64_t yield_from_ns_ = 0;
  std::chrono::microseconds nap_ = kFirstNap;
};

}  // namespace weft::detail
