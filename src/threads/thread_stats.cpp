// Pool::thread_stats: the user-level threads' and the heap's figures for Runtime::stats(),
// less the baseline of the last reset (the caller holds the stats mutex).
#include "core/pool.hpp"
#include "threads/block_cache.hpp"
#include "weft/memory.hpp"

namespace weft::detail {

ThreadStats Pool::thread_stats() const noexcept {
  const ThreadStore& store = thread_store_;
  const ThreadScheduler& sched = threads_;
  const HeapUsage heap = heap_usage();
  const ThreadStats& base = thread_baseline_;
  return ThreadStats{
      .made = store.made() - base.made,
      .live = store.live(),
      .max_live = store.max_live(),
      .dummies = sched.dummies() - base.dummies,
      .preemptions = sched.preemptions() - base.preemptions,
      .sched_lock_acquisitions = sched.lock_acquisitions() - base.sched_lock_acquisitions,
      .stack_bytes_live = store.stack_bytes_live(),
      .stack_bytes_pooled = store.stack_bytes_pooled(),
      .heap_in_use = heap.in_use,
      .heap_high_water = heap.high_water,
      .heap_bytes_cached = cached_heap_bytes(),
  };
}

void Pool::reset_thread_stats() noexcept {
  thread_baseline_.made = thread_store_.made();
  thread_baseline_.dummies = threads_.dummies();
  thread_baseline_.preemptions = threads_.preemptions();
  thread_baseline_.sched_lock_acquisitions = threads_.lock_acquisitions();
  thread_store_.reset_max_live();
  reset_heap_high_water();
}

}  // namespace weft::detail
