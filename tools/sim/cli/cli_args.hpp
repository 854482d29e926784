// weft-sim's command line: what it asks for, parsed and checked before anything runs.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "weft/config.hpp"
#include "workloads/uts/presets.hpp"

namespace sim {

struct Dag;  // tools/sim/dag/dag.hpp

struct Workload {
  enum class Kind : std::uint8_t { kFib, kUts, kDag };
  Kind kind = Kind::kFib;
  int fib_n = 30;
  // uts: the tree, and its size when a preset with these parameters publishes it (otherwise
  // the run counts the tree serially first, so that every run is still checked).
  uts::TreeParams uts_params;
  std::optional<std::uint64_t> uts_nodes;
  // dag: a .wdag file, read by load_workload (tools/sim/engine/workload.hpp) before the runs start.
  std::string dag_path;
  std::shared_ptr<const Dag> dag;
  std::string spec = "fib:30";  // as given
};

struct SimArgs {
  enum class Command : std::uint8_t { kRun, kCalibrate };
  Command command = Command::kRun;
  bool help = false;
  int repeat = 5;  // calibrate: repetitions of each microbenchmark
  Workload workload;
  std::vector<unsigned> workers{1, 2};
  std::vector<weft::StealPolicy> policies{weft::StealPolicy::one()};
  std::vector<weft::StealMechanism> mechanisms{weft::StealMechanism::kConcurrent};
  weft::Barrier barrier = weft::Barrier::kAuto;  // the concurrent mechanism's (EngineConfig)
  std::uint64_t seed = 1;
  std::string json_path;                 // "" none, "-" stdout
  std::string costs_path;                // "" the uncalibrated placeholders
  std::vector<std::string> scale_costs;  // NAME=FACTOR, applied in order
};

// A whole decimal number, nothing before or after it; false otherwise.
bool parse_u64(std::string_view text, std::uint64_t& value);
// "a,b,c" as its items (an empty item stays, for the caller to refuse).
std::vector<std::string_view> split(std::string_view list);
// Parses one --workload value into `w`; returns "" or what is wrong with it.
std::string parse_workload(std::string_view spec, Workload& w);

// A subcommand's options from argv[2] on, each "--flag value": calls on_flag(flag, value) for
// each pair, which returns "" or what is wrong. Returns "" or the first error (a flag without
// its value included); stops with `help` set at --help or -h.
std::string walk_flags(
    int argc, char** argv, bool& help,
    const std::function<std::string(std::string_view, std::string_view)>& on_flag);

// The options that `paper` and `validate` share with `run`: the costs and the JSON output.
struct CostsAndOutput {
  std::string costs_path;           // --costs, "" for the uncalibrated placeholders
  std::vector<std::string> scales;  // --scale-cost NAME=FACTOR, in order
  std::string json_path;            // --json, "" none, "-" stdout
};
// Takes --costs, --scale-cost or --json into `o`; false for any other flag.
bool take_costs_or_output(std::string_view flag, std::string_view value, CostsAndOutput& o);
// "" or why a --json file may not be written, checked before anything runs ("" and "-"
// always may).
std::string check_json_path(const std::string& json_path);

// Fills `args`; returns "" or a message naming the bad argument and what is allowed.
std::string parse_args(int argc, char** argv, SimArgs& args);
std::string usage();

}  // namespace sim
