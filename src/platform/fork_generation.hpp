// Counts the fork()s this process is a child of, so that an object made before a fork can
// tell that it is now in a child, where only the thread that called fork() exists.
#pragma once

#include <cstdint>

namespace weft::platform {

// 0 in the original process; one more in each child of fork() than in its parent. The first
// call registers the counting handler (pthread_atfork), so call it before any fork that
// matters, e.g. when the object that compares it is made.
std::uint32_t fork_generation() noexcept;

}  // namespace weft::platform
