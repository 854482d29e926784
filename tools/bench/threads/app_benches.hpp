// The applications of `weft-bench threads` (Narlikar & Blelloch's Figures 8 and 9, from
// workloads/thread_apps): Barnes-Hut (serial, coarse: a thread per worker and barriers, fine: a
// thread per subtree under each scheduler) and the decision-tree builder (serial, fine under
// each scheduler). Each run verifies itself; a failed check throws WrongAnswer.
#pragma once

#include "tools/bench/threads/series_runner.hpp"

namespace bench_threads {

// Each adds its series and blocks to the sitting's result.
void run_barnes(Sitting& sitting);
void run_dtree(Sitting& sitting);

}  // namespace bench_threads
