#include "tools/sim/cli/model_args.hpp"

#include <cmath>
#include <cstdlib>
#include <map>
#include <set>
#include <string_view>

#include "tools/sim/cli/cli_args.hpp"

namespace sim {
namespace {

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

// A comma list of whole numbers in [low, high].
std::string parse_counts(std::string_view flag, std::string_view value, std::uint64_t low,
                         std::uint64_t high, std::vector<std::uint64_t>& out) {
  out.clear();
  for (std::string_view item : split(value)) {
    std::uint64_t n = 0;
    if (!parse_u64(item, n) || n < low || n > high) {
      return std::string(flag) + ": " + quoted(item) + " is not a whole number in [" +
             std::to_string(low) + ", " + std::to_string(high) + "]";
    }
    out.push_back(n);
  }
  return "";
}

// A finite decimal number, nothing before or after it.
bool parse_double(std::string_view text, double& value) {
  const std::string copy(text);
  char* end = nullptr;
  value = std::strtod(copy.c_str(), &end);
  return !copy.empty() && end == copy.c_str() + copy.size() && std::isfinite(value) &&
         !std::isspace(static_cast<unsigned char>(copy.front()));
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

std::string parse_flag(std::string_view flag, std::string_view value, ModelArgs& args) {
  std::vector<std::uint64_t> counts;
  const bool one_system = args.mode == Mode::kMitzenmacher || args.mode == Mode::kGenerator;
  if (flag == "--tasks") {
    return parse_counts(flag, value, 2, kMaxTasks, args.tasks);
  }
  if (flag == "--workers") {
    if (std::string e = parse_counts(flag, value, one_system ? 2 : 1, kMaxWorkers, counts);
        !e.empty())
      return e;
    if (one_system && counts.size() != 1) return "--workers: this mode takes one count";
    args.workers.assign(counts.begin(), counts.end());
    return "";
  }
  if (flag == "--latency") {
    return parse_counts(flag, value, 1, kMaxLatency, args.latencies);
  }
  if (flag == "--threshold") {
    if (std::string e = parse_counts(flag, value, 2, kMaxThreshold, counts); !e.empty()) return e;
    if (counts.size() != 1) return "--threshold: one value";
    args.threshold = static_cast<unsigned>(counts[0]);
    return "";
  }
  if (flag == "--lambda") {
    if (!parse_double(value, args.lambda) || !(args.lambda > 0.0 && args.lambda < 1.0)) {
      return "--lambda: " + quoted(value) +
             " is not a rate in (0, 1) (the model is stable only below 1)";
    }
    return "";
  }
  if (flag == "--time") {
    if (args.mode == Mode::kGenerator) {
      if (std::string e = parse_counts(flag, value, 2, kMaxSteps, counts); !e.empty()) return e;
      if (counts.size() != 1) return "--time: one number of steps";
      args.time = static_cast<double>(counts[0]);
      return "";
    }
    if (!parse_double(value, args.time) || !(args.time > 0.0 && args.time <= kMaxModelTime)) {
      return "--time: " + quoted(value) + " is not a time in (0, " +
             std::to_string(static_cast<long long>(kMaxModelTime)) + "]";
    }
    return "";
  }
  if (flag == "--steal") {
    try {
      args.policy = weft::StealPolicy::parse(value, "--steal");
    } catch (const weft::ConfigError& e) {
      return e.what();
    }
    if (args.mode == Mode::kMitzenmacher && args.policy.spec() != "one") {
      return "--steal: mitzenmacher's model steals one task (its equations are for that), not " +
             quoted(value);
    }
    return "";
  }
  if (flag == "--seed") {
    if (!parse_u64(value, args.seed)) return "--seed: " + quoted(value) + " is not a number";
    return "";
  }
  args.json_path = std::string(value);  // --json, the one flag left
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
  // Flags and values first, so that the mode is known whatever the order.
  std::vector<std::pair<std::string_view, std::string_view>> given;
  const ModeInfo* mode = nullptr;
  for (int i = 2; i < argc; ++i) {
    const std::string_view flag = argv[i];
    if (flag == "--help" || flag == "-h") {
      args.help = true;
      return "";
    }
    // A flag right after a flag means the first lacks its value (no value starts "--").
    if (i + 1 >= argc || std::string_view(argv[i + 1]).starts_with("--")) {
      return std::string(flag) + " needs a value";
    }
    const std::string_view value = argv[++i];
    if (flag != "--mode") {
      given.emplace_back(flag, value);
      continue;
    }
    mode = nullptr;
    for (const ModeInfo& m : modes()) {
      if (value == m.name) mode = &m;
    }
    if (mode == nullptr) {
      return "--mode: " + quoted(value) + " is not bag, latency, mitzenmacher or generator";
    }
  }
  if (mode == nullptr) return "--mode is missing (bag, latency, mitzenmacher, generator)";
  args.mode = mode->mode;
  set_defaults(args);
  for (const auto& [flag, value] : given) {
    if (flag != "--seed" && flag != "--json" && !mode->flags.contains(flag)) {
      return quoted(flag) + " is not an option of --mode " + mode->name;
    }
    if (std::string e = parse_flag(flag, value, args); !e.empty()) return e;
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

std::string model_usage() {
  return "usage:\n"
         "  weft-sim model --mode bag [--tasks 1000,1000000] [--workers 16,256,4096]\n"
         "                 [--steal half]\n"
         "  weft-sim model --mode latency [--tasks 1000000] [--workers 256]\n"
         "                 [--latency 1,10,100,1000] [--steal half]\n"
         "  weft-sim model --mode mitzenmacher [--workers 1024] [--lambda 0.9]\n"
         "                 [--threshold 2] [--time 2000]\n"
         "  weft-sim model --mode generator [--workers 1024] [--lambda 0.9] [--time 10000]\n"
         "                 [--steal half]\n"
         "  every mode: [--seed 1] [--json FILE|-]\n"
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
