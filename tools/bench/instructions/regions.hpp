// The measured regions of weft-instructions: each runs one form of a weft operation `size`
// times over (fib(size) for the fork-join forms, size chunks, size yields per thread) on a
// runtime of 1 worker, with callgrind's collection switched on around that work only
// (CALLGRIND_TOGGLE_COLLECT in the worker, whose collection state callgrind keeps per
// thread: the other threads' instructions never count). Every region checks its own result.
#pragma once

#include <string>
#include <vector>

namespace bench_instructions {

// What a region counts: the operations a run of `size` performs (spawns, chunks, yields).
enum class Unit { kFibSpawns, kChunks, kYieldSwitches };

struct Region {
  const char* name;  // --region NAME
  Unit unit;
  const char* what;  // one line for --help
};

// Every region, in the order --help lists them.
const std::vector<Region>& regions();
const Region* find_region(const std::string& name);

// The operations a run of `region` at `size` performs.
long operations(const Region& region, long size);
// The sizes a region accepts: enough to measure, small enough for callgrind.
long max_size(const Region& region);

// Runs `region` at `size` under a runtime with the named steal mechanism ("request" or
// "concurrent"); prints one line "region NAME size N result R membarrier yes|no" on stdout.
// Returns the exit status: 0, or 1 with a message on stderr if the result was wrong.
int run_region(const Region& region, long size, const std::string& mechanism);

}  // namespace bench_instructions
