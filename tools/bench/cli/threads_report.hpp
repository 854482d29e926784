// `weft-bench threads`' results as tables (stdout: the sitting, medians, the ratios the
// paper's figures are about, each series' time over its baseline's as a paired interval and
// verdict, the host's steadiness) and as JSON (every sample, raw; the sitting, each benchmark's
// order of repetitions and pairs, the host).
#pragma once

#include <string>

#include "tools/bench/threads/threads_bench.hpp"

namespace bench_cli {

std::string threads_table(const bench_threads::Result& result);
std::string threads_json(const bench_threads::Result& result);

}  // namespace bench_cli
