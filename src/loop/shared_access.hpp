// The counting build: with WEFT_COUNT_SHARED_ACCESSES defined to 1, every access the PCB
// scheme makes to memory other workers also use (the queue's pointers, a PCB's counters and
// links) adds one to this thread's count, so a test can set its figures per operation next
// to the paper's (section 6: own PCB 2, queue head 3, enqueue 3, dequeue 5, reuse in place 5,
// fork and start under 6). Off (the library), it compiles to nothing.
#pragma once

#include <cstdint>

#ifndef WEFT_COUNT_SHARED_ACCESSES
#define WEFT_COUNT_SHARED_ACCESSES 0
#endif

namespace weft::detail {

#if WEFT_COUNT_SHARED_ACCESSES
inline thread_local std::uint64_t t_shared_accesses = 0;
inline void count_shared(unsigned n = 1) noexcept { t_shared_accesses += n; }
#else
inline void count_shared(unsigned = 1) noexcept {}
#endif

}  // namespace weft::detail
