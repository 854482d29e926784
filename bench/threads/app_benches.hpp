// The applications of `weft-bench threads` (Narlikar & Blelloch's Figures 8 and 9, from
// bench/thread_apps): Barnes-Hut (serial, coarse: a thread per worker and barriers, fine: a
// thread per subtree under each scheduler) and the decision-tree builder (serial, fine under
// each scheduler). Each run verifies itself; a failed check throws WrongAnswer.
#pragma once

#include <vector>

#include "threads/threads_bench.hpp"

namespace threads_bench {

void run_barnes(const Settings& settings, const Progress& progress, std::vector<Series>& out);
void run_dtree(const Settings& settings, const Progress& progress, std::vector<Series>& out);

}  // namespace threads_bench
