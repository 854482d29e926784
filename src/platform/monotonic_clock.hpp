// The monotonic clock every timed decision in weft reads: the profile's activity clock, the
// idle back-off's yield spell, the barrier switching windows, the spawn-cost calibration.
#pragma once

#include <cstdint>

namespace weft::platform {

// Nanoseconds on the monotonic clock (vDSO clock_gettime: ~20 ns, no system call). Counts
// from boot, so it is never 0 in practice.
std::uint64_t monotonic_ns() noexcept;

}  // namespace weft::platform
