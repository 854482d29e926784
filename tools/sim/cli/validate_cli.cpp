#include "tools/sim/cli/validate_cli.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "tools/sim/cli/cli_args.hpp"
#include "tools/sim/engine/costs.hpp"
#include "tools/sim/engine/workload.hpp"
#include "weft/config.hpp"
#include "workloads/common/output_file.hpp"

namespace sim {
namespace {

struct ValidateArgs {
  std::string real_path;      // --real
  std::string workload_spec;  // --workload; "" for the file's own
  weft::Barrier barrier = weft::Barrier::kAuto;
  std::uint64_t seed = 1;
  std::string costs_path;           // --costs, "" for the uncalibrated placeholders
  std::vector<std::string> scales;  // --scale-cost NAME=FACTOR, in order
  std::string json_path;            // --json, "" none, "-" stdout
  bool help = false;
};

// validate's flags, parsed into `a`.
common::FlagTable validate_flags(ValidateArgs& a) {
  return common::FlagTable({
      {"--real", "FILE.json", "weft-bench's --json file of fib, uts or compare (required)",
       [&a](std::string_view v) { a.real_path = std::string(v); }},
      {"--workload", "SPEC", "as run's --workload (default: the file's, fib:N or uts:PRESET)",
       [&a](std::string_view v) { a.workload_spec = std::string(v); }},
      costs_flag(a.costs_path),
      scale_cost_flag(a.scales),
      barrier_flag(a.barrier),
      seed_flag(a.seed),
      json_flag(a.json_path,
                "the rows as JSON; - for stdout, the table then on stderr\n"
                "(default: none)"),
  });
}

std::string validate_usage() {
  ValidateArgs scratch;
  return "usage: weft-sim validate --real FILE.json [--workload SPEC] [--costs FILE]\n"
         "                         [--scale-cost NAME=FACTOR ...] [--barrier "
         "auto|membarrier|fence]\n"
         "                         [--seed 1] [--json FILE|-]\n" +
         validate_flags(scratch).options_help() +
         "Simulates every weft run of a weft-bench JSON file (fib, uts or compare) in its\n"
         "configuration (mechanism, policy, workers) and prints the two side by side: times\n"
         "and error (T_sim / T_real - 1), steals per run, the differences of R_busy, R_steal\n"
         "and R_idle (simulated minus real; the real run needs --profile) and the total\n"
         "variation distance between the histograms of n seen at steal attempts. The workload\n"
         "is the file's (fib:N, uts:PRESET) unless --workload names it; a compare workload is\n"
         "simulated as its recording (weft-sim record, then --workload dag:FILE). --barrier\n"
         "is the concurrent mechanism's, as the real runs' WEFT_BARRIER (default auto).\n"
         "scripts/validate_sim.sh runs the whole grid in one sitting (docs/SIMULATOR.md).\n"
         "Exit 1 if a simulated run is not verified, 2 for bad arguments or a file that is\n"
         "not weft-bench JSON with weft runs.\n";
}

int bad(const std::string& what) {
  std::fprintf(stderr, "weft-sim validate: %s\n%s", what.c_str(), validate_usage().c_str());
  return 2;
}

// One weft run of the real file.
struct RealRun {
  weft::StealMechanism mechanism = weft::StealMechanism::kConcurrent;
  weft::StealPolicy policy = weft::StealPolicy::one();
  unsigned workers = 1;
  double median_s = 0;
  double steals = 0;  // per run
  std::vector<double> sizes_seen;
  std::optional<std::array<double, 3>> shares;  // busy, steal, idle (with --profile)
};

// The weft runs of a weft-bench document, and the workload it names ("" where it cannot: a
// compare workload, which is simulated as a recording, or a tree in the reference's flags).
// Throws std::runtime_error or nlohmann::json::exception saying what is missing.
std::vector<RealRun> read_real(const nlohmann::json& doc, std::string& named) {
  const nlohmann::json* runs = nullptr;
  if (doc.contains("workloads")) {
    const nlohmann::json& workloads = doc.at("workloads");
    if (workloads.size() != 1) {
      throw std::runtime_error("a compare file of " + std::to_string(workloads.size()) +
                               " workloads; validate takes one (weft-bench compare "
                               "--workloads NAME:SIZE)");
    }
    runs = &workloads.at(0).at("runs");
  } else {
    const std::string benchmark = doc.at("benchmark").get<std::string>();
    if (benchmark == "fib") {
      named = "fib:" + std::to_string(doc.at("n").get<int>());
    } else if (benchmark == "uts") {
      const std::string tree = doc.at("tree").get<std::string>();
      if (tree != "custom") named = "uts:" + tree;
    } else {
      throw std::runtime_error("\"benchmark\": \"" + benchmark + "\" is not fib or uts");
    }
    runs = &doc.at("runs");
  }
  std::vector<RealRun> out;
  for (const nlohmann::json& r : *runs) {
    if (r.at("impl").get<std::string>() != "weft") continue;
    RealRun run;
    run.mechanism = weft::parse_mechanism(r.at("mechanism").get<std::string>());
    run.policy = weft::StealPolicy::parse(r.at("steal").get<std::string>());
    const int workers = r.at("workers").get<int>();
    if (workers < 1 || workers > 4096) {
      throw std::runtime_error("\"workers\": " + std::to_string(workers) + " not in [1, 4096]");
    }
    run.workers = static_cast<unsigned>(workers);
    run.median_s = r.at("median_s").get<double>();
    const nlohmann::json& counters = r.at("counters_per_run");
    run.steals = counters.at("steals").get<double>();
    if (counters.contains("steal_sizes_seen")) {
      run.sizes_seen = counters.at("steal_sizes_seen").get<std::vector<double>>();
    }
    if (r.contains("profile")) {
      // weft-bench fib and uts nest the shares under "total"; compare does not.
      const nlohmann::json& p =
          r.at("profile").contains("total") ? r.at("profile").at("total") : r.at("profile");
      run.shares =
          std::array<double, 3>{p.at("r_busy").get<double>(), p.at("r_steal").get<double>(),
                                p.at("r_idle").get<double>()};
    }
    out.push_back(std::move(run));
  }
  if (out.empty()) throw std::runtime_error("no weft runs in it");
  return out;
}

struct Row {
  const RealRun* real = nullptr;
  SimResult sim;
  bool verified = false;
  double sim_s() const { return static_cast<double>(sim.makespan_ps) * 1e-12; }
  double error() const { return real->median_s > 0 ? sim_s() / real->median_s - 1 : 0.0; }
  double share(std::uint64_t part_ps) const {
    const double total = static_cast<double>(sim.makespan_ps) * real->workers;
    return total > 0 ? static_cast<double>(part_ps) / total : 0.0;
  }
  // Simulated minus real: busy, steal, idle.
  std::optional<std::array<double, 3>> share_differences() const {
    if (!real->shares) return std::nullopt;
    const std::array<double, 3>& r = *real->shares;
    return std::array<double, 3>{share(sim.shares.busy_ps) - r[0],
                                 share(sim.shares.steal_ps) - r[1],
                                 share(sim.shares.idle_ps) - r[2]};
  }
  // Between the normalised histograms; none where a side saw no attempt.
  std::optional<double> total_variation() const {
    const std::vector<double>& a = real->sizes_seen;
    const auto& b = sim.counters.steal_sizes_seen;
    double sa = 0, sb = 0;
    for (double x : a) sa += x;
    for (std::uint64_t x : b) sb += static_cast<double>(x);
    if (sa == 0 || sb == 0) return std::nullopt;
    double tv = 0;
    for (std::size_t i = 0; i < b.size(); ++i) {
      tv += std::abs((i < a.size() ? a[i] : 0.0) / sa - static_cast<double>(b[i]) / sb);
    }
    return tv / 2;
  }
};

std::string label(const RealRun& r) {
  return std::string(weft::mechanism_name(r.mechanism)) + "/" + r.policy.spec();
}

// The median |error| of the rows at `workers` workers, or nothing if none.
std::optional<double> median_abs_error(const std::vector<Row>& rows, unsigned workers) {
  std::vector<double> e;
  for (const Row& row : rows) {
    if (row.real->workers == workers) e.push_back(std::abs(row.error()));
  }
  if (e.empty()) return std::nullopt;
  std::sort(e.begin(), e.end());
  const std::size_t m = e.size() / 2;
  return e.size() % 2 ? e[m] : (e[m - 1] + e[m]) / 2;
}

std::vector<unsigned> worker_counts(const std::vector<Row>& rows) {
  std::vector<unsigned> counts;
  for (const Row& row : rows) counts.push_back(row.real->workers);
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  return counts;
}

std::string table(const std::string& header, const std::vector<Row>& rows) {
  std::ostringstream out;
  char buf[192];
  out << header << "\n";
  std::snprintf(buf, sizeof buf, "%-24s %7s %10s %10s %8s %17s %8s %8s %8s %7s\n",
                "mechanism/steal", "workers", "real_s", "sim_s", "error", "steals real/sim",
                "dR_busy", "dR_steal", "dR_idle", "TV");
  out << buf;
  for (const Row& row : rows) {
    const auto d = row.share_differences();
    const auto tv = row.total_variation();
    char steals[40], shares[40], tv_text[16];
    std::snprintf(steals, sizeof steals, "%.0f/%llu", row.real->steals,
                  static_cast<unsigned long long>(row.sim.counters.steals));
    if (d) {
      std::snprintf(shares, sizeof shares, "%+8.3f %+8.3f %+8.3f", (*d)[0], (*d)[1], (*d)[2]);
    } else {
      std::snprintf(shares, sizeof shares, "%8s %8s %8s", "-", "-", "-");
    }
    if (tv) {
      std::snprintf(tv_text, sizeof tv_text, "%.3f", *tv);
    } else {
      std::snprintf(tv_text, sizeof tv_text, "-");
    }
    std::snprintf(buf, sizeof buf, "%-24s %7u %10.4f %10.4f %+8.3f %17s %s %7s%s\n",
                  label(*row.real).c_str(), row.real->workers, row.real->median_s, row.sim_s(),
                  row.error(), steals, shares, tv_text, row.verified ? "" : "  NOT VERIFIED");
    out << buf;
  }
  for (unsigned p : worker_counts(rows)) {
    std::snprintf(buf, sizeof buf, "median |error| at %u worker%s: %.3f\n", p, p == 1 ? "" : "s",
                  *median_abs_error(rows, p));
    out << buf;
  }
  return out.str();
}

std::string json(const std::string& real_path, const std::string& workload,
                 const std::string& costs_source, const std::vector<Row>& rows) {
  nlohmann::json doc;
  doc["format"] = "weft-sim validate";
  doc["real"] = real_path;
  doc["workload"] = workload;
  doc["costs"] = costs_source;
  nlohmann::json list = nlohmann::json::array();
  for (const Row& row : rows) {
    nlohmann::json r;
    r["mechanism"] = weft::mechanism_name(row.real->mechanism);
    r["steal"] = row.real->policy.spec();
    r["workers"] = row.real->workers;
    r["real_s"] = row.real->median_s;
    r["sim_s"] = row.sim_s();
    r["error"] = row.error();
    r["real_steals"] = row.real->steals;
    r["sim_steals"] = row.sim.counters.steals;
    r["verified"] = row.verified;
    const auto d = row.share_differences();
    r["d_busy"] = d ? nlohmann::json((*d)[0]) : nlohmann::json();
    r["d_steal"] = d ? nlohmann::json((*d)[1]) : nlohmann::json();
    r["d_idle"] = d ? nlohmann::json((*d)[2]) : nlohmann::json();
    const auto tv = row.total_variation();
    r["tv"] = tv ? nlohmann::json(*tv) : nlohmann::json();
    list.push_back(std::move(r));
  }
  doc["rows"] = std::move(list);
  nlohmann::json medians = nlohmann::json::object();
  for (unsigned p : worker_counts(rows)) medians[std::to_string(p)] = *median_abs_error(rows, p);
  doc["median_abs_error"] = std::move(medians);
  return doc.dump(1) + "\n";
}

// What validate simulates: the real file's weft runs, the workload and the costs.
struct Inputs {
  std::vector<RealRun> real;
  Workload workload;
  Costs costs;
  std::string costs_source;
};

// Reads --real, names the workload (setting a.workload_spec from the file when not given) and
// loads it and the costs; returns "" or what is wrong (a bad argument or input file).
std::string load_inputs(ValidateArgs& a, Inputs& in) {
  std::string named;
  try {
    std::ifstream file(a.real_path);
    if (!file) return "--real " + a.real_path + ": cannot be read";
    in.real = read_real(nlohmann::json::parse(file), named);
  } catch (const std::exception& e) {  // bad JSON, a missing field, an unknown policy
    return "--real " + a.real_path + ": not weft-bench JSON with weft runs: " + e.what();
  }
  if (a.workload_spec.empty()) a.workload_spec = named;
  if (a.workload_spec.empty()) {
    return "--real " + a.real_path +
           ": name the simulated workload with --workload (a compare workload is simulated "
           "as its recording: weft-sim record --workload NAME:SIZE --out F.wdag, then "
           "--workload dag:F.wdag; a tree in the reference's flags as uts:\"FLAGS\")";
  }
  try {
    parse_workload(a.workload_spec, in.workload);
    in.costs = command_costs(a.costs_path, a.scales, in.costs_source);
    for (const RealRun& r : in.real) {
      require_fence_costs(in.costs, a.costs_path, r.mechanism, a.barrier);
    }
    load_workload(in.workload);
  } catch (const std::exception& e) {  // a bad --workload, costs file or .wdag
    return e.what();
  }
  return "";
}

// Each real run simulated in its configuration; throws what the engine throws.
std::vector<Row> simulate(const ValidateArgs& a, const Inputs& in) {
  std::vector<Row> rows;
  const std::uint64_t expected = expected_tasks(in.workload);
  for (const RealRun& r : in.real) {
    Row row;
    row.real = &r;
    const EngineConfig config{.workers = r.workers,
                              .policy = r.policy,
                              .mechanism = r.mechanism,
                              .barrier = a.barrier,
                              .seed = a.seed,
                              .costs = in.costs.engine};
    row.sim = simulate_workload(in.workload, in.costs, config);
    row.verified = row.sim.tasks == expected && row.sim.counters.spawns + 1 == expected;
    rows.push_back(std::move(row));
  }
  return rows;
}

// The table (on stderr with --json -, so that stdout is the JSON's alone) and the JSON;
// returns the exit status.
int write_results(const ValidateArgs& a, const Inputs& in, const std::vector<Row>& rows) {
  const std::string header = "weft-sim validate: " + a.real_path + " against " + a.workload_spec +
                             " simulated, costs: " + in.costs_source;
  std::fputs(table(header, rows).c_str(), a.json_path == "-" ? stderr : stdout);
  if (!a.json_path.empty()) {
    const std::string text = json(a.real_path, a.workload_spec, in.costs_source, rows);
    if (a.json_path == "-") {
      std::fputs(text.c_str(), stdout);
    } else if (const std::string e = bench_cli::replace_file(a.json_path, text); !e.empty()) {
      std::fprintf(stderr, "weft-sim validate: --json %s: %s\n", a.json_path.c_str(), e.c_str());
      return 2;
    }
  }
  const bool ok = std::all_of(rows.begin(), rows.end(), [](const Row& r) { return r.verified; });
  if (!ok) std::fprintf(stderr, "weft-sim validate: a simulated run made the wrong task count\n");
  return ok ? 0 : 1;
}

}  // namespace

int validate_command(int argc, char** argv) {
  ValidateArgs a;
  const std::string error = parse_subcommand(validate_flags(a), argc, argv, a.help);
  if (a.help) {
    std::fputs(validate_usage().c_str(), stdout);
    return 0;
  }
  if (!error.empty()) return bad(error);
  if (a.real_path.empty()) return bad("validate needs --real FILE.json (weft-bench's --json)");
  if (const std::string e = check_json_path(a.json_path); !e.empty()) return bad(e);
  Inputs in;
  if (const std::string e = load_inputs(a, in); !e.empty()) return bad(e);
  std::vector<Row> rows;
  try {
    rows = simulate(a, in);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "weft-sim validate: %s\n", e.what());
    return 2;
  }
  return write_results(a, in, rows);
}

}  // namespace sim
