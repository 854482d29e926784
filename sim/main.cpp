// weft-sim: runs a workload on P simulated weft workers (docs/SIMULATOR.md).
//   weft-sim run --workload fib:N|uts:PRESET [--workers 1,2,...] [--steal one,half,...]
//                [--seed N] [--costs FILE] [--scale-cost NAME=FACTOR ...] [--json FILE|-]
// Each run is checked: a fib run must make fib(N+1) - 1 spawns, a UTS run the preset's
// published number of nodes. Exit 0 on success, 1 if a check fails, 2 for bad arguments.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "cli/output_file.hpp"
#include "sim/cli_args.hpp"
#include "sim/costs.hpp"
#include "sim/report.hpp"
#include "uts/presets.hpp"

namespace {

using weft_bench::check_replaceable;
using weft_bench::replace_file;
using weft_sim::SimArgs;

// The runs of one workload; returns false if a check failed.
bool run_all(const SimArgs& args, const weft_sim::Costs& costs,
             std::vector<weft_sim::RunRecord>& records) {
  bool ok = true;
  for (unsigned p : args.workers) {
    for (const weft::StealPolicy& policy : args.policies) {
      weft_sim::EngineConfig config{
          .workers = p, .policy = policy, .seed = args.seed, .costs = costs.engine};
      weft_sim::RunRecord r;
      r.workers = p;
      r.steal = policy.spec();
      r.seed = args.seed;
      std::uint64_t expected_tasks = 0;
      if (args.workload.kind == weft_sim::Workload::Kind::kFib) {
        r.result =
            weft_sim::simulate(weft_sim::fib_program(args.workload.fib_n, costs.fib), config);
        expected_tasks = weft_sim::fib_spawns(args.workload.fib_n) + 1;
      } else {
        const uts::Tree tree(args.workload.uts_preset->params);
        r.result = weft_sim::simulate(weft_sim::uts_program(tree, costs.uts), config);
        expected_tasks = args.workload.uts_preset->nodes;
      }
      r.verified =
          r.result.tasks == expected_tasks && r.result.counters.spawns + 1 == expected_tasks;
      if (!r.verified) {
        std::fprintf(stderr, "weft-sim: %u workers, %s: %llu tasks, expected %llu\n", p,
                     r.steal.c_str(), static_cast<unsigned long long>(r.result.tasks),
                     static_cast<unsigned long long>(expected_tasks));
        ok = false;
      }
      records.push_back(std::move(r));
    }
  }
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  SimArgs args;
  if (const std::string error = weft_sim::parse_args(argc, argv, args); !error.empty()) {
    std::fprintf(stderr, "weft-sim: %s\n%s", error.c_str(), weft_sim::usage().c_str());
    return 2;
  }
  if (args.help) {
    std::fputs(weft_sim::usage().c_str(), stdout);
    return 0;
  }
  if (args.json_path != "" && args.json_path != "-") {
    // Refused before the runs, not after them.
    if (const std::string e = check_replaceable(args.json_path); !e.empty()) {
      std::fprintf(stderr, "weft-sim: --json %s: %s\n", args.json_path.c_str(), e.c_str());
      return 2;
    }
  }
  weft_sim::Costs costs = weft_sim::uncalibrated_costs();
  std::string costs_source = "uncalibrated";
  try {
    if (!args.costs_path.empty()) {
      costs = weft_sim::load_costs(args.costs_path);
      costs_source = args.costs_path;
    }
    for (const std::string& spec : args.scale_costs) {
      weft_sim::scale_cost(costs, spec);
      costs_source += ", " + spec;
    }
  } catch (const weft_sim::CostsError& e) {
    std::fprintf(stderr, "weft-sim: %s\n", e.what());
    return 2;
  }
  std::vector<weft_sim::RunRecord> records;
  bool ok = false;
  try {
    ok = run_all(args, costs, records);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "weft-sim: %s\n", e.what());
    return 2;
  }
  std::fputs(weft_sim::table(args, costs_source, records).c_str(), stdout);
  if (!args.json_path.empty()) {
    const std::string json = weft_sim::json(args, costs, costs_source, records);
    if (args.json_path == "-") {
      std::fputs(json.c_str(), stdout);
    } else if (const std::string e = replace_file(args.json_path, json); !e.empty()) {
      std::fprintf(stderr, "weft-sim: --json %s: %s\n", args.json_path.c_str(), e.c_str());
      return 2;
    }
  }
  return ok ? 0 : 1;
}
