// The entry of every parallel loop: serially outside a runtime, else on the calling worker
// by the scheme its runtime's Config::loops names.
#include "core/worker.hpp"
#include "loop/serial_loop.hpp"
#include "weft/detail/worker_core.hpp"

namespace weft::detail {

void run_loop(std::uint64_t n, const LoopBody& body, const LoopOptions& options) {
  WorkerCore* const w = current_worker();
  // The pool pointer also tells a pool's worker from frame_cost's calibration stand-in.
  // In a user-level thread too, for now: a chunk that parked the thread would leave its PCB
  // on the worker's loop frame stack under other threads' loops.
  if (!on_worker() || w->pool == nullptr || w->thread != nullptr) {
    run_serially(body, 0, n, options, options.schedule.value_or(Schedule::automatic()), 1);
    return;
  }
  w->runner->loops().run(n, body, options);
}

}  // namespace weft::detail
