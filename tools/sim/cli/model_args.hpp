// `weft-sim model`'s command line: the mode and its flags, parsed and checked against the
// mode before anything runs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "weft/config.hpp"

namespace sim {

struct ModelArgs {
  enum class Mode : std::uint8_t { kBag, kLatency, kMitzenmacher, kGenerator };
  Mode mode = Mode::kBag;
  bool help = false;
  std::vector<std::uint64_t> tasks;      // bag, latency: W
  std::vector<unsigned> workers;         // bag, latency: m; mitzenmacher, generator: one n
  std::vector<std::uint64_t> latencies;  // latency: λ
  weft::StealPolicy policy = weft::StealPolicy::half();
  double lambda = 0.9;     // mitzenmacher, generator
  unsigned threshold = 2;  // mitzenmacher: T
  double time = 0.0;       // mitzenmacher: time units; generator: steps
  std::uint64_t seed = 1;
  std::string json_path;  // "" none, "-" stdout
};

const char* mode_name(ModelArgs::Mode mode);

// Fills `args` from argv[2..] (argv[1] is "model"); returns "" or a message naming the bad
// flag and what is allowed.
std::string parse_model_args(int argc, char** argv, ModelArgs& args);
std::string model_usage();

}  // namespace sim
