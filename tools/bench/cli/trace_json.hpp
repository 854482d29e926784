// The Chrome/Perfetto trace of a sweep's weft runs (--trace FILE): the "JSON Array/Object"
// trace format that ui.perfetto.dev and chrome://tracing open.
#pragma once

#include <string>
#include <vector>

#include "tools/bench/cli/sweep.hpp"

namespace bench_cli {

// One process per weft record (named by its label), one thread per worker. Each worker's
// timeline shows its busy intervals ("busy"), its successful steals ("steal", with a flow
// arrow from the victim), and the gaps between them ("idle": looking for work, failed
// steals included). Times in microseconds from the runtime's start. Also says how many
// events each worker dropped when its buffer was full.
std::string chrome_trace(const std::vector<Record>& records);

}  // namespace bench_cli
