// The sweep results as the paper's tables (plain text for stdout) and as JSON (everything,
// raw times included, for scripts and plots).
#pragma once

#include <ostream>
#include <string>

#include "tools/bench/cli/sweep.hpp"

namespace bench_cli {

// A weft run's counters as JSON, per run: the sums over `repeat` repetitions divided by it
// (steal_sizes_seen: the log2 histogram of n at steal attempts, weft/stats.hpp). fib, uts and
// compare all write them so. Spawns are null where the runtime did not count them.
void counters_json(std::ostream& out, const weft::WorkerStats& c, bool spawns_counted, int repeat);

std::string uts_table(const UtsResult& result);
std::string uts_json(const UtsResult& result);
std::string fib_table(const FibResult& result);
std::string fib_json(const FibResult& result);

}  // namespace bench_cli
