// The type-erased form of a parallel loop that weft/loop.hpp hands to the runtime: the
// loop's callables stay in the caller's frame (the caller waits for the loop), and the
// runtime reaches them through these function pointers, one indirect call per chunk.
#pragma once

#include <cstddef>
#include <cstdint>

namespace weft {
struct LoopOptions;
}

namespace weft::detail {

struct LoopBody {
  // Runs the iterations at offsets [b, e) from the loop's lower bound, with the calling
  // worker's private state (nullptr for a loop without one). May throw.
  void (*run)(const LoopBody& self, void* state, std::uint64_t b, std::uint64_t e) = nullptr;
  // Loops with a private state (state_size > 0): constructs one in `mem` (aligned to
  // state_align); may throw.
  void (*make_state)(const LoopBody& self, void* mem) = nullptr;
  // Reductions: folds a worker's state into the loop's result when the worker leaves the
  // loop; may throw. nullptr for plain loops with a state.
  void (*fold)(const LoopBody& self, void* state) = nullptr;
  void (*destroy)(void* state) noexcept = nullptr;
  std::size_t state_size = 0;
  std::size_t state_align = 1;
  const void* context = nullptr;  // the loop's callables, in the caller's frame
};

// Runs the loop over offsets [0, n): in parallel on the calling worker's runtime, serially
// outside one. Rethrows the first exception a chunk threw, once every running chunk ended.
void run_loop(std::uint64_t n, const LoopBody& body, const LoopOptions& options);

}  // namespace weft::detail
