// Heap accounting for programs that run user-level threads: weft::allocate/deallocate and a
// std::pmr resource over them. Each allocation is counted in the process's heap figures (in
// use and high-water, also outside any runtime, so that a serial run measures S1) and charged
// to the weft::thread that makes it.
//
// With Config::mem_quota_bytes = K > 0 (WEFT_MEM_QUOTA) and the df or dfd scheduler, the
// charge is what bounds the memory of a parallel run (docs/THREADS.md, "Memory and
// the space bound"): a thread may allocate K net bytes each time it is scheduled, and one whose
// allocation would take it past that is preempted in place before the allocation, so that
// threads earlier in the serial order run first, and makes it when it runs again; an
// allocation of m > K bytes first forks ceil(m/K) dummy threads as a binary tree and joins
// them, which delays it the same way, and is then made. Tasks (not threads) are counted but
// never preempted.
#pragma once

#include <cstddef>
#include <memory_resource>

namespace weft {

// ::operator new with the given alignment, counted and charged. Throws std::bad_alloc.
void* allocate(std::size_t bytes, std::size_t align = alignof(std::max_align_t));
// Frees what allocate returned, with the same bytes and align.
void deallocate(void* p, std::size_t bytes, std::size_t align = alignof(std::max_align_t)) noexcept;

// A std::pmr::memory_resource over allocate/deallocate (one per process; it compares equal
// only to itself).
std::pmr::memory_resource* memory_resource() noexcept;

struct HeapUsage {
  std::size_t in_use = 0;      // bytes allocated and not yet freed
  std::size_t high_water = 0;  // the most in_use has been since the last reset
};
// The process's figures (all runtimes and serial code together).
HeapUsage heap_usage() noexcept;
// Starts a new high-water mark at what is in use now (Runtime::reset_stats does it too).
void reset_heap_high_water() noexcept;

}  // namespace weft
