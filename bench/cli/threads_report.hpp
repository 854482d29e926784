// `weft-bench threads`' results as tables (stdout: medians, and the ratios the paper's
// figures are about) and as JSON (every sample, raw).
#pragma once

#include <string>

#include "threads/threads_bench.hpp"

namespace weft_bench {

std::string threads_table(const threads_bench::Result& result);
std::string threads_json(const threads_bench::Result& result);

}  // namespace weft_bench
