// A loop run on the calling thread alone: outside any runtime, when adaptive forking finds
// nobody idle, or when the worker's PCB stack or loop frame stack is full.
#pragma once

#include <cstddef>
#include <cstdint>

#include "loop/chunk_plan.hpp"
#include "weft/detail/loop_body.hpp"
#include "weft/loop.hpp"

namespace weft::detail {

// A loop's private state in memory of its own (the heap, or a buffer in this object when it
// is small): for serial runs, which need no loop frame stack.
class OwnedState {
 public:
  explicit OwnedState(const LoopBody& body);
  ~OwnedState();
  OwnedState(const OwnedState&) = delete;
  OwnedState& operator=(const OwnedState&) = delete;
  void* get() const noexcept { return state_; }

 private:
  const LoopBody& body_;
  static constexpr std::size_t kInlineAlign = 64;
  alignas(kInlineAlign) unsigned char inline_[128];
  void* memory_ = nullptr;  // heap memory when the state does not fit inline_
  void* state_ = nullptr;   // the constructed state, or nullptr
};

// Runs offsets [begin, end) of the loop serially: in one call of the body, or, when a
// LoopControl may stop it, chunk by chunk as `schedule` cuts the range for `workers`. Folds a
// reduction's state. Exceptions propagate.
void run_serially(const LoopBody& body, std::uint64_t begin, std::uint64_t end,
                  const LoopOptions& options, Schedule schedule, unsigned workers);

}  // namespace weft::detail
