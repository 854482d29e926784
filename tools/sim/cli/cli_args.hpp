// weft-sim's command line: what it asks for, parsed and checked before anything runs. Each
// subcommand's flags are a table (workloads/common/flags.hpp) that parses them and writes the
// option list of its --help; a flag that several subcommands share is a row built by one
// function here, so that it is spelled, checked and explained alike in each.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "weft/config.hpp"
#include "workloads/common/flags.hpp"
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

// Parses one --workload value into `w`; throws common::UsageError saying what is wrong.
void parse_workload(std::string_view spec, Workload& w);

// "N,..." as whole numbers, each in [lo, hi]; throws common::UsageError naming `flag`.
std::vector<std::uint64_t> parse_counts(std::string_view flag, std::string_view list,
                                        std::int64_t lo, std::int64_t hi);

// The rows that several subcommands share. Each stores its value in the variable it is given.
common::Flag seed_flag(std::uint64_t& seed);  // --seed N (default 1)
common::Flag barrier_flag(weft::Barrier& barrier);
common::Flag costs_flag(std::string& costs_path);
common::Flag scale_cost_flag(std::vector<std::string>& scales);  // may be given again
// --json FILE|-; `help` says what the file holds, which differs from one subcommand to another.
common::Flag json_flag(std::string& json_path, std::string_view help);
// --repeat R, from 1 to `max`.
common::Flag repeat_flag(int& repeat, int max, std::string_view help);

// Parses a subcommand's arguments, argv[2] on, with `table`: returns "" or the error (a
// common::UsageError's or a weft::ConfigError's), and sets `help` at --help or -h.
std::string parse_subcommand(const common::FlagTable& table, int argc, char** argv, bool& help);

// "" or why a --json file may not be written, checked before anything runs ("" and "-"
// always may).
std::string check_json_path(const std::string& json_path);

// Fills `args` for run and calibrate; returns "" or a message naming the bad argument and what
// is allowed.
std::string parse_args(int argc, char** argv, SimArgs& args);
std::string usage();

}  // namespace sim
