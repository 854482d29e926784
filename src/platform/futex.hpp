// Sleeping on a 32-bit word: the Linux futex, with an optional timeout.
#pragma once

#include <atomic>
#include <chrono>
#include <climits>
#include <cstdint>

namespace weft::platform {

// Sleeps while *word == expected, until woken, the timeout passes (if positive), or a
// spurious wake-up. The kernel compares and sleeps atomically, so a wake issued after the
// caller read `expected` cannot be lost.
void futex_wait(std::atomic<std::uint32_t>& word, std::uint32_t expected,
                std::chrono::microseconds timeout = std::chrono::microseconds::zero()) noexcept;
// Wakes up to `count` threads sleeping on `word` (kWakeAll: every one).
inline constexpr int kWakeAll = INT_MAX;
void futex_wake(std::atomic<std::uint32_t>& word, int count) noexcept;

}  // namespace weft::platform
