// BlockCache (block_cache.hpp). Under AddressSanitizer a kept block is poisoned until it is
// taken again, so a use after its deallocate is still reported.
#include "threads/block_cache.hpp"

#include <sanitizer/asan_interface.h>  // its poisoning macros do nothing without ASan

#include <algorithm>
#include <atomic>
#include <new>

#include "platform/noipa.hpp"
#include "weft/detail/worker_core.hpp"

namespace weft::detail {

namespace {

std::atomic<std::size_t> g_cached_bytes{0};  // relaxed: a count (BC1)

void release(void* p, std::size_t bytes, std::size_t align) noexcept {
  ASAN_UNPOISON_MEMORY_REGION(p, bytes);
  ::operator delete (p, bytes, std::align_val_t{align});
}

}  // namespace

BlockCache::~BlockCache() {
  for (std::size_t i = 0; i < count_; ++i)
    release(entries_[i].p, entries_[i].bytes, entries_[i].align);
  g_cached_bytes.fetch_sub(bytes_, std::memory_order_relaxed);
}

void BlockCache::remove(std::size_t i) noexcept {
  bytes_ -= entries_[i].bytes;
  g_cached_bytes.fetch_sub(entries_[i].bytes, std::memory_order_relaxed);
  std::copy(entries_ + i + 1, entries_ + count_, entries_ + i);
  --count_;
}

void* BlockCache::take(std::size_t bytes, std::size_t align) noexcept {
  for (std::size_t i = count_; i-- > 0;) {
    if (entries_[i].bytes == bytes && entries_[i].align == align) {
      void* const p = entries_[i].p;
      remove(i);
      ASAN_UNPOISON_MEMORY_REGION(p, bytes);
      return p;
    }
  }
  return nullptr;
}

bool BlockCache::keep(void* p, std::size_t bytes, std::size_t align) noexcept {
  if (bytes < kMinBytes || bytes > kMaxBlockBytes) return false;
  while (count_ == kMaxEntries || bytes_ + bytes > kMaxBytes) {
    const Entry oldest = entries_[0];
    remove(0);
    release(oldest.p, oldest.bytes, oldest.align);
  }
  ASAN_POISON_MEMORY_REGION(p, bytes);
  entries_[count_++] = Entry{.p = p, .bytes = bytes, .align = align};
  bytes_ += bytes;
  g_cached_bytes.fetch_add(bytes, std::memory_order_relaxed);
  return true;
}

// Out of line so that the thread_local's address is taken afresh at each call (BC1 and llvm
// #98479: a cached TLS address would name the OS thread a fiber ran on before its last
// switch).
WEFT_NOIPA BlockCache* block_cache_of(const WorkerCore& running) noexcept {
  if (&running == &g_serial_worker) return nullptr;
  thread_local BlockCache cache;
  return &cache;
}

std::size_t cached_heap_bytes() noexcept { return g_cached_bytes.load(std::memory_order_relaxed); }

}  // namespace weft::detail
