// The sweep results as the paper's tables (plain text for stdout) and as JSON (everything,
// raw times included, for scripts and plots).
#pragma once

#include <string>

#include "cli/sweep.hpp"

namespace weft_bench {

std::string uts_table(const UtsResult& result);
std::string uts_json(const UtsResult& result);
std::string fib_table(const FibResult& result);
std::string fib_json(const FibResult& result);

}  // namespace weft_bench
