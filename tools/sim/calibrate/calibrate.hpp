// `weft-sim calibrate`: each cost of the costs file (costs.hpp) from a microbenchmark run
// here, with its method, median and spread, written as a costs file. Costs with no
// microbenchmark yet keep their placeholder and say so in their method.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace sim {

struct Measurement {
  std::string name;  // a cost_fields() name
  double median_ns = 0;
  double low_ns = 0;  // the spread: the smallest and largest of the repetitions
  double high_ns = 0;
  std::string method;
};

struct CalibrateOptions {
  int repeat = 5;  // repetitions of each microbenchmark (the median is kept)
  int fib_n = 30;
  // UTS presets whose traversals on one weft worker give the node costs (one per kind).
  std::vector<std::string> uts_trees{"T1", "T2", "T3", "T4", "T5"};
};

// Runs the microbenchmarks, reporting each step through `progress`, and returns one
// Measurement per cost field, in cost_fields() order.
std::vector<Measurement> calibrate(const CalibrateOptions& options,
                                   const std::function<void(const std::string&)>& progress);

// The costs file for `measurements` (parse_costs reads it back).
std::string costs_file_text(const std::vector<Measurement>& measurements);

}  // namespace sim
