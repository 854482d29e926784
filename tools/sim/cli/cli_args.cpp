#include "tools/sim/cli/cli_args.hpp"

#include <algorithm>
#include <span>
#include <string_view>

#include "workloads/common/output_file.hpp"
#include "workloads/uts/tree_flags.hpp"

namespace sim {

using common::UsageError;

namespace {

constexpr int kMaxFib = 50;
constexpr unsigned kMaxWorkers = 4096;
constexpr int kMaxCalibrateRepeat = 1000;

// "T3", "T3 -r 7" (a preset with flags over it) or "-t 0 -b 2000 -q 0.124875 -m 8 -r 42"
// (the reference's flags over its defaults).
void parse_uts(std::string_view text, Workload& w) {
  std::vector<std::string_view> words;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t end = std::min(text.find(' ', i), text.size());
    if (end > i) words.push_back(text.substr(i, end - i));
    i = end + 1;
  }
  if (words.empty())
    throw UsageError("--workload uts", "needs a preset or the reference's tree flags");
  std::span<const std::string_view> flags(words);
  if (!words.front().starts_with('-')) {
    const uts::Preset* preset = uts::find_preset(words.front());
    if (preset == nullptr) {
      std::string names;
      for (const uts::Preset& p : uts::presets())
        names += (names.empty() ? "" : ", ") + std::string(p.name);
      throw UsageError("--workload uts:NAME",
                       "no preset '" + std::string(words.front()) + "' (" + names +
                           "), and not tree flags such as \"-t 0 -b 2000 -q 0.124875 -m 8 -r 42\"");
    }
    w.uts_params = preset->params;
    flags = flags.subspan(1);
  }
  if (std::string e = uts::parse_tree_args(flags, w.uts_params); !e.empty()) {
    throw UsageError("--workload uts", e);
  }
  // A published size applies to any spelling of a preset's tree.
  const std::string args = uts::to_args(w.uts_params);
  w.uts_nodes.reset();
  for (const uts::Preset& p : uts::presets()) {
    if (uts::to_args(p.params) == args) w.uts_nodes = p.nodes;
  }
}

// run's flags, parsed into `a`.
common::FlagTable run_flags(SimArgs& a) {
  return common::FlagTable({
      {"--workload", "SPEC",
       "fib:N (N up to 50), uts:PRESET, uts:\"FLAGS\" or dag:FILE\n"
       "(default fib:30)",
       [&a](std::string_view v) { parse_workload(v, a.workload); }},
      {"--workers", "P,...", "simulated worker counts, each from 1 to 4096 (default 1,2)",
       [&a](std::string_view v) {
         a.workers.clear();
         for (std::uint64_t p : parse_counts("--workers", v, 1, kMaxWorkers)) {
           a.workers.push_back(static_cast<unsigned>(p));
         }
       }},
      {"--steal", "POLICY,...", "steal policies, listed below (default one)",
       [&a](std::string_view v) {
         a.policies.clear();
         for (std::string_view item : common::split_list("--steal", v)) {
           a.policies.push_back(weft::StealPolicy::parse(item, "--steal"));
         }
       }},
      {"--mechanism", "M,...", "steal mechanisms: concurrent, request (default concurrent)",
       [&a](std::string_view v) {
         a.mechanisms.clear();
         for (std::string_view item : common::split_list("--mechanism", v)) {
           a.mechanisms.push_back(weft::parse_mechanism(item, "--mechanism"));
         }
       }},
      barrier_flag(a.barrier),
      seed_flag(a.seed),
      costs_flag(a.costs_path),
      scale_cost_flag(a.scale_costs),
      json_flag(a.json_path,
                "the runs as JSON; - for stdout, the table then on stderr\n"
                "(default: none)"),
  });
}

// calibrate's flags, parsed into `a`.
common::FlagTable calibrate_flags(SimArgs& a) {
  return common::FlagTable({
      json_flag(a.json_path, "the costs file to write; - for stdout (the default)"),
      repeat_flag(a.repeat, kMaxCalibrateRepeat, "repetitions of each microbenchmark (default 5)"),
  });
}

}  // namespace

void parse_workload(std::string_view spec, Workload& w) {
  w.spec = std::string(spec);
  if (spec.starts_with("fib:")) {
    w.fib_n = static_cast<int>(
        common::parse_integer(common::argument("--workload", spec), spec.substr(4), 0, kMaxFib));
    w.kind = Workload::Kind::kFib;
    return;
  }
  if (spec.starts_with("uts:")) {
    parse_uts(spec.substr(4), w);
    w.kind = Workload::Kind::kUts;
    return;
  }
  if (spec.starts_with("dag:")) {
    if (spec.size() == 4) throw UsageError("--workload dag:FILE", "needs a file");
    w.kind = Workload::Kind::kDag;
    w.dag_path = std::string(spec.substr(4));
    return;
  }
  throw UsageError("--workload", "'" + std::string(spec) +
                                     "' is not fib:N, uts:PRESET, uts:\"FLAGS\" or dag:FILE");
}

std::vector<std::uint64_t> parse_counts(std::string_view flag, std::string_view list,
                                        std::int64_t lo, std::int64_t hi) {
  std::vector<std::uint64_t> counts;
  for (std::string_view item : common::split_list(flag, list)) {
    counts.push_back(static_cast<std::uint64_t>(
        common::parse_integer(common::argument(flag, item), item, lo, hi)));
  }
  return counts;
}

