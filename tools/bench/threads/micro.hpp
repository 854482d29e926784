// micro: the cost of thread operations (Narlikar & Blelloch's Figure 3) on weft's user-level
// threads, on OS threads (std::thread and the std:: primitives) and, for a switch, on a bare
// Boost.Context jump_fcontext between two contexts. Every weft measurement runs on a fresh
// one-worker Runtime, so that the two threads of a ping-pong take turns on one core; the OS
// threads of a ping-pong are pinned to one CPU for the same reason. Each operation checks
// that it did what it claims (every thread ran, the turns alternated) and throws WrongAnswer
// otherwise.
#pragma once

#include "tools/bench/threads/series_runner.hpp"

namespace bench_threads {

// The micro operations, one MicroSeries each, measured `settings.repeat` times in randomized
// blocks (every operation once per repetition, in an order drawn from the seed), added to the
// sitting's result with their blocks (no pairs: per-operation figures, medians only). Weft's
// create+join, mutex, condvar and semaphore run under every scheduler in settings.scheds; the yield
// switch only under fifo, the one scheduler whose yield hands the worker to the other ready thread
// (under lifo, df and dfd the yielding thread is itself the newest or leftmost ready one and runs
// on).
void run_micro(Sitting& sitting);

}  // namespace bench_threads
