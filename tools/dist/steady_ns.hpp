// The steady clock in nanoseconds, the one clock of the distributed search: the profile's
// phases and latencies and the in-process network's delivery times. On Linux it is
// CLOCK_MONOTONIC, one clock for every process of a host, so a work message's send time can
// be compared with its receipt on another rank of the same host.
#pragma once

#include <chrono>
#include <cstdint>

namespace dist {

inline std::int64_t steady_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace dist
