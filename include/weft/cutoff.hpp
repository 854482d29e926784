// Cutoffs: ways for a program to stop creating tasks when they would only cost overhead
// (Olivier & Prins, section 4.4). Each keeps the program's result exact: a task not spawned
// is run at once, serially, by the caller.
//
//   weft::spawn_if(depth < L, f)                    max-level: spawn only above depth L
//   weft::spawn_if(weft::pending_tasks() < k, f)    max-tasks: spawn only while fewer than k
//                                                   tasks wait on this worker's stack
//   weft::spawn_if(cond, f)                         any if-clause
#pragma once

#include <cstdint>
#include <utility>

#include "weft/future.hpp"
#include "weft/maybe_future.hpp"

namespace weft {

// The number of tasks spawned on the calling worker and not yet started (its stack's
// n = T - H). 0 outside a runtime. A racy snapshot: thieves may be taking some right now.
inline std::int64_t pending_tasks() noexcept {
  const detail::TaskStack& stack = detail::current_worker()->stack;
  return stack.capacity() == 0 ? 0 : stack.owner_available();  // the serial worker: none
}

// spawn(fn) if `cond`, else runs fn now on the caller (like OpenMP's if clause on a task)
// and returns a MaybeFuture that holds its outcome inline. Either way join() gives the value
// (or rethrows the task's exception).
template <class F>
SpawnedIfFuture<F> spawn_if(bool cond, F&& fn) {
  if (cond) return SpawnedIfFuture<F>(spawn(std::forward<F>(fn)));
  return SpawnedIfFuture<F>(detail::RunHere{}, std::forward<F>(fn));
}

}  // namespace weft
