// The rule by which a switching task stack (TaskStack's BS1-BS3) changes the store-load barrier
// its thieves use, shared by the runtime (tasks/barrier_mode.cpp) and the simulator, which
// plays the same windows in simulated time.
#pragma once

#include <cstdint>

namespace weft::detail {

// When a switching stack (TaskStack's BS1-BS3) changes its barrier. By default both windows
// follow the membarrier's measured cost M (a running average of the thieves' own): a stack
// becomes fenced when a membarrier claim comes within kFenceWithinCosts * M of the previous
// one there, and goes back when no thief has come to it for kUnfenceAfterCosts * M. Until a
// membarrier has been timed no stack switches.
inline constexpr std::uint64_t kFenceWithinCosts = 4;
inline constexpr std::uint64_t kUnfenceAfterCosts = 16;
inline constexpr std::uint32_t kRecheckPops = 256;
struct BarrierSwitching {
  std::uint64_t fence_within_ns = 0;  // 0: never fence
  std::uint64_t unfence_after_ns = 0;
  std::uint32_t recheck_pops = kRecheckPops;  // fenced pops between two looks at the clock (>= 1)
};

}  // namespace weft::detail
