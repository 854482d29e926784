#include "tools/sim/engine/costs.hpp"

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace sim {
namespace {

constexpr CostField kFields[] = {
    {"spawn_ns", [](Costs& c) -> std::uint64_t& { return c.engine.spawn_ps; },
     "a spawn: push a task on the worker's stack"},
    {"join_inline_ns", [](Costs& c) -> std::uint64_t& { return c.engine.join_inline_ps; },
     "a join that pops its task and starts it inline"},
    {"join_stolen_ns", [](Costs& c) -> std::uint64_t& { return c.engine.join_stolen_ps; },
     "a join that finds its task stolen"},
    {"attempt_ns", [](Costs& c) -> std::uint64_t& { return c.engine.attempt_ps; },
     "a steal attempt that takes nothing"},
    {"claim_ns", [](Costs& c) -> std::uint64_t& { return c.engine.claim_ps; },
     "a steal attempt that takes tasks"},
    {"proxy_ns", [](Costs& c) -> std::uint64_t& { return c.engine.proxy_ps; },
     "each task of a claim beyond the first"},
    {"poll_ns", [](Costs& c) -> std::uint64_t& { return c.engine.poll_ps; },
     "a waiting join's look at its task"},
    {"spin_ns", [](Costs& c) -> std::uint64_t& { return c.engine.spin_ps; },
     "the pause after a failed attempt in the spin tier"},
    {"yield_ns", [](Costs& c) -> std::uint64_t& { return c.engine.yield_ps; },
     "a sched_yield after a failed attempt in the yield tier"},
    {"wake_ns", [](Costs& c) -> std::uint64_t& { return c.engine.wake_ps; },
     "from a futex wake to the parked worker running"},
    {"nap_extra_ns", [](Costs& c) -> std::uint64_t& { return c.engine.nap_extra_ps; },
     "how much longer than asked a watchman's timed nap sleeps"},
    {"post_ns", [](Costs& c) -> std::uint64_t& { return c.engine.post_ps; },
     "request mechanism: a thief posts its request at the victim's port"},
    {"answer_ns", [](Costs& c) -> std::uint64_t& { return c.engine.answer_ps; },
     "request mechanism: the victim answers a request"},
    {"fence_claim_ns", [](Costs& c) -> std::uint64_t& { return c.engine.fence_claim_ps; },
     "a claim's barrier on a fenced stack: a fence rather than a membarrier"},
    {"fenced_join_ns", [](Costs& c) -> std::uint64_t& { return c.engine.fenced_join_ps; },
     "what a fenced stack adds to each inline join (the owner's fence, out of line)"},
    {"fib_leaf_ns", [](Costs& c) -> std::uint64_t& { return c.fib.leaf_ps; },
     "a fib call with n < 2"},
    {"fib_node_ns", [](Costs& c) -> std::uint64_t& { return c.fib.node_ps; },
     "a fib call with n >= 2, besides its spawn, calls and join"},
    {"uts_binomial_ns", [](Costs& c) -> std::uint64_t& { return c.uts.binomial_ps; },
     "a node of a binomial UTS tree: its SHA-1 and its draw of children"},
    {"uts_geo_linear_ns", [](Costs& c) -> std::uint64_t& { return c.uts.geo_linear_ps; },
     "a node of a geometric UTS tree of linear shape"},
    {"uts_geo_expdec_ns", [](Costs& c) -> std::uint64_t& { return c.uts.geo_expdec_ps; },
     "a node of a geometric UTS tree of exponential-decrease shape"},
    {"uts_geo_cyclic_ns", [](Costs& c) -> std::uint64_t& { return c.uts.geo_cyclic_ps; },
     "a node of a geometric UTS tree of cyclic shape"},
    {"uts_geo_fixed_ns", [](Costs& c) -> std::uint64_t& { return c.uts.geo_fixed_ps; },
     "a node of a geometric UTS tree of fixed shape, or of a balanced tree"},
    {"uts_hybrid_ns", [](Costs& c) -> std::uint64_t& { return c.uts.hybrid_ps; },
     "a node of a hybrid UTS tree"},
};

// ns as read, to the picosecond.
std::uint64_t to_ps(double ns) { return static_cast<std::uint64_t>(std::llround(ns * 1000.0)); }

constexpr double kMaxNs = 1e9;  // one second per action: anything above is a mistake

// The costs a version-1 file (made before the engine modelled fenced stacks) lacks.
bool added_in_version_2(std::string_view name) {
  return name == "fence_claim_ns" || name == "fenced_join_ns";
}

}  // namespace

std::span<const CostField> cost_fields() { return kFields; }

Costs uncalibrated_costs() {
  Costs c;
  c.engine = EngineCosts{.spawn_ps = 5'000,
                         .join_inline_ps = 5'000,
                         .join_stolen_ps = 100'000,
                         .attempt_ps = 150'000,
                         .claim_ps = 1'000'000,
                         .proxy_ps = 20'000,
                         .poll_ps = 100'000,
                         .spin_ps = 30'000,
                         .yield_ps = 1'000'000,
                         .wake_ps = 50'000'000,
                         .nap_extra_ps = 50'000'000,  // Linux's default timer slack
                         .post_ps = 50'000,
                         .answer_ps = 200'000,
                         .fence_claim_ps = 30'000,
                         .fenced_join_ps = 10'000};
  c.fib = FibCosts{.leaf_ps = 2'000, .node_ps = 3'000};
  c.uts = UtsCosts{.binomial_ps = 350'000,
                   .geo_linear_ps = 350'000,
                   .geo_expdec_ps = 350'000,
                   .geo_cyclic_ps = 350'000,
                   .geo_fixed_ps = 350'000,
                   .hybrid_ps = 350'000};
  return c;
}

Costs parse_costs(std::string_view text, const std::string& source) {
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw CostsError(source + ": not JSON (" + e.what() + ")");
  }
  if (!doc.is_object() || doc.value("format", "") != "weft-sim costs") {
    throw CostsError(source + ": not a costs file (\"format\" must be \"weft-sim costs\")");
  }
  if (!doc.contains("version") || (doc["version"] != 1 && doc["version"] != kCostsVersion)) {
    throw CostsError(source + ": \"version\" must be " + std::to_string(kCostsVersion) +
                     " (or 1, a file made before the fence costs)");
  }
  const bool version_1 = doc["version"] == 1;
  if (!doc.contains("costs") || !doc["costs"].is_object()) {
    throw CostsError(source + ": no \"costs\" object");
  }
  const nlohmann::json& costs = doc["costs"];
  for (const auto& [name, value] : costs.items()) {
    bool known = false;
    for (const CostField& f : kFields) {
      known = known || (f.name == name && !(version_1 && added_in_version_2(name)));
    }
    if (!known) throw CostsError(source + ": unknown cost \"" + name + "\"");
  }
  Costs c;
  c.fence_costs_known = !version_1;
  for (const CostField& f : kFields) {
    const std::string name(f.name);
    if (version_1 && added_in_version_2(name)) continue;  // left at 0, and known to be absent
    if (!costs.contains(name)) throw CostsError(source + ": cost \"" + name + "\" is missing");
    const nlohmann::json& entry = costs[name];
    if (!entry.is_object() || !entry.contains("median") || !entry["median"].is_number()) {
      throw CostsError(source + ": cost \"" + name + "\" needs a numeric \"median\"");
    }
    const double ns = entry["median"].get<double>();
    if (!std::isfinite(ns) || ns < 0 || ns > kMaxNs) {
      std::ostringstream m;
      m << source << ": cost \"" << name << "\" = " << ns << " is not in [0, " << kMaxNs << "] ns";
      throw CostsError(m.str());
    }
    f.get(c) = to_ps(ns);
  }
  return c;
}

Costs load_costs(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw CostsError(path + ": cannot be read");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_costs(text.str(), path);
}

void require_fence_costs(const Costs& costs, const std::string& source,
                         weft::StealMechanism mechanism, weft::Barrier barrier) {
  if (costs.fence_costs_known || mechanism != weft::StealMechanism::kConcurrent ||
      barrier == weft::Barrier::kMembarrier) {
    return;
  }
  throw CostsError(source +
                   ": a version-1 costs file, without fence_claim_ns and "
                   "fenced_join_ns, cannot simulate the concurrent mechanism under --barrier " +
                   std::string(weft::barrier_name(barrier)) +
                   " (its stacks fence); use --barrier membarrier, or calibrate again");
}

void scale_cost(Costs& costs, std::string_view spec) {
  const std::size_t eq = spec.find('=');
  const std::string name(spec.substr(0, eq));
  for (const CostField& f : kFields) {
    if (f.name != name) continue;
    if (eq == std::string_view::npos) break;
    const std::string factor_text(spec.substr(eq + 1));
    std::size_t used = 0;
    double factor = -1;
    try {
      factor = std::stod(factor_text, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != factor_text.size() || factor_text.empty() || !std::isfinite(factor) || factor < 0) {
      throw CostsError("--scale-cost " + std::string(spec) + ": the factor must be a number >= 0");
    }
    std::uint64_t& v = f.get(costs);
    v = static_cast<std::uint64_t>(std::llround(static_cast<double>(v) * factor));
    return;
  }
  std::string names;
  for (const CostField& f : kFields) names += (names.empty() ? "" : ", ") + std::string(f.name);
  throw CostsError("--scale-cost " + std::string(spec) + ": not NAME=FACTOR with NAME one of " +
                   names);
}

Costs command_costs(const std::string& path, const std::vector<std::string>& scales,
                    std::string& source) {
  Costs costs = path.empty() ? uncalibrated_costs() : load_costs(path);
  source = path.empty() ? "uncalibrated" : path;
  for (const std::string& spec : scales) {
    scale_cost(costs, spec);
    source += ", " + spec;
  }
  return costs;
}

}  // namespace sim
