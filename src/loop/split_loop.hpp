// The split scheme (Config::loops = split): lazy binary splitting over weft's task stacks
// (Tzannes, Caragea, Barua & Vishkin, PPoPP 2010). A loop is a task that runs its range a
// grain at a time; before each grain, if its worker has nothing a thief could take, it
// spawns the upper half of what is left as a task of its own and keeps the lower half.
// So a loop creates tasks only while some thief might want one, and idle workers find
// loops the way they find any task: by stealing. A steal costs what any steal costs (under
// the concurrent mechanism a membarrier, 11-17 us with the other core busy), where taking
// a PCB's chunk costs one atomic.
//
// Each range task keeps its own private state (an init() result, a reduction's
// accumulator), so a loop makes one per stolen piece rather than one per worker. A chunk
// that throws raises the loop's stop flag: the pieces look at it before each grain and stop.
#pragma once

#include <cstdint>

#include "weft/detail/loop_body.hpp"
#include "weft/loop.hpp"

namespace weft::detail {

// Runs the loop over offsets [0, n) on the calling worker of a pool of `workers`.
void run_split(std::uint64_t n, const LoopBody& body, const LoopOptions& options, Schedule schedule,
               unsigned workers);

}  // namespace weft::detail
