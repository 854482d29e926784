#include "tools/sim/cli/model_cli.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "tools/sim/cli/model_args.hpp"
#include "tools/sim/models/model_bag.hpp"
#include "tools/sim/models/model_generator.hpp"
#include "tools/sim/models/model_latency.hpp"
#include "tools/sim/models/model_mitzenmacher.hpp"
#include "workloads/common/output_file.hpp"

namespace sim {
namespace {

using Mode = ModelArgs::Mode;
using nlohmann::json;

constexpr double kMitzenmacherTolerance = 0.01;
constexpr double kBagConstant = 3.65;
// Levels of s_i below this on both sides are left out of the table (not of the JSON).
constexpr double kSmallestLevelShown = 1e-4;

struct Report {
  std::string table;
  json result;
  bool within = true;  // no figure outside a bound its theorem claims
};

// A theorem claims nothing for a policy it was not proved for: the figure is shown, and
// its verdict says so rather than failing the run.
const char* verdict(bool claimed, bool holds, Report& report) {
  if (!claimed) return "no claim";
  if (holds) return "within";
  report.within = false;
  return "outside";
}

std::string line(const char* format, auto... values) {
  char text[256];
  std::snprintf(text, sizeof text, format, values...);
  return text;
}

// bag and latency: the bag model, with λ = 1 for bag (the classic model, the constant
// 3.65) and each given λ for latency (the constant kLatencyConstant).
Report bag_report(const ModelArgs& args) {
  const bool latency_mode = args.mode == Mode::kLatency;
  const std::vector<std::uint64_t> latencies =
      latency_mode ? args.latencies : std::vector<std::uint64_t>{1};
  const double constant = latency_mode ? kLatencyConstant : kBagConstant;
  const bool claimed = args.policy.spec() == "half";
  Report report;
  std::ostringstream table;
  table << "weft-sim model " << mode_name(args.mode) << ": W unit tasks on m processors, steal "
        << args.policy.spec() << ", seed " << args.seed << "\n"
        << (latency_mode ? "theorem: makespan <= W/m + O(L log2(W/L)); checked against W/m + "
                           "4 L log2(W/L) (Gast, Khatiri, Trystram, Wagner)\n"
                         : "theorem: makespan <= W/m + 3.65 log2 W (Tchiboukdjian, Gast, "
                           "Trystram et al.)\n")
        << line("%10s %5s %8s %10s %12s %12s %9s %10s %9s  %s\n", "W", "m", "L", "makespan", "W/m",
                "bound", "c", "requests", "steals", "verdict");
  json runs = json::array();
  for (std::uint64_t tasks : args.tasks) {
    for (unsigned workers : args.workers) {
      for (std::uint64_t latency : latencies) {
        const BagResult r = simulate_bag(BagConfig{.tasks = tasks,
                                                   .workers = workers,
                                                   .policy = args.policy,
                                                   .latency = latency,
                                                   .seed = args.seed});
        const double bound =
            latency_mode ? latency_bound(tasks, workers, latency) : bag_bound(tasks, workers);
        // The constant this run needed in front of L log2(W/L) (log2 W for bag).
        const double c = latency_excess_ratio(r.makespan, tasks, workers, latency);
        const char* v = verdict(claimed, static_cast<double>(r.makespan) <= bound, report);
        table << line("%10llu %5u %8llu %10llu %12.1f %12.1f %9.3f %10llu %9llu  %s\n",
                      static_cast<unsigned long long>(tasks), workers,
                      static_cast<unsigned long long>(latency),
                      static_cast<unsigned long long>(r.makespan),
                      static_cast<double>(tasks) / workers, bound, c,
                      static_cast<unsigned long long>(r.steal_requests),
                      static_cast<unsigned long long>(r.steals), v);
        runs.push_back({{"tasks", tasks},
                        {"workers", workers},
                        {"latency", latency},
                        {"makespan", r.makespan},
                        {"work_per_worker", static_cast<double>(tasks) / workers},
                        {"bound", bound},
                        {"excess_constant", c},
                        {"steal_requests", r.steal_requests},
                        {"steals", r.steals},
                        {"verdict", v}});
      }
    }
  }
  table << "c: (makespan - W/m) / (L log2(W/L)), the theorem's constant as this run needs it; "
           "the bound uses "
        << line("%.2f", constant) << "\n";
  report.table = table.str();
  report.result = {{"bound_constant", constant}, {"runs", std::move(runs)}};
  return report;
}

Report mitzenmacher_report(const ModelArgs& args) {
  const MitzenmacherConfig config{.processors = args.workers.front(),
                                  .lambda = args.lambda,
                                  .threshold = args.threshold,
                                  .time = args.time,
                                  .policy = args.policy,
                                  .seed = args.seed};
  const MitzenmacherResult r = simulate_mitzenmacher(config);
  const std::vector<double> fixed = mitzenmacher_fixed_point(args.lambda, args.threshold);
  Report report;
  std::ostringstream table;
  table << line(
               "weft-sim model mitzenmacher: n %u, lambda %g, threshold %u, time %g (s_i "
               "averaged over the last %g), seed %llu\n",
               config.processors, args.lambda, args.threshold, args.time, args.time * 4 / 5,
               static_cast<unsigned long long>(args.seed))
        << "theory: the fixed point of Mitzenmacher's equations (n -> infinity); "
           "|s_i(simulated) - s_i(fixed point)| <= 0.01\n"
        << line("%4s %11s %12s %11s  %s\n", "i", "simulated", "fixed_point", "difference",
                "verdict");
  json levels = json::array();
  double largest = 0.0;
  const std::size_t count = std::max(r.tail.size(), fixed.size());
  for (std::size_t i = 1; i < count; ++i) {
    const double simulated = i < r.tail.size() ? r.tail[i] : 0.0;
    const double theory = i < fixed.size() ? fixed[i] : 0.0;
    const double difference = simulated - theory;
    largest = std::max(largest, std::abs(difference));
    const char* v = verdict(true, std::abs(difference) <= kMitzenmacherTolerance, report);
    if (simulated >= kSmallestLevelShown || theory >= kSmallestLevelShown) {
      table << line("%4zu %11.5f %12.5f %+11.5f  %s\n", i, simulated, theory, difference, v);
    }
    levels.push_back({{"i", i}, {"simulated", simulated}, {"fixed_point", theory}, {"verdict", v}});
  }
  table << line(
      "largest |difference| %.5f; arrivals %llu, completions %llu, steal attempts "
      "%llu, steals %llu\n",
      largest, static_cast<unsigned long long>(r.arrivals),
      static_cast<unsigned long long>(r.completions),
      static_cast<unsigned long long>(r.steal_attempts), static_cast<unsigned long long>(r.steals));
  report.table = table.str();
  report.result = {{"processors", config.processors},
                   {"lambda", args.lambda},
                   {"threshold", args.threshold},
                   {"time", args.time},
                   {"tolerance", kMitzenmacherTolerance},
                   {"largest_difference", largest},
                   {"levels", std::move(levels)},
                   {"arrivals", r.arrivals},
                   {"completions", r.completions},
                   {"steal_attempts", r.steal_attempts},
                   {"steals", r.steals}};
  return report;
}

Report generator_report(const ModelArgs& args) {
  const GeneratorConfig config{.processors = args.workers.front(),
                               .lambda = args.lambda,
                               .steps = static_cast<std::uint64_t>(args.time),
                               .policy = args.policy,
                               .seed = args.seed};
  const GeneratorResult r = simulate_generator(config);
  Report report;
  const char* v =
      verdict(args.policy.spec() == "half", load_stays_bounded(r, config.processors), report);
  const double ratio = r.max_load_first_half > 0 ? static_cast<double>(r.max_load_second_half) /
                                                       static_cast<double>(r.max_load_first_half)
                                                 : 0.0;
  std::ostringstream table;
  table << line(
               "weft-sim model generator: n %u processors and generators (all on processor "
               "0), lambda %g, %llu steps, steal %s, seed %llu\n",
               config.processors, args.lambda, static_cast<unsigned long long>(config.steps),
               args.policy.spec().c_str(), static_cast<unsigned long long>(args.seed))
        << "theorem: the total load stays bounded for lambda < 1 (Berenbrink, Friedetzky, "
           "Goldberg); check: the second half's largest <= 1.5 x the first half's + n\n"
        << line("%12s %12s %10s %14s %14s %7s %14s  %s\n", "generated", "served", "steals",
                "max_1st_half", "max_2nd_half", "ratio", "mean/processor", "verdict")
        << line("%12llu %12llu %10llu %14llu %14llu %7.3f %14.2f  %s\n",
                static_cast<unsigned long long>(r.generated),
                static_cast<unsigned long long>(r.served),
                static_cast<unsigned long long>(r.steals),
                static_cast<unsigned long long>(r.max_load_first_half),
                static_cast<unsigned long long>(r.max_load_second_half), ratio,
                r.mean_load_second_half / config.processors, v);
  report.table = table.str();
  report.result = {{"processors", config.processors},
                   {"lambda", args.lambda},
                   {"steps", config.steps},
                   {"generated", r.generated},
                   {"served", r.served},
                   {"steal_requests", r.steal_requests},
                   {"steals", r.steals},
                   {"max_load_first_half", r.max_load_first_half},
                   {"max_load_second_half", r.max_load_second_half},
                   {"mean_load_second_half", r.mean_load_second_half},
                   {"final_load", r.final_load},
                   {"verdict", v}};
  return report;
}

}  // namespace

int model_command(int argc, char** argv) {
  ModelArgs args;
  if (const std::string error = parse_model_args(argc, argv, args); !error.empty()) {
    std::fprintf(stderr, "weft-sim model: %s\n%s", error.c_str(), model_usage().c_str());
    return 2;
  }
  if (args.help) {
    std::fputs(model_usage().c_str(), stdout);
    return 0;
  }
  const bool json_to_stdout = args.json_path == "-";
  if (!args.json_path.empty() && !json_to_stdout) {
    // Refused before the runs, not after them.
    if (const std::string e = bench_cli::check_replaceable(args.json_path); !e.empty()) {
      std::fprintf(stderr, "weft-sim model: --json %s: %s\n", args.json_path.c_str(), e.c_str());
      return 2;
    }
  }
  Report report;
  switch (args.mode) {
    case Mode::kBag:
    case Mode::kLatency: report = bag_report(args); break;
    case Mode::kMitzenmacher: report = mitzenmacher_report(args); break;
    case Mode::kGenerator: report = generator_report(args); break;
  }
  std::fputs(report.table.c_str(), json_to_stdout ? stderr : stdout);
  if (args.json_path.empty()) return report.within ? 0 : 1;
  json document = {{"benchmark", "sim model"},
                   {"mode", mode_name(args.mode)},
                   {"steal", args.policy.spec()},
                   {"seed", args.seed},
                   {"within", report.within}};
  document.update(report.result);
  const std::string text = document.dump() + "\n";
  if (json_to_stdout) {
    std::fputs(text.c_str(), stdout);
  } else if (const std::string e = bench_cli::replace_file(args.json_path, text); !e.empty()) {
    std::fprintf(stderr, "weft-sim model: --json %s: %s\n", args.json_path.c_str(), e.c_str());
    return 2;
  }
  return report.within ? 0 : 1;
}

}  // namespace sim
