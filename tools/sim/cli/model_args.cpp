#include "tools/sim/cli/model_args.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tools/sim/cli/cli_args.hpp"
#include "workloads/common/flags.hpp"

namespace sim {
namespace {

using common::UsageError;
using Mode = ModelArgs::Mode;

// The largest sizes a run may ask for: each bounds a run to seconds, not hours.
constexpr std::uint64_t kMaxTasks = 100'000'000;
constexpr unsigned kMaxWorkers = 4096;
constexpr std::uint64_t kMaxLatency = 1'000'000;
constexpr unsigned kMaxThreshold = 64;
constexpr double kMaxModelTime = 100'000;  // mitzenmacher: about 2 n λ events per time unit
constexpr std::uint64_t kMaxSteps = 1'000'000;

struct ModeInfo {
  Mode mode;
  const char* name;
  std::set<std::string_view> flags;  // besides --mode, --seed, --json
};

const std::vector<ModeInfo>& modes() {
  static const std::vector<ModeInfo> all{
      {Mode::kBag, "bag", {"--tasks", "--workers", "--steal"}},
      {Mode::kLatency, "latency", {"--tasks", "--workers", "--steal", "--latency"}},
      {Mode::kMitzenmacher,
       "mitzenmacher",
       {"--workers", "--steal", "--lambda", "--threshold", "--time"}},
      {Mode::kGenerator, "generator", {"--workers", "--steal", "--lambda", "--time"}},
  };
  return all;
}

std::string quoted(std::string_view text) {
  std::string q(1, '\'');
  q.append(text);
  q.push_back('\'');
  return q;
}

// No value of model's flags starts with "--": one that does is the next flag, and the flag
// before it lacks its value.
void require_value(std::string_view flag, std::string_view value) {
  if (value.starts_with("--")) throw UsageError(flag, "missing value");
}

// `text` as a number in (0, high), or (0, high] when `high_included`; nothing if it is not
// one. common's parser reads it; the callers word the error, since the interval is open at 0
// (and at 1 for a rate), which common's [lo, hi] cannot say.
std::optional<double> positive_number(std::string_view text, double high, bool high_included) {
  double value = 0;
  try {
    value = common::parse_number("", text, 0, high);
  } catch (const UsageError&) {
    return std::nullopt;
  }
  if (value == 0 || (!high_included && value == high)) return std::nullopt;
  return value;
}

void set_defaults(ModelArgs& args) {
  switch (args.mode) {
    case Mode::kBag:
      args.tasks = {1000, 1000000};
      args.workers = {16, 256, 4096};
      break;
    case Mode::kLatency:
      args.tasks = {1000000};
      args.workers = {256};
      args.latencies = {1, 10, 100, 1000};
      break;
    case Mode::kMitzenmacher:
      args.workers = {1024};
      args.policy = weft::StealPolicy::one();
      args.time = 2000;
      break;
    case Mode::kGenerator:
      args.workers = {1024};
      args.time = 10000;
      break;
  }
}

// --mode, taken as it comes: the other flags wait for it (parse_model_args).
common::Flag mode_flag(const ModeInfo*& mode) {
  return {"--mode", "MODE", "bag, latency, mitzenmacher or generator (required)",
          [&mode](std::string_view v) {
            require_value("--mode", v);
            mode = nullptr;
            for (const ModeInfo& m : modes()) {
              if (v == m.name) mode = &m;
            }
            if (mode == nullptr) {
              throw UsageError("--mode",
                               quoted(v) + " is not bag, latency, mitzenmacher or generator");
            }
          }};
}

bool one_system(Mode mode) { return mode == Mode::kMitzenmacher || mode == Mode::kGenerator; }

// --workers, --steal and --time, whose checks depend on the mode.
void take_workers(ModelArgs& args, std::string_view v) {
  const bool one = one_system(args.mode);
  const std::vector<std::uint64_t> counts = parse_counts("--workers", v, one ? 2 : 1, kMaxWorkers);
  if (one && counts.size() != 1) throw UsageError("--workers", "this mode takes one count");
  args.workers.assign(counts.begin(), counts.end());
}

void take_steal(ModelArgs& args, std::string_view v) {
  args.policy = weft::StealPolicy::parse(v, "--steal");
  if (args.mode == Mode::kMitzenmacher && args.policy.spec() != "one") {
    throw UsageError(
        "--steal",
        "mitzenmacher's model steals one task (its equations are for that), not " + quoted(v));
  }
}

void take_time(ModelArgs& args, std::string_view v) {
  if (args.mode == Mode::kGenerator) {
    args.time =
        static_cast<double>(common::parse_integer(common::argument("--time", v), v, 2, kMaxSteps));
    return;
  }
  const std::optional<double> time = positive_number(v, kMaxModelTime, true);
  if (!time) {
    throw UsageError("--time", quoted(v) + " is not a time in (0, " +
                                   std::to_string(static_cast<long long>(kMaxModelTime)) + "]");
  }
  args.time = *time;
}

// The flags but --mode, parsed into `args` once its mode and defaults are set.
std::vector<common::Flag> model_flags(ModelArgs& args) {
  return {
      {"--tasks", "W,...",
       "bag, latency: unit tasks, each from 2 (default 1000,1000000;\n"
       "latency: 1000000)",
       [&args](std::string_view v) { args.tasks = parse_counts("--tasks", v, 2, kMaxTasks); }},
      {"--workers", "M,...",
       "bag, latency: processors, each from 1 to 4096 (default\n"
       "16,256,4096; latency: 256); mitzenmacher, generator: one n,\n"
       "from 2 (default 1024)",
       [&args](std::string_view v) { take_workers(args, v); }},
      {"--latency", "L,...", "latency: the steps a steal takes (default 1,10,100,1000)",
       [&args](std::string_view v) {
         args.latencies = parse_counts("--latency", v, 1, kMaxLatency);
       }},
      {"--steal", "POLICY", "the steal policy (default half; mitzenmacher: one, the only one)",
       [&args](std::string_view v) { take_steal(args, v); }},
      {"--lambda", "RATE", "mitzenmacher, generator: the rate, below 1 (default 0.9)",
       [&args](std::string_view v) {
         const std::optional<double> lambda = positive_number(v, 1.0, false);
         if (!lambda) {
           throw UsageError("--lambda", quoted(v) +
                                            " is not a rate in (0, 1) (the model is stable "
                                            "only below 1)");
         }
         args.lambda = *lambda;
       }},
      {"--threshold", "T", "mitzenmacher: the least load stolen from, 2 to 64 (default 2)",
       [&args](std::string_view v) {
         args.threshold = static_cast<unsigned>(
             common::parse_integer(common::argument("--threshold", v), v, 2, kMaxThreshold));
       }},
      {"--time", "T",
       "mitzenmacher: time units (default 2000); generator: steps\n"
       "(default 10000)",
       [&args](std::string_view v) { take_time(args, v); }},
      seed_flag(args.seed),
      json_flag(args.json_path,
                "the results as JSON; - for stdout, the table then on stderr\n"
                "(default: none)"),
  };
}

// Fills `args` from the flags; returns "" or the error. Every flag but --mode is taken once
// the mode is known, whatever the order, in the order given.
std::string parse_words(std::span<const std::string_view> words, ModelArgs& args) {
  const ModeInfo* mode = nullptr;
  std::vector<std::pair<std::string_view, std::string_view>> given;  // (flag, value)
  std::vector<common::Flag> rows = model_flags(args);
  std::vector<common::Flag> deferring{mode_flag(mode)};
  for (const common::Flag& row : rows) {
    deferring.push_back(
        {row.name, row.value, row.help, [&given, name = row.name](std::string_view v) {
           require_value(name, v);
           given.emplace_back(name, v);
         }});
  }
  const common::FlagTable taking(std::move(rows));
  args.help = !common::FlagTable(std::move(deferring)).parse(words);
  if (args.help) return "";
  if (mode == nullptr) return "--mode is missing (bag, latency, mitzenmacher, generator)";
  args.mode = mode->mode;
  set_defaults(args);
  for (const auto& [flag, value] : given) {
    if (flag != "--seed" && flag != "--json" && !mode->flags.contains(flag)) {
      return quoted(flag) + " is not an option of --mode " + mode->name;
    }
    taking.find(flag)->take(value);
  }
  for (std::uint64_t latency : args.latencies) {
    for (std::uint64_t tasks : args.tasks) {
      if (tasks < 2 * latency) {
        return "--tasks " + std::to_string(tasks) + " with --latency " + std::to_string(latency) +
               ": the bound needs W >= 2 latency (log2(W/latency) >= 1)";
      }
    }
  }
  return "";
}

}  // namespace

const char* mode_name(Mode mode) {
  for (const ModeInfo& m : modes()) {
    if (m.mode == mode) return m.name;
  }
  return "?";
}

std::string parse_model_args(int argc, char** argv, ModelArgs& args) {
  const std::vector<std::string_view> words(argv + std::min(argc, 2), argv + argc);
  try {
    return parse_words(words, args);
  } catch (const UsageError& e) {
    return e.what();
  } catch (const weft::ConfigError& e) {  // a policy weft refuses
    return e.what();
  }
}

std::string model_usage() {
  ModelArgs scratch;
  const ModeInfo* mode = nullptr;
  std::vector<common::Flag> rows{mode_flag(mode)};
  for (common::Flag& row : model_flags(scratch)) rows.push_back(std::move(row));
  return "usage:\n"
         "  weft-sim model --mode bag [--tasks 1000,1000000] [--workers 16,256,4096]\n"
         "                 [--steal half]\n"
         "  weft-sim model --mode latency [--tasks 1000000] [--workers 256]\n"
         "                 [--latency 1,10,100,1000] [--steal half]\n"
         "  weft-sim model --mode mitzenmacher [--workers 1024] [--lambda 0.9]\n"
         "                 [--threshold 2] [--time 2000]\n"
         "  weft-sim model --mode generator [--workers 1024] [--lambda 0.9] [--time 10000]\n"
         "                 [--steal half]\n"
         "  every mode: [--seed 1] [--json FILE|-]\n" +
         common::FlagTable(std::move(rows)).options_help() +
         "Simulates a classic load-balancing model and prints each simulated figure beside\n"
         "what the theorem predicts, with a verdict (docs/SIMULATOR.md, \"Models\"):\n"
         "  bag           W unit tasks on m processors, a steal takes one step:\n"
         "                makespan <= W/m + 3.65 log2 W\n"
         "  latency       the same with a steal taking L steps:\n"
         "                makespan <= W/m + 4 L log2(W/L)\n"
         "  mitzenmacher  Poisson arrivals (rate lambda < 1) and exp(1) services on n\n"
         "                processors; an emptied processor tries once to steal one task\n"
         "                from a processor holding >= threshold: the simulated s_i (the\n"
         "                fraction holding >= i tasks) within 0.01 of the equations' fixed\n"
         "                point\n"
         "  generator     n generators on one processor, each making a task per step with\n"
         "                probability lambda < 1; idle processors steal: the total load\n"
         "                stays bounded (the second half's largest within 1.5 times the\n"
         "                first's, plus n); --time is in steps\n"
         "Policies: " +
         weft::StealPolicy::allowed_specs() +
         " (the theorems are for half; mitzenmacher's for one).\n"
         "With --json - the table goes to stderr and the JSON alone to stdout.\n"
         "Exit 1 if a check fails, 2 for bad arguments.\n";
}

}  // namespace sim
