// The entry of every parallel loop: serially outside a runtime, else by the scheme the
// runtime's Config::loops names.
#include "core/loop/serial_loop.hpp"
#include "weft/detail/worker_core.hpp"

namespace weft::detail {

void run_loop(std::uint64_t n, const LoopBody& body, const LoopOptions& options) {
  const Schedule schedule = options.schedule.value_or(Schedule::automatic());
  run_serially(body, 0, n, options, ChunkPlan::make(n, schedule, 1));
}

}  // namespace weft::detail
