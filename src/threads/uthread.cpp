// ThreadStore: the blocks of user-level threads, made once and recycled (UT1), and their
// stacks, pooled when they have the default size.
#include "threads/uthread.hpp"

#include <algorithm>

#include "core/pool.hpp"
#include "weft/detail/slot.hpp"

namespace weft::detail {

namespace {
// A thread's task stack: one slot per 64 bytes of the default thread stack, as a worker's
// (Config::resolved_task_slots), so a recursion can spawn at every level its stack allows.
Index thread_task_slots(std::size_t stack_bytes) noexcept {
  return static_cast<Index>(std::max<std::size_t>(stack_bytes / kSlotBytes, 16));
}
}  // namespace

ThreadStore::ThreadStore(Pool& pool, std::size_t default_stack_bytes, std::size_t workers)
    : pool_(pool),
      default_stacks_(default_stack_bytes, /*max_pooled=*/1024),
      own_(std::make_unique<OwnLists[]>(workers)),
      workers_(workers) {}

ThreadStore::~ThreadStore() {
  // The workers have stopped: their idle stacks go back, to be kept or unmapped.
  for (std::size_t w = 0; w < workers_; ++w) {
    own_[w].stacks.drain(
        [&](const platform::FiberStack* s, std::size_t n) { default_stacks_.give_back(s, n); });
  }
}

std::size_t ThreadStore::stack_bytes_pooled() const noexcept {
  std::size_t idle = default_stacks_.pooled();
  for (std::size_t w = 0; w < workers_; ++w) idle += own_[w].stacks.count();
  return idle * default_stacks_.usable_bytes();
}

platform::FiberStack ThreadStore::acquire_default_stack(int worker) {
  if (worker == kNoWorker) return default_stacks_.acquire();
  platform::FiberStack s;
  const bool reused = own_[worker].stacks.pop(s, [&](platform::FiberStack* into, std::size_t n) {
    return default_stacks_.take_idle(into, n);
  });
  if (!reused) return default_stacks_.acquire();  // none idle anywhere: a new mapping
  platform::forget_frames(s);  // the last thread on it never returned from its frames
  return s;
}

UThread* ThreadStore::reuse_block(int worker) noexcept {
  const auto from_shared = [&](UThread** into, std::size_t n) {
    std::lock_guard lock(mutex_);
    const std::size_t taken = std::min(n, free_.size());
    std::copy(free_.end() - static_cast<std::ptrdiff_t>(taken), free_.end(), into);
    free_.resize(free_.size() - taken);
    return taken;
  };
  UThread* t = nullptr;
  if (worker != kNoWorker) {
    (void)own_[worker].blocks.pop(t, from_shared);
  } else {
    (void)from_shared(&t, 1);
  }
  return t;
}

void ThreadStore::recycle_block(UThread& t, int worker) noexcept {
  const auto to_shared = [&](UThread* const* from, std::size_t n) {
    std::lock_guard lock(mutex_);
    // make reserves room in free_ for every block, so this never allocates.
    free_.insert(free_.end(), from, from + n);
  };
  if (worker != kNoWorker) {
    own_[worker].blocks.push(&t, to_shared);
  } else {
    UThread* const one = &t;
    to_shared(&one, 1);
  }
}

UThread* ThreadStore::make(std::unique_ptr<ThreadBody> body, std::size_t stack_bytes, int worker) {
  UThread* t = reuse_block(worker);
  if (t == nullptr) {
    auto made = std::make_unique<UThread>();
    made->core.stack.init(thread_task_slots(default_stacks_.usable_bytes()),
                          StealMechanism::kConcurrent, pool_.config().barrier == Barrier::kAuto,
                          pool_.config().counts_spawns());
    made->core.pool = &pool_;
    made->core.thread = made.get();
    made->pool = &pool_;
    std::lock_guard lock(mutex_);
    // Room in free_ for every block, so that recycle_block never allocates; doubled, so that
    // making n blocks copies O(n) pointers.
    if (free_.capacity() < all_.size() + 1) free_.reserve(2 * (all_.size() + 1));
    all_.push_back(std::move(made));
    t = all_.back().get();
  }
  const bool pooled_size = stack_bytes == 0 || stack_bytes == default_stacks_.usable_bytes();
  platform::FiberStack stack;
  try {
    stack = pooled_size ? acquire_default_stack(worker) : platform::map_fiber_stack(stack_bytes);
  } catch (...) {
    recycle_block(*t, worker);  // the mapping failed: the block waits for the next thread
    throw;
  }
  t->stack = stack;
  t->pooled_stack = pooled_size;
  t->context.prepare(stack.bottom(), stack.usable_bytes(), &thread_main);
  t->body = std::move(body);
  t->error = nullptr;
  t->number = made_.fetch_add(1, std::memory_order_relaxed) + 1;
  t->refs.store(2, std::memory_order_relaxed);  // published by the scheduler's lock
  t->finished = false;
  t->exceptions = {};
  t->ever_stealable = false;
  t->stands_for_quota = false;
  t->state.store(UThread::State::kDone, std::memory_order_relaxed);  // until added
  t->detached = false;
  t->folded_spawns = t->core.spawns.get();
  t->folded_overflow_spawns = t->core.overflow_spawns.get();
  t->folded_stolen_joins = t->core.stolen_joins.get();
  t->folded_inline_loops = t->core.inline_loops.get();
  const std::size_t live = live_.fetch_add(1, std::memory_order_relaxed) + 1;
  std::size_t high = max_live_.load(std::memory_order_relaxed);
  while (live > high && !max_live_.compare_exchange_weak(high, live, std::memory_order_relaxed)) {
  }
  stack_bytes_live_.fetch_add(stack.usable_bytes(), std::memory_order_relaxed);
  return t;
}

std::vector<UThread*> ThreadStore::blocks() {
  std::vector<UThread*> out;
  std::lock_guard lock(mutex_);
  out.reserve(all_.size());
  for (const auto& t : all_) out.push_back(t.get());
  return out;
}

void ThreadStore::release_stack(UThread& t, int worker) noexcept {
  stack_bytes_live_.fetch_sub(t.stack.usable_bytes(), std::memory_order_relaxed);
  if (t.pooled_stack && worker != kNoWorker) {
    own_[worker].stacks.push(t.stack, [&](const platform::FiberStack* s, std::size_t n) {
      default_stacks_.give_back(s, n);
    });
  } else if (t.pooled_stack) {
    default_stacks_.release(t.stack);
  } else {
    platform::unmap_fiber_stack(t.stack);
  }
  t.stack = {};
  // release: a Runtime destructor that sees no live thread sees everything it did.
  live_.fetch_sub(1, std::memory_order_release);
}

void ThreadStore::unref(UThread& t, int worker) noexcept {
  // acq_rel: the other owner's accesses happen-before the block's reuse.
  if (t.refs.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  recycle_block(t, worker);
}

}  // namespace weft::detail
