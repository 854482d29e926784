// weft-sim: runs a workload on P simulated weft workers, or calibrates their costs
// (docs/SIMULATOR.md).
//   weft-sim run --workload fib:N|uts:PRESET|uts:"FLAGS"|dag:FILE [--workers 1,2,...]
//                [--steal one,half,...] [--mechanism concurrent,request] [--barrier B]
//                [--seed N] [--costs FILE] [--scale-cost NAME=FACTOR ...] [--json FILE|-]
//   weft-sim calibrate [--json FILE|-] [--repeat R]
//   weft-sim record --workload NAME:SIZE --out FILE.wdag     (tools/sim/cli/record_cli.hpp)
//   weft-sim model --mode bag|latency|mitzenmacher|generator ... (tools/sim/cli/model_cli.hpp)
//   weft-sim paper ...                                        (tools/sim/cli/paper_cli.hpp)
//   weft-sim validate --real FILE.json ...                    (tools/sim/cli/validate_cli.hpp)
// Each run is checked: a fib run must make fib(N+1) - 1 spawns, a UTS run the preset's
// published number of nodes (a tree no preset publishes is counted serially first), a dag run
// each of the file's tasks once. Exit 0 on success, 1 if a check fails, 2 for bad arguments.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tools/sim/calibrate/calibrate.hpp"
#include "tools/sim/cli/cli_args.hpp"
#include "tools/sim/cli/model_cli.hpp"
#include "tools/sim/cli/paper_cli.hpp"
#include "tools/sim/cli/record_cli.hpp"
#include "tools/sim/cli/validate_cli.hpp"
#include "tools/sim/engine/costs.hpp"
#include "tools/sim/engine/report.hpp"
#include "tools/sim/engine/workload.hpp"
#include "workloads/common/output_file.hpp"

namespace {

using bench_cli::replace_file;
using sim::SimArgs;

// The runs of one workload; returns false if a check failed.
bool run_all(const SimArgs& args, const sim::Costs& costs, std::vector<sim::RunRecord>& records) {
  bool ok = true;
  // A dag is read once for all the runs; a bad file throws WdagError before any of them.
  sim::Workload workload = args.workload;
  sim::load_workload(workload);
  const std::uint64_t expected = sim::expected_tasks(workload);
  for (weft::StealMechanism mechanism : args.mechanisms) {
    for (unsigned p : args.workers) {
      for (const weft::StealPolicy& policy : args.policies) {
        sim::EngineConfig config{.workers = p,
                                 .policy = policy,
                                 .mechanism = mechanism,
                                 .barrier = args.barrier,
                                 .seed = args.seed,
                                 .costs = costs.engine};
        sim::RunRecord r;
        r.workers = p;
        r.mechanism = weft::mechanism_name(mechanism);
        r.steal = policy.spec();
        r.seed = args.seed;
        r.result = sim::simulate_workload(workload, costs, config);
        r.verified = r.result.tasks == expected && r.result.counters.spawns + 1 == expected;
        if (!r.verified) {
          std::fprintf(stderr, "weft-sim: %u workers, %s: %llu tasks, expected %llu\n", p,
                       r.steal.c_str(), static_cast<unsigned long long>(r.result.tasks),
                       static_cast<unsigned long long>(expected));
          ok = false;
        }
        records.push_back(std::move(r));
      }
    }
  }
  return ok;
}

// Writes `text` to --json, or to stdout for "-" or no --json; returns the exit status.
int write_output(const SimArgs& args, const std::string& text) {
  if (args.json_path.empty() || args.json_path == "-") {
    std::fputs(text.c_str(), stdout);
  } else if (const std::string e = replace_file(args.json_path, text); !e.empty()) {
    std::fprintf(stderr, "weft-sim: --json %s: %s\n", args.json_path.c_str(), e.c_str());
    return 2;
  }
  return 0;
}

int calibrate_command(const SimArgs& args) {
  sim::CalibrateOptions options;
  options.repeat = args.repeat;
  std::vector<sim::Measurement> measured;
  try {
    measured = sim::calibrate(options, [](const std::string& step) {
      std::fprintf(stderr, "weft-sim calibrate: %s\n", step.c_str());
    });
  } catch (const std::exception& e) {
    std::fprintf(stderr, "weft-sim: %s\n", e.what());
    return 1;
  }
  for (const sim::Measurement& m : measured) {
    std::fprintf(stderr, "  %-18s %12.3f ns  [%.3f, %.3f]  %s\n", m.name.c_str(), m.median_ns,
                 m.low_ns, m.high_ns, m.method.c_str());
  }
  return write_output(args, sim::costs_file_text(measured));
}

// run: every configuration simulated and checked, the table and the JSON written.
int run_command(const SimArgs& args) {
  sim::Costs costs;
  std::string costs_source;
  try {
    costs = sim::command_costs(args.costs_path, args.scale_costs, costs_source);
    for (weft::StealMechanism mechanism : args.mechanisms) {
      sim::require_fence_costs(costs, args.costs_path, mechanism, args.barrier);
    }
  } catch (const sim::CostsError& e) {
    std::fprintf(stderr, "weft-sim: %s\n", e.what());
    return 2;
  }
  std::vector<sim::RunRecord> records;
  bool ok = false;
  try {
    ok = run_all(args, costs, records);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "weft-sim: %s\n", e.what());
    return 2;
  }
  // With --json -, stdout is the JSON's alone: the table goes to stderr.
  std::fputs(sim::table(args, costs_source, records).c_str(),
             args.json_path == "-" ? stderr : stdout);
  if (!args.json_path.empty()) {
    const int status = write_output(args, sim::json(args, costs, costs_source, records));
    if (status != 0) return status;
  }
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  // The subcommands with command lines of their own; run and calibrate share parse_args.
  constexpr std::pair<std::string_view, int (*)(int, char**)> kSubcommands[] = {
      {"record", sim::record_command},
      {"model", sim::model_command},
      {"paper", sim::paper_command},
      {"validate", sim::validate_command},
  };
  for (const auto& [name, command] : kSubcommands) {
    if (argc >= 2 && std::string_view(argv[1]) == name) return command(argc, argv);
  }
  SimArgs args;
  if (const std::string error = sim::parse_args(argc, argv, args); !error.empty()) {
    std::fprintf(stderr, "weft-sim: %s\n%s", error.c_str(), sim::usage().c_str());
    return 2;
  }
  if (args.help) {
    std::fputs(sim::usage().c_str(), stdout);
    return 0;
  }
  // Refused before the runs, not after them.
  if (const std::string e = sim::check_json_path(args.json_path); !e.empty()) {
    std::fprintf(stderr, "weft-sim: %s\n", e.c_str());
    return 2;
  }
  if (args.command == SimArgs::Command::kCalibrate) return calibrate_command(args);
  return run_command(args);
}
