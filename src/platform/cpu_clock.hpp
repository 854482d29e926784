// Threads' CPU-time clocks: how the busy limit's watchman tells whether the busy workers are
// running or blocked in the kernel.
#pragma once

#include <cstdint>

namespace weft::platform {

// The calling thread's CPU-time clock, which any thread of the process may read
// (pthread_getcpuclockid), or -1 if it cannot be had.
int thread_cpu_clock() noexcept;

// The CPU nanoseconds that `clock`'s thread has used so far, its current time slice included
// (the kernel adds a running thread's pending runtime; the process-wide clock does not, which
// leaves it a scheduler tick behind for every thread running elsewhere). 0 for clock -1 or an
// error. A system call of about a microsecond.
std::uint64_t cpu_clock_ns(int clock) noexcept;

}  // namespace weft::platform
