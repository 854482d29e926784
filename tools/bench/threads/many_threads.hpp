// many: a million threads of about a microsecond each, to show what the scheduler's global
// lock costs when threads are this cheap (df takes it at every fork, join and end; dfd only
// to steal). The threads form a binary tree in which each thread makes a thread for the left
// half of its range and goes on with the right half itself, so a run of `count` leaves makes
// exactly `count` threads (the root one included), and each thread ends with one leaf: a
// chain of kManyLeafRounds SplitMix64 steps from the leaf's number, summed into the answer.
#pragma once

#include <cstddef>
#include <cstdint>

namespace bench_threads {

// About 1 µs of dependent multiplies on this machine's cores (the serial elision's time per
// leaf is in the report).
inline constexpr std::uint32_t kManyLeafRounds = 300;

std::uint64_t many_expected(std::size_t count);  // by a plain loop over the leaves
std::uint64_t many_serial(std::size_t count);    // the recursion with plain calls
// The recursion with a weft::thread per left half, under a root thread (inside run()).
std::uint64_t many_threads(std::size_t count);

}  // namespace bench_threads
