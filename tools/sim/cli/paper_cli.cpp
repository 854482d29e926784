#include "tools/sim/cli/paper_cli.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "tools/sim/cli/cli_args.hpp"
#include "tools/sim/cli/paper.hpp"
#include "workloads/common/output_file.hpp"

namespace sim {
namespace {

// What paper reads besides PaperOptions: where the costs come from and where the JSON goes.
struct PaperFiles {
  std::string costs_path;           // --costs, "" for the uncalibrated placeholders
  std::vector<std::string> scales;  // --scale-cost NAME=FACTOR, in order
  std::string json_path;            // --json, "" none, "-" stdout
};

// paper's flags, parsed into `o` and `files`.
common::FlagTable paper_flags(PaperOptions& o, PaperFiles& files) {
  return common::FlagTable({
      {"--workers", "P", "simulated workers, from 1 to 4096 (default 24, the paper's)",
       [&o](std::string_view v) {
         o.workers = static_cast<unsigned>(
             common::parse_integer(common::argument("--workers", v), v, 1, 4096));
       }},
      {"--fib", "N", "fib's N, from 2 to 50 (default 30)",
       [&o](std::string_view v) {
         o.fib_n = static_cast<int>(common::parse_integer(common::argument("--fib", v), v, 2, 50));
       }},
      {"--dags", "DIR", "the recorded DAGs' directory, for Figs. 17-24 (default: none)",
       [&o](std::string_view v) { o.dags_dir = std::string(v); }},
      seed_flag(o.seed),
      costs_flag(files.costs_path),
      scale_cost_flag(files.scales),
      json_flag(files.json_path,
                "the rows and runs as JSON; - for stdout, then without the\n"
                "table (default: none)"),
  });
}

std::string paper_usage() {
  PaperOptions o;
  PaperFiles files;
  return "usage: weft-sim paper [--workers 24] [--fib 30] [--dags DIR] [--seed 1] [--costs FILE]\n"
         "                      [--scale-cost NAME=FACTOR ...] [--json FILE|-]\n" +
         paper_flags(o, files).options_help() +
         "Adnan & Sato's experiments on simulated weft workers (request mechanism): UTS A and B\n"
         "speedups and shares (Figs. 9-12, Table 2), fib under fixed:1..16 and its speedups\n"
         "(Figs. 15-16), s_i (Sect. 3.4), and with --dags DIR (strassen.wdag, sparselu.wdag,\n"
         "fft.wdag from weft-sim record) Figs. 17-24; each beside the paper's figure with a\n"
         "verdict by a stated rule. The paper's fib(40) is --fib 40 (about an hour). Exit 1 if\n"
         "a run's task count is wrong, 2 for bad arguments.\n";
}

int bad(const std::string& message) {
  std::fprintf(stderr, "weft-sim paper: %s\n%s", message.c_str(), paper_usage().c_str());
  return 2;
}

std::string table(const PaperOptions& o, const std::string& costs_source, const PaperResult& r) {
  std::string text = "weft-sim paper: " + std::to_string(o.workers) +
                     " workers, request mechanism, seed " + std::to_string(o.seed) +
                     ", costs: " + costs_source + "\n";
  int agree = 0;
  for (const PaperRow& row : r.rows) {
    text += "\n" + row.figure + ": " + row.what + "\n  paper:    " + row.paper +
            "\n  weft-sim: " + row.sim + "\n  verdict:  " + (row.agrees ? "agrees" : "differs") +
            " (" + row.rule + ")\n";
    agree += row.agrees;
  }
  return text + "\n" + std::to_string(agree) + " of " + std::to_string(r.rows.size()) + " agree\n";
}

std::string json(const PaperOptions& o, const std::string& costs_source, const PaperResult& r) {
  nlohmann::ordered_json doc;
  doc["benchmark"] = "sim-paper";
  doc["workers"] = o.workers;
  doc["fib_n"] = o.fib_n;
  doc["seed"] = o.seed;
  doc["costs"] = costs_source;
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const PaperRow& row : r.rows) {
    rows.push_back(
        {{"figure", row.figure},
         {"what", row.what},
         {"paper", row.paper},
         {"sim", row.sim},
         {"rule", row.rule},
         {"agrees", row.ran ? nlohmann::ordered_json(row.agrees) : nlohmann::ordered_json()}});
  }
  doc["rows"] = rows;
  nlohmann::ordered_json runs = nlohmann::ordered_json::array();
  for (const auto& [workload, run] : r.runs) {
    const SimResult& s = run.result;
    const double total = static_cast<double>(run.workers) * static_cast<double>(s.makespan_ps);
    runs.push_back({{"workload", workload},
                    {"workers", run.workers},
                    {"mechanism", run.mechanism},
                    {"steal", run.steal},
                    {"median_s", static_cast<double>(s.makespan_ps) * 1e-12},
                    {"verified", run.verified},
                    {"steals", s.counters.steals},
                    {"steal_attempts", s.counters.steal_attempts},
                    {"r_busy", static_cast<double>(s.shares.busy_ps) / total},
                    {"r_steal", static_cast<double>(s.shares.steal_ps) / total},
                    {"r_idle", static_cast<double>(s.shares.idle_ps) / total},
                    {"r_frame", static_cast<double>(s.shares.frame_ps) / total},
                    {"r_switch", static_cast<double>(s.shares.switch_ps) / total},
                    {"s_mean", s.occupancy.mean}});
  }
  doc["runs"] = runs;
  return doc.dump(1) + "\n";
}

}  // namespace

int paper_command(int argc, char** argv) {
  PaperOptions o;
  PaperFiles files;
  bool help = false;
  const std::string error = parse_subcommand(paper_flags(o, files), argc, argv, help);
  if (help) {
    std::fputs(paper_usage().c_str(), stdout);
    return 0;
  }
  if (!error.empty()) return bad(error);
  if (const std::string e = check_json_path(files.json_path); !e.empty()) return bad(e);
  const std::string& json_path = files.json_path;
  std::string costs_source;
  try {
    o.costs = command_costs(files.costs_path, files.scales, costs_source);
  } catch (const CostsError& e) {
    return bad(e.what());
  }
  PaperResult result;
  try {
    result = run_paper(o, [](const std::string& step) {
      std::fprintf(stderr, "weft-sim paper: %s\n", step.c_str());
    });
  } catch (const std::exception& e) {
    std::fprintf(stderr, "weft-sim paper: %s\n", e.what());
    return 1;
  }
  const std::string text = table(o, costs_source, result);
  if (json_path == "-") {
    std::fputs(json(o, costs_source, result).c_str(), stdout);
  } else {
    std::fputs(text.c_str(), stdout);
    if (!json_path.empty()) {
      if (const std::string e = bench_cli::replace_file(json_path, json(o, costs_source, result));
          !e.empty()) {
        std::fprintf(stderr, "weft-sim paper: --json %s: %s\n", json_path.c_str(), e.c_str());
        return 2;
      }
    }
  }
  return 0;
}

}  // namespace sim
