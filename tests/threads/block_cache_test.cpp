// A worker's cache of large freed blocks (src/threads/block_cache.hpp): exact-size reuse,
// the newest block first, the oldest given back when it is full by count or by bytes, the
// process's cached bytes, nothing cached off a worker, and a runtime's caches freed with its
// workers.
#include "threads/block_cache.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <new>
#include <vector>

#include "weft/detail/sanitizers.hpp"
#include "weft/weft.hpp"

#if WEFT_DETAIL_ASAN
#include <sanitizer/asan_interface.h>
#endif

namespace {

using weft::detail::BlockCache;
using weft::detail::cached_heap_bytes;

constexpr std::size_t kAlign = alignof(std::max_align_t);

void* make(std::size_t bytes, std::size_t align = kAlign) {
  return ::operator new (bytes, std::align_val_t{align});
}

TEST(BlockCache, GivesBackAKeptBlockOfExactlyItsSizeAndAlign) {
  BlockCache cache;
  EXPECT_EQ(cache.take(BlockCache::kMinBytes, kAlign), nullptr);
  void* const p = make(BlockCache::kMinBytes);
  ASSERT_TRUE(cache.keep(p, BlockCache::kMinBytes, kAlign));
  EXPECT_EQ(cache.bytes(), BlockCache::kMinBytes);
  EXPECT_EQ(cache.take(BlockCache::kMinBytes + 1, kAlign), nullptr);
  EXPECT_EQ(cache.take(BlockCache::kMinBytes, 64), nullptr);
  EXPECT_EQ(cache.take(BlockCache::kMinBytes, kAlign), p);
  EXPECT_EQ(cache.entries(), 0u);
  EXPECT_EQ(cache.bytes(), 0u);
  ::operator delete (p, BlockCache::kMinBytes, std::align_val_t{kAlign});
}

TEST(BlockCache, RefusesSmallAndHugeBlocks) {
  BlockCache cache;
  void* const small = make(BlockCache::kMinBytes - 1);
  EXPECT_FALSE(cache.keep(small, BlockCache::kMinBytes - 1, kAlign));
  ::operator delete (small, BlockCache::kMinBytes - 1, std::align_val_t{kAlign});
  void* const huge = make(BlockCache::kMaxBlockBytes + 1);
  EXPECT_FALSE(cache.keep(huge, BlockCache::kMaxBlockBytes + 1, kAlign));
  ::operator delete (huge, BlockCache::kMaxBlockBytes + 1, std::align_val_t{kAlign});
  EXPECT_EQ(cache.entries(), 0u);
}

TEST(BlockCache, TakesTheNewestBlockFirst) {
  BlockCache cache;
  const std::size_t n = BlockCache::kMinBytes;
  void* const older = make(n);
  void* const newer = make(n);
  ASSERT_TRUE(cache.keep(older, n, kAlign));
  ASSERT_TRUE(cache.keep(newer, n, kAlign));
  EXPECT_EQ(cache.take(n, kAlign), newer);
  EXPECT_EQ(cache.take(n, kAlign), older);
  ::operator delete (older, n, std::align_val_t{kAlign});
  ::operator delete (newer, n, std::align_val_t{kAlign});
}

TEST(BlockCache, AFullCacheGivesBackItsOldestBlock) {
  BlockCache cache;
  // Sizes tell the blocks apart: entry i is kMinBytes + i.
  for (std::size_t i = 0; i <= BlockCache::kMaxEntries; ++i) {
    const std::size_t bytes = BlockCache::kMinBytes + i;
    ASSERT_TRUE(cache.keep(make(bytes), bytes, kAlign));
  }
  EXPECT_EQ(cache.entries(), BlockCache::kMaxEntries);
  EXPECT_EQ(cache.take(BlockCache::kMinBytes, kAlign), nullptr);  // the oldest went
  for (std::size_t i = 1; i <= BlockCache::kMaxEntries; ++i) {
    const std::size_t bytes = BlockCache::kMinBytes + i;
    void* const p = cache.take(bytes, kAlign);
    ASSERT_NE(p, nullptr) << i;
    ::operator delete (p, bytes, std::align_val_t{kAlign});
  }
}

TEST(BlockCache, KeepsNoMoreThanItsBytes) {
  BlockCache cache;
  const std::size_t bytes = BlockCache::kMaxBlockBytes;
  const std::size_t fit = BlockCache::kMaxBytes / bytes;
  for (std::size_t i = 0; i < fit + 2; ++i) ASSERT_TRUE(cache.keep(make(bytes), bytes, kAlign));
  EXPECT_EQ(cache.entries(), fit);
  EXPECT_LE(cache.bytes(), BlockCache::kMaxBytes);
}

TEST(BlockCache, TheProcessCountFollowsEveryCache) {
  const std::size_t base = cached_heap_bytes();
  {
    BlockCache cache;
    const std::size_t n = BlockCache::kMinBytes;
    void* const p = make(n);
    ASSERT_TRUE(cache.keep(p, n, kAlign));
    ASSERT_TRUE(cache.keep(make(2 * n), 2 * n, kAlign));
    EXPECT_EQ(cached_heap_bytes(), base + 3 * n);
    EXPECT_EQ(cache.take(n, kAlign), p);
    EXPECT_EQ(cached_heap_bytes(), base + 2 * n);
    ::operator delete (p, n, std::align_val_t{kAlign});
  }
  EXPECT_EQ(cached_heap_bytes(), base);  // the destructor gave the rest back
}

#if WEFT_DETAIL_ASAN
TEST(BlockCache, AKeptBlockIsPoisonedUntilTaken) {
  BlockCache cache;
  const std::size_t n = BlockCache::kMinBytes;
  char* const p = static_cast<char*>(make(n));
  ASSERT_TRUE(cache.keep(p, n, kAlign));
  EXPECT_TRUE(__asan_address_is_poisoned(p));
  EXPECT_TRUE(__asan_address_is_poisoned(p + n - 1));
  EXPECT_EQ(cache.take(n, kAlign), p);
  EXPECT_FALSE(__asan_address_is_poisoned(p));
  EXPECT_FALSE(__asan_address_is_poisoned(p + n - 1));
  ::operator delete (p, n, std::align_val_t{kAlign});
}
#endif

TEST(BlockCache, NoneOffAWorker) {
  EXPECT_EQ(weft::detail::block_cache_of(*weft::detail::current_worker_uncached()), nullptr);
}

// weft::allocate on a worker reuses the block its deallocate kept, the runtime's stats show
// it, and the cache goes with the worker's OS thread.
TEST(BlockCache, AWorkersAllocationsReuseItsFreedBlocksUntilTheRuntimeEnds) {
  const std::size_t base = cached_heap_bytes();
  const std::size_t n = 64 << 10;
  {
    weft::Config config;
    config.workers = 1;
    weft::Runtime rt(config);
    rt.run([&] {
      ASSERT_NE(weft::detail::block_cache_of(*weft::detail::current_worker_uncached()), nullptr);
      const std::size_t in_use = weft::heap_usage().in_use;
      void* const first = weft::allocate(n);
      weft::deallocate(first, n);
      EXPECT_EQ(weft::heap_usage().in_use, in_use);  // a cached block is not in use
      EXPECT_EQ(cached_heap_bytes(), base + n);
      void* const again = weft::allocate(n);
      EXPECT_EQ(again, first);
      EXPECT_EQ(cached_heap_bytes(), base);
      weft::deallocate(again, n);
    });
    EXPECT_EQ(rt.stats().threads.heap_bytes_cached, base + n);
  }
  EXPECT_EQ(cached_heap_bytes(), base);
}

}  // namespace
