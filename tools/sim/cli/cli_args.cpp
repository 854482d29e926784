#include "tools/sim/cli/cli_args.hpp"

#include <algorithm>
#include <charconv>
#include <span>
#include <string_view>

#include "workloads/common/output_file.hpp"
#include "workloads/uts/tree_flags.hpp"

namespace sim {

bool parse_u64(std::string_view text, std::uint64_t& value) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc{} && end == text.data() + text.size() && !text.empty();
}

std::vector<std::string_view> split(std::string_view list) {
  std::vector<std::string_view> items;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = list.find(',', start);
    items.push_back(list.substr(start, comma - start));
    if (comma == std::string_view::npos) return items;
    start = comma + 1;
  }
}

namespace {

constexpr int kMaxFib = 50;
constexpr unsigned kMaxWorkers = 4096;
// "T3", "T3 -r 7" (a preset with flags over it) or "-t 0 -b 2000 -q 0.124875 -m 8 -r 42"
// (the reference's flags over its defaults).
std::string parse_uts(std::string_view text, Workload& w) {
  std::vector<std::string_view> words;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t end = std::min(text.find(' ', i), text.size());
    if (end > i) words.push_back(text.substr(i, end - i));
    i = end + 1;
  }
  if (words.empty()) return "--workload uts: needs a preset or the reference's tree flags";
  const uts::Preset* preset = nullptr;
  std::span<const std::string_view> flags(words);
  if (!words.front().starts_with('-')) {
    preset = uts::find_preset(words.front());
    if (preset == nullptr) {
      std::string names;
      for (const uts::Preset& p : uts::presets())
        names += (names.empty() ? "" : ", ") + std::string(p.name);
      return "--workload uts:NAME: no preset '" + std::string(words.front()) + "' (" + names +
             "), and not tree flags such as \"-t 0 -b 2000 -q 0.124875 -m 8 -r 42\"";
    }
    w.uts_params = preset->params;
    flags = flags.subspan(1);
  }
  if (std::string e = uts::parse_tree_args(flags, w.uts_params); !e.empty()) {
    return "--workload uts: " + e;
  }
  // A published size applies to any spelling of a preset's tree.
  const std::string args = uts::to_args(w.uts_params);
  w.uts_nodes.reset();
  for (const uts::Preset& p : uts::presets()) {
    if (uts::to_args(p.params) == args) w.uts_nodes = p.nodes;
  }
  return "";
}

}  // namespace

std::string parse_workload(std::string_view spec, Workload& w) {
  w.spec = std::string(spec);
  if (spec.starts_with("fib:")) {
    std::uint64_t n = 0;
    if (!parse_u64(spec.substr(4), n) || n > kMaxFib) {
      return "--workload fib:N needs N in [0, " + std::to_string(kMaxFib) + "], not '" +
             std::string(spec.substr(4)) + "'";
    }
    w.kind = Workload::Kind::kFib;
    w.fib_n = static_cast<int>(n);
    return "";
  }
  if (spec.starts_with("uts:")) {
    if (std::string e = parse_uts(spec.substr(4), w); !e.empty()) return e;
    w.kind = Workload::Kind::kUts;
    return "";
  }
  if (spec.starts_with("dag:")) {
    if (spec.size() == 4) return "--workload dag:FILE needs a file";
    w.kind = Workload::Kind::kDag;
    w.dag_path = std::string(spec.substr(4));
    return "";
  }
  return "--workload '" + std::string(spec) +
         "' is not fib:N, uts:PRESET, uts:\"FLAGS\" or dag:FILE";
}

std::string walk_flags(
    int argc, char** argv, bool& help,
    const std::function<std::string(std::string_view, std::string_view)>& on_flag) {
  for (int i = 2; i < argc; ++i) {
    const std::string_view flag = argv[i];
    if (flag == "--help" || flag == "-h") {
      help = true;
      return "";
    }
    if (i + 1 >= argc) return std::string(flag) + " needs a value";
    if (std::string e = on_flag(flag, argv[++i]); !e.empty()) return e;
  }
  return "";
}

bool take_costs_or_output(std::string_view flag, std::string_view value, CostsAndOutput& o) {
  if (flag == "--costs") {
    o.costs_path = std::string(value);
  } else if (flag == "--scale-cost") {
    o.scales.emplace_back(value);
  } else if (flag == "--json") {
    o.json_path = std::string(value);
  } else {
    return false;
  }
  return true;
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
  if (command == "calibrate") {
    args.command = SimArgs::Command::kCalibrate;
  } else if (command != "run") {
    return "unknown command '" + std::string(command) + "' (run, calibrate, record, paper, model)";
  }
  const bool run = args.command == SimArgs::Command::kRun;
  for (int i = 2; i < argc; ++i) {
    const std::string_view flag = argv[i];
    if (flag == "--help") {
      args.help = true;
      return "";
    }
    if (i + 1 >= argc) return std::string(flag) + " needs a value";
    const std::string_view value = argv[++i];
    if (flag == "--json") {
      args.json_path = std::string(value);
    } else if (!run) {
      if (flag != "--repeat") return "calibrate: unknown option '" + std::string(flag) + "'";
      std::uint64_t r = 0;
      if (!parse_u64(value, r) || r < 1 || r > 1000) {
        return "--repeat: '" + std::string(value) + "' is not a count in [1, 1000]";
      }
      args.repeat = static_cast<int>(r);
    } else if (flag == "--workload") {
      if (std::string e = parse_workload(value, args.workload); !e.empty()) return e;
    } else if (flag == "--workers") {
      args.workers.clear();
      for (std::string_view item : split(value)) {
        std::uint64_t p = 0;
        if (!parse_u64(item, p) || p < 1 || p > kMaxWorkers) {
          return "--workers: '" + std::string(item) + "' is not a count in [1, " +
                 std::to_string(kMaxWorkers) + "]";
        }
        args.workers.push_back(static_cast<unsigned>(p));
      }
    } else if (flag == "--steal") {
      args.policies.clear();
      try {
        for (std::string_view item : split(value)) {
          args.policies.push_back(weft::StealPolicy::parse(item, "--steal"));
        }
      } catch (const weft::ConfigError& e) {
        return e.what();
      }
    } else if (flag == "--mechanism") {
      args.mechanisms.clear();
      try {
        for (std::string_view item : split(value)) {
          args.mechanisms.push_back(weft::parse_mechanism(item, "--mechanism"));
        }
      } catch (const weft::ConfigError& e) {
        return e.what();
      }
    } else if (flag == "--barrier") {
      try {
        args.barrier = weft::parse_barrier(value, "--barrier");
      } catch (const weft::ConfigError& e) {
        return e.what();
      }
    } else if (flag == "--seed") {
      if (!parse_u64(value, args.seed))
        return "--seed: '" + std::string(value) + "' is not a number";
    } else if (flag == "--costs") {
      args.costs_path = std::string(value);
    } else if (flag == "--scale-cost") {
      args.scale_costs.emplace_back(value);
    } else {
      return "unknown option '" + std::string(flag) + "'";
    }
  }
  return "";
}

std::string usage() {
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
         "--barrier: the concurrent mechanism's barrier, as WEFT_BARRIER: auto (weft's\n"
         "default: a stack claimed from often switches to the fence), membarrier, fence.\n"
         "--costs: a costs file (docs/SIMULATOR.md); without one, uncalibrated\n"
         "placeholders. --scale-cost multiplies one cost, e.g. claim_ns=2.\n"
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
