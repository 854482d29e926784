// weft::poll(): lets a long stretch of serial code answer steal requests.
//
// Under the request mechanism (Config::mechanism, WEFT_MECHANISM=request) a worker notices
// thieves only at its spawns and joins. A task that runs for long without either (a big
// serial loop, a long leaf) keeps idle workers waiting until their request times out; call
// poll() every so often in such a loop (every few microseconds of work is plenty) to let
// them have the tasks waiting on this worker's stack. Under the concurrent mechanism, and
// outside a runtime, it is a load and a branch that never fires.
#pragma once

#include "weft/detail/worker_core.hpp"

namespace weft {

inline void poll() noexcept {
  detail::WorkerCore* w = detail::current_worker();
  if (w->stack.request_flagged()) [[unlikely]]
    detail::serve_steal_requests(w);
}

}  // namespace weft
