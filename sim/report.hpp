// weft-sim's results: a table for people and JSON in weft-bench's schema for programs (a
// "runs" array whose objects carry workers, mechanism, steal, median_s, counters, shares).
#pragma once

#include <string>
#include <vector>

#include "sim/cli_args.hpp"
#include "sim/engine.hpp"

namespace weft_sim {

struct RunRecord {
  unsigned workers = 1;
  std::string steal;
  std::uint64_t seed = 1;
  SimResult result;
  bool verified = false;
};

std::string table(const SimArgs& args, const std::vector<RunRecord>& runs);
std::string json(const SimArgs& args, const std::vector<RunRecord>& runs);

}  // namespace weft_sim