common::Flag seed_flag(std::uint64_t& seed) {
  return {"--seed", "N", "the simulation's seed (default 1)", [&seed](std::string_view v) {
            seed = common::parse_u64(common::argument("--seed", v), v);
          }};
}

common::Flag barrier_flag(weft::Barrier& barrier) {
  return {"--barrier", "B",
          "the concurrent mechanism's barrier, as WEFT_BARRIER: auto\n"
          "(weft's default: a stack claimed from often switches to the\n"
          "fence), membarrier or fence (default auto)",
          [&barrier](std::string_view v) { barrier = weft::parse_barrier(v, "--barrier"); }};
}

common::Flag costs_flag(std::string& costs_path) {
  return {"--costs", "FILE",
          "a costs file (docs/SIMULATOR.md); without one, uncalibrated\n"
          "placeholders",
          [&costs_path](std::string_view v) { costs_path = std::string(v); }};
}

common::Flag scale_cost_flag(std::vector<std::string>& scales) {
  return {"--scale-cost", "NAME=FACTOR",
          "multiplies one cost, e.g. claim_ns=2; may be given again,\n"
          "applied in order",
          [&scales](std::string_view v) { scales.emplace_back(v); }};
}

common::Flag json_flag(std::string& json_path, std::string_view help) {
  return {"--json", "FILE|-", help,
          [&json_path](std::string_view v) { json_path = std::string(v); }};
}

common::Flag repeat_flag(int& repeat, int max, std::string_view help) {
  return {"--repeat", "R", help, [&repeat, max](std::string_view v) {
            repeat =
                static_cast<int>(common::parse_integer(common::argument("--repeat", v), v, 1, max));
          }};
}

std::string parse_subcommand(const common::FlagTable& table, int argc, char** argv, bool& help) {
  const std::vector<std::string_view> args(argv + std::min(argc, 2), argv + argc);
  try {
    help = !table.parse(args);
  } catch (const common::UsageError& e) {
    return e.what();
  } catch (const weft::ConfigError& e) {  // a policy, mechanism or barrier weft refuses
    return e.what();
  }
  return "";
}

std::string check_json_path(const std::string& json_path) {
  if (json_path.empty() || json_path == "-") return "";
  const std::string e = bench_cli::check_replaceable(json_path);
  return e.empty() ? "" : "--json " + json_path + ": " + e;
}

std::string parse_args(int argc, char** argv, SimArgs& args) {
  if (argc < 2) return "no command";
  const std::string_view command = argv[1];
  if (command == "--help" || command == "-h" || command == "help") {
    args.help = true;
    return "";
  }
  if (command == "run") return parse_subcommand(run_flags(args), argc, argv, args.help);
  if (command == "calibrate") {
    args.command = SimArgs::Command::kCalibrate;
    return parse_subcommand(calibrate_flags(args), argc, argv, args.help);
  }
  return "unknown command '" + std::string(command) +
         "' (run, calibrate, record, paper, model, validate)";
}

std::string usage() {
  SimArgs scratch;
  return "usage:\n"
         "  weft-sim run [--workload fib:N|uts:PRESET|uts:\"FLAGS\"|dag:FILE]\n"
         "               [--workers 1,2] [--steal one,...]\n"
         "               [--mechanism concurrent,request] [--barrier auto|membarrier|fence]\n"
         "               [--seed 1] [--costs FILE] [--scale-cost NAME=FACTOR ...]\n"
         "               [--json FILE|-]\n"
         "  weft-sim calibrate [--json FILE|-] [--repeat 5]\n"
         "  weft-sim record --workload NAME:SIZE --out FILE.wdag\n"
         "  weft-sim model --mode bag|latency|mitzenmacher|generator ... (model --help)\n"
         "  weft-sim paper [--workers 24] [--costs FILE] ... (paper --help)\n"
         "  weft-sim validate --real FILE.json [--workload SPEC] [--costs FILE] ...\n"
         "                    (validate --help)\n"
         "run's options:\n" +
         run_flags(scratch).options_help() + "calibrate's options:\n" +
         calibrate_flags(scratch).options_help() +
         "Runs the workload on P simulated weft workers, one run per mechanism, worker\n"
         "count and policy, and checks each: fib:N must\n"
         "spawn fib(N+1)-1 tasks, uts:PRESET make the preset's published node count,\n"
         "dag:FILE (a .wdag that record wrote, docs/WDAG.md) run each of its tasks once.\n"
         "uts:\"-t 0 -b 2000 -q 0.124875 -m 8 -r 42\" is a tree in the UTS reference's\n"
         "flags (over a preset: uts:\"T3 -r 7\"); one no preset publishes is counted\n"
         "serially first.\n"
         "Policies: " +
         weft::StealPolicy::allowed_specs() +
         ".\n"
         "calibrate: times the microbenchmarks behind the costs (fib serial and on one\n"
         "weft worker, UTS T1-T5 likewise, membarrier and fence with the other CPUs\n"
         "busy) and writes a costs file; the costs it cannot measure yet keep their\n"
         "placeholder and say so.\n"
         "record: runs a compare workload serially as weft spawns it and writes its task\n"
         "DAG with measured strand times (weft-sim record --help).\n"
         "model: classic load-balancing models simulated beside what their theorems\n"
         "predict (docs/SIMULATOR.md, \"Models\").\n"
         "paper: Adnan & Sato's experiments on simulated workers, each beside the paper's\n"
         "figure.\n"
         "validate: the weft runs of a weft-bench JSON file beside the same\n"
         "configurations simulated.\n"
         "Exit 1 if a check fails, 2 for bad arguments or a bad .wdag.\n";
}

}  // namespace sim
