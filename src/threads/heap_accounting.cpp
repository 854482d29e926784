// weft::allocate/deallocate and their pmr resource: the process's heap figures, and the
// charge to the running user-level thread that drives the df and dfd schedulers' memory
// quota (weft/memory.hpp).
//
// The heap figures are two process-wide atomics. in_use is updated with a relaxed
// fetch_add/fetch_sub (a count, ordered with nothing); high_water with a relaxed CAS loop
// that only raises it. A thread's charge (UThread::quota_used) is a plain field: only the
// thread itself writes it while it runs, and its worker resets it before switching to it
// (the switch orders the two). On a worker, blocks of 16 KiB and more go back to its
// BlockCache (block_cache.hpp) rather than to the C library, and come from there first.
#include <atomic>
#include <cstdint>
#include <new>

#include "core/pool.hpp"
#include "threads/block_cache.hpp"
#include "threads/uthread.hpp"
#include "threads/worker_switch.hpp"
#include "weft/memory.hpp"
#include "weft/thread.hpp"

namespace weft {

namespace {

std::atomic<std::size_t> g_in_use{0};      // relaxed: a count
std::atomic<std::size_t> g_high_water{0};  // relaxed: a max, raised by CAS

void count_allocation(std::size_t bytes) noexcept {
  const std::size_t now = g_in_use.fetch_add(bytes, std::memory_order_relaxed) + bytes;
  std::size_t high = g_high_water.load(std::memory_order_relaxed);
  while (now > high && !g_high_water.compare_exchange_weak(high, now, std::memory_order_relaxed)) {
  }
}

// The quota applies to a user-level thread under df or dfd with a quota set; nullptr
// otherwise (a task, fifo or lifo, no quota, no runtime).
detail::UThread* quota_thread(std::size_t& quota) noexcept {
  detail::WorkerCore* const core = detail::current_worker_uncached();
  if (core == nullptr || core->thread == nullptr) return nullptr;
  const Config& config = core->thread->pool->config();
  if (config.mem_quota_bytes == 0 || !detail::depth_first(config.thread_sched)) return nullptr;
  quota = config.mem_quota_bytes;
  return core->thread;
}

// n threads that do nothing but fork the rest as a binary tree and join them: under a
// depth-first scheduler each fork preempts its parent, so the allocation that waits for
// them lets the threads left of it run first (AsyncDF's delay for a large allocation). Each
// stands for K bytes: under dfd its end sends its worker to the leftmost deque, as a
// preemption does (ThreadScheduler::take_after_quota), where it would otherwise pop its own
// deque and never leave the path it is on.
void fork_dummy_tree(std::size_t n) {
  if (n == 0) return;
  const std::size_t left = (n - 1) / 2;
  thread t([left] {
    detail::current_worker_uncached()->thread->stands_for_quota = true;
    fork_dummy_tree(left);
  });
  fork_dummy_tree(n - 1 - left);
  t.join();
}

}  // namespace

void* allocate(std::size_t bytes, std::size_t align) {
  std::size_t quota = 0;
  detail::UThread* t = quota_thread(quota);
  if (t != nullptr) {
    // AsyncDF's two rules. An allocation of m > K bytes waits for ceil(m/K) dummies, which
    // stand for its K-byte parts in the depth-first order and so pay for it: it is made at
    // once after them. A smaller one that would take the thread past its quota waits for the
    // thread's next turn (a preemption in place) and is made with a fresh quota. The wait
    // comes before the bytes are taken: a thread preempted after its allocation would sit on
    // them while others run, and under dfd the worker it left steals an outer continuation
    // that allocates in turn (1.56 S1 on the 1024 matrix multiply, against 1.08 now).
    if (bytes > quota) {
      const std::size_t dummies = (bytes + quota - 1) / quota;
      t->pool->threads().count_dummies(dummies);
      fork_dummy_tree(dummies);
    } else if (t->quota_used + static_cast<std::int64_t>(bytes) >
               static_cast<std::int64_t>(quota)) {
      t->pool->threads().count_preemption();
      detail::switch_to_worker(
          detail::Worker::AfterSwitch{.kind = detail::Worker::AfterSwitch::kPreempt});
    }
  }
  // Read after any switch above: the same thread, perhaps on another worker.
  detail::WorkerCore* const core = detail::current_worker_uncached();
  if (t != nullptr) t = core->thread;
  detail::BlockCache* const cache = detail::block_cache_of(*core);
  void* p = cache != nullptr ? cache->take(bytes, align) : nullptr;
  if (p == nullptr) p = ::operator new (bytes, std::align_val_t{align});
  count_allocation(bytes);
  if (t != nullptr) t->quota_used += static_cast<std::int64_t>(bytes);
  return p;
}

void deallocate(void* p, std::size_t bytes, std::size_t align) noexcept {
  if (p == nullptr) return;
  detail::WorkerCore* const core = detail::current_worker_uncached();
  detail::BlockCache* const cache = detail::block_cache_of(*core);
  if (cache == nullptr || !cache->keep(p, bytes, align)) {
    ::operator delete (p, bytes, std::align_val_t{align});
  }
  g_in_use.fetch_sub(bytes, std::memory_order_relaxed);
  if (core->thread != nullptr) {
    core->thread->quota_used -= static_cast<std::int64_t>(bytes);  // net bytes
  }
}

namespace {

class ChargingResource final : public std::pmr::memory_resource {
  void* do_allocate(std::size_t bytes, std::size_t align) override {
    return weft::allocate(bytes, align);
  }
  void do_deallocate(void* p, std::size_t bytes, std::size_t align) override {
    weft::deallocate(p, bytes, align);
  }
  bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override {
    return this == &other;
  }
};

}  // namespace

std::pmr::memory_resource* memory_resource() noexcept {
  static ChargingResource resource;
  return &resource;
}

HeapUsage heap_usage() noexcept {
  return {.in_use = g_in_use.load(std::memory_order_relaxed),
          .high_water = g_high_water.load(std::memory_order_relaxed)};
}

void reset_heap_high_water() noexcept {
  g_high_water.store(g_in_use.load(std::memory_order_relaxed), std::memory_order_relaxed);
}

}  // namespace weft
