// Stacks for user-level threads: mmap'd, with a PROT_NONE guard page below the usable part
// (stacks grow down, so an overflow faults on the guard instead of writing over a
// neighbour), and pooled, because a mapping costs two system calls and a pooled stack none.
//
// The pool is shared by every OS thread that creates user-level threads, so it is guarded
// by one mutex; it holds at most `max_pooled` idle stacks and unmaps the rest. Callers that
// make threads often keep a few stacks of their own in front of it and move them in and out
// in batches (take_idle, give_back), so that the mutex is not taken per thread. A stack
// comes out of the pool unpoisoned for AddressSanitizer (forget_frames): the thread that
// last ran on it ended without returning from its frames, and ASan would otherwise keep
// their redzones.
#pragma once

#include <atomic>
#include <cstddef>
#include <mutex>
#include <vector>

namespace weft::platform {

struct FiberStack {
  void* mapping = nullptr;        // the lowest address: the guard page starts here
  std::size_t mapping_bytes = 0;  // guard included
  std::size_t guard_bytes = 0;

  // The usable part, [bottom(), top()): a new context starts at top() and grows down.
  char* bottom() const noexcept { return static_cast<char*>(mapping) + guard_bytes; }
  char* top() const noexcept { return static_cast<char*>(mapping) + mapping_bytes; }
  std::size_t usable_bytes() const noexcept { return mapping_bytes - guard_bytes; }
  // Whether `address` lies in this stack's guard page (an overflow).
  bool guards(const void* address) const noexcept {
    const char* a = static_cast<const char*>(address);
    return a >= static_cast<const char*>(mapping) && a < bottom();
  }
};

// The system's page size.
std::size_t page_bytes() noexcept;

// Maps a stack of at least `usable_bytes` (rounded up to pages) under a guard page. Throws
// std::system_error when the kernel refuses; the message names vm.max_map_count, the limit
// that many small stacks hit first (each is two mappings: guard and stack).
FiberStack map_fiber_stack(std::size_t usable_bytes);
void unmap_fiber_stack(const FiberStack& stack) noexcept;
// Clears what AddressSanitizer remembers of the frames of a fiber that ended on `stack`
// without returning from them; a no-op in other builds. Needed before a stack is reused.
void forget_frames(const FiberStack& stack) noexcept;

class FiberStackPool {
 public:
  // Stacks of `usable_bytes` (rounded up to pages); at most `max_pooled` kept idle.
  FiberStackPool(std::size_t usable_bytes, std::size_t max_pooled);
  ~FiberStackPool();
  FiberStackPool(const FiberStackPool&) = delete;
  FiberStackPool& operator=(const FiberStackPool&) = delete;

  // A pooled stack, or a new one (may throw as map_fiber_stack does).
  FiberStack acquire();
  // Gives back a stack from acquire() that nothing runs on any more.
  void release(const FiberStack& stack) noexcept;
  // Moves up to `n` idle stacks into `out` without mapping any; returns how many. The caller
  // calls forget_frames on each before it runs a fiber there.
  std::size_t take_idle(FiberStack* out, std::size_t n) noexcept;
  // release() for `n` stacks at once, under one lock.
  void give_back(const FiberStack* stacks, std::size_t n) noexcept;

  std::size_t usable_bytes() const noexcept { return usable_bytes_; }
  // Stacks handed out (to fibers or to callers' own caches) and not given back; stacks idle
  // in the pool (relaxed readings).
  std::size_t live() const noexcept { return live_.load(std::memory_order_relaxed); }
  std::size_t pooled() const noexcept { return pooled_.load(std::memory_order_relaxed); }

 private:
  const std::size_t usable_bytes_;
  const std::size_t max_pooled_;
  std::mutex mutex_;
  std::vector<FiberStack> idle_;  // guarded by mutex_
  // Statistics only: written under mutex_ (or by the acquiring thread), read racily.
  std::atomic<std::size_t> live_{0};
  std::atomic<std::size_t> pooled_{0};
};

}  // namespace weft::platform
