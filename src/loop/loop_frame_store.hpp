// Where the private state of a worker in a loop lives (an init() result, a reduction's
// accumulator): its loop frame, kept as Config::loop_frames says. ("Loop frame" is always said
// in full: a bare "frame" in weft is a spawn's frame, whose cost the profile calls frame
// management.)
//   LoopFrameStack  each worker's own LIFO stack (the paper's section 5): the owner of a loop
//                   frees its loop frame only after the loop, and a helper frees its loop frame
//                   before it leaves a loop, so loop frames are freed in the reverse order of
//                   allocation. Allocation is a pointer bump; no other worker ever touches it.
//   LoopFramePool   one pool shared by all workers under a lock (the paper's "g"): free loop
//                   frames are kept for reuse, first fit.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

namespace weft::detail {

class LoopFrameStack {
 public:
  // Reserved on first use; untouched pages cost no memory.
  static constexpr std::size_t kBytes = std::size_t{1} << 20;
  // nullptr when the stack is full (the caller runs its loop serially).
  void* push(std::size_t size, std::size_t align) noexcept;
  // Frees the most recent frame.
  void pop(void* loop_frame) noexcept;
  std::size_t used() const noexcept { return top_; }

 private:
  std::unique_ptr<unsigned char[]> memory_;
  std::size_t top_ = 0;
};

class LoopFramePool {
 public:
  LoopFramePool() = default;
  LoopFramePool(const LoopFramePool&) = delete;
  LoopFramePool& operator=(const LoopFramePool&) = delete;
  ~LoopFramePool();
  void* allocate(std::size_t size, std::size_t align);  // throws std::bad_alloc
  void release(void* loop_frame) noexcept;

 private:
  struct Block {
    void* memory;
    std::size_t capacity;
    std::size_t align;
  };
  std::mutex mutex_;
  std::vector<Block> free_;  // guarded by mutex_
  std::vector<Block> used_;  // guarded by mutex_
};

}  // namespace weft::detail
