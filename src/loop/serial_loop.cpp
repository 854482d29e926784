#include "loop/serial_loop.hpp"

#include <new>

namespace weft::detail {

OwnedState::OwnedState(const LoopBody& body) : body_(body) {
  if (body.state_size == 0) return;
  void* mem = inline_;
  if (body.state_size > sizeof inline_ || body.state_align > kInlineAlign) {
    memory_ = ::operator new (body.state_size, std::align_val_t{body.state_align});
    mem = memory_;
  }
  try {
    body.make_state(body, mem);
  } catch (...) {
    if (memory_ != nullptr) ::operator delete (memory_, std::align_val_t{body.state_align});
    throw;
  }
  state_ = mem;
}

OwnedState::~OwnedState() {
  if (state_ != nullptr) body_.destroy(state_);
  if (memory_ != nullptr) ::operator delete (memory_, std::align_val_t{body_.state_align});
}

void run_serially(const LoopBody& body, std::uint64_t begin, std::uint64_t end,
                  const LoopOptions& options, Schedule schedule, unsigned workers) {
  OwnedState state(body);
  if (options.control == nullptr) {
    body.run(body, state.get(), begin, end);
  } else {
    ChunkPlan plan = ChunkPlan::make(end - begin, schedule, workers);
    plan.two_halves = false;  // one worker: its chunks in order, as a serial loop runs them
    ChunkCursor cursor(plan);
    for (std::uint64_t i = 0; i < plan.chunks && !options.control->stopped(); ++i) {
      const ChunkBounds c = cursor.bounds(i);
      if (c.begin < c.end) body.run(body, state.get(), begin + c.begin, begin + c.end);
    }
  }
  if (body.fold != nullptr) body.fold(body, state.get());
}

}  // namespace weft::detail
