// weft-bench compare's results as a table per workload (stdout) and as JSON (everything,
// raw times included, for scripts/plot_results.py and docs/RESULTS.md).
#pragma once

#include <string>

#include "tools/bench/cli/compare.hpp"

namespace bench_cli {

std::string compare_table(const CompareResult& result);
std::string compare_json(const CompareResult& result);

}  // namespace bench_cli
