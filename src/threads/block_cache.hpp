// A worker's cache of large freed heap blocks, in front of ::operator delete and new.
//
// Why: glibc gives the top of a heap back to the kernel once more than its trim threshold
// (128 KiB) is free there, and maps blocks of its mmap threshold or more on their own. A
// depth-first schedule frees and remakes the same large blocks over and over, so the heap
// shrank and regrew at every turn: a syscall, an inter-processor interrupt to flush the other
// CPU's TLB, and the pages faulted back in. The worker running the leftmost threads stalled
// while the other ran ahead and allocated, which took df and dfd past their space bound on
// the synthetic tree at K = 4 KiB (docs/RESULTS.md, "The depth-first space bound").
//
// Invariant BC1: a cache belongs to one OS thread (a worker's), and only that thread touches
// it, between two fiber switches (nothing here switches). Its blocks are freed memory, not
// counted in weft::heap_usage().in_use; the process's cached bytes are one relaxed atomic,
// a count ordered with nothing, reported by Runtime::stats().
#pragma once

#include <cstddef>

namespace weft::detail {

struct WorkerCore;  // weft/detail/worker_core.hpp

class BlockCache {
 public:
  // Blocks smaller than this stay with the C library, whose own bins serve them well.
  static constexpr std::size_t kMinBytes = std::size_t{16} << 10;
  static constexpr std::size_t kMaxEntries = 16;
  // The most one worker keeps: a bound on the memory the caches add, p times this.
  static constexpr std::size_t kMaxBytes = std::size_t{8} << 20;
  // Larger blocks are rare and each would push most of the others out.
  static constexpr std::size_t kMaxBlockBytes = kMaxBytes / 4;

  BlockCache() = default;
  BlockCache(const BlockCache&) = delete;
  BlockCache& operator=(const BlockCache&) = delete;
  ~BlockCache();  // frees what it holds (its worker's OS thread is ending)

  // A kept block of exactly these bytes and align, the most recently kept first; nullptr
  // when there is none.
  void* take(std::size_t bytes, std::size_t align) noexcept;
  // Keeps the freed block p, giving the oldest ones back to ::operator delete to make room;
  // false (and p untouched) for a block too small or too large to keep.
  bool keep(void* p, std::size_t bytes, std::size_t align) noexcept;

  std::size_t entries() const noexcept { return count_; }
  std::size_t bytes() const noexcept { return bytes_; }

 private:
  struct Entry {
    void* p;
    std::size_t bytes;
    std::size_t align;
  };
  void remove(std::size_t i) noexcept;

  Entry entries_[kMaxEntries] = {};
  std::size_t count_ = 0;  // entries_[0, count_), oldest first
  std::size_t bytes_ = 0;
};

// The calling OS thread's cache, given the core it runs now (current_worker_uncached(), read
// after the caller's last switch: a thread may resume on another worker); nullptr for
// g_serial_worker, so code outside a runtime, a serial elision included, goes straight to the
// C library.
BlockCache* block_cache_of(const WorkerCore& running) noexcept;

// Bytes held in all the workers' caches now.
std::size_t cached_heap_bytes() noexcept;

}  // namespace weft::detail
