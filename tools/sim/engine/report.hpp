// weft-sim's results: a table for people and JSON in weft-bench's schema for programs (a
// "runs" array whose objects carry workers, mechanism, steal, median_s, counters, shares).
#pragma once

#include <string>
#include <vector>

#include "tools/sim/cli/cli_args.hpp"
#include "tools/sim/engine/costs.hpp"
#include "tools/sim/engine/engine.hpp"

namespace sim {

struct RunRecord {
  unsigned workers = 1;
  std::string mechanism;
  std::string steal;
  std::uint64_t seed = 1;
  SimResult result;
  bool verified = false;
};

// `costs` is what the runs used; `costs_source` where it came from ("uncalibrated" or a file).
std::string table(const SimArgs& args, const std::string& costs_source,
                  const std::vector<RunRecord>& runs);
std::string json(const SimArgs& args, const Costs& costs, const std::string& costs_source,
                 const std::vector<RunRecord>& runs);

}  // namespace sim
