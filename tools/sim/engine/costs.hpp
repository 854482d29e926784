// Every cost the simulator charges, by name, and the costs file that sets them.
//
// A costs file (what `weft-sim calibrate` writes) is JSON:
//   {"format": "weft-sim costs", "version": 2,
//    "costs": {"spawn_ns": {"median": 4.8, "spread": [4.6, 5.1], "method": "..."}, ...}}
// Every cost of cost_fields() must be there, as a finite median >= 0 in nanoseconds (kept to
// the picosecond); "spread" and "method" are for people and are not read. A missing, unknown
// or malformed entry is refused with a message that names it. A version-1 file, made before
// the engine modelled fenced stacks, has every cost but fence_claim_ns and fenced_join_ns;
// it is read with those unknown (Costs::fence_costs_known), and a run that would charge them
// is refused (require_fence_costs).
//
// `uncalibrated_costs()` are round figures of the right order for this machine kind, for
// tests and first runs only; a result made with them says so ("costs": "uncalibrated").
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "tools/sim/engine/engine.hpp"
#include "tools/sim/engine/fib_program.hpp"
#include "tools/sim/engine/uts_program.hpp"

namespace sim {

inline constexpr int kCostsVersion = 2;

struct Costs {
  EngineCosts engine;
  FibCosts fib;
  UtsCosts uts;
  bool fence_costs_known = true;  // false: a version-1 file (fence costs left at 0)
};

struct CostField {
  std::string_view name;  // as in the costs file and --scale-cost, e.g. "spawn_ns"
  std::uint64_t& (*get)(Costs&);
  std::string_view what;
};

// Every cost, in a fixed order.
std::span<const CostField> cost_fields();

Costs uncalibrated_costs();

class CostsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Reads a costs file; throws CostsError naming the file and the field at fault.
Costs load_costs(const std::string& path);
// Parses the same document from text (`source` names it in messages).
Costs parse_costs(std::string_view text, const std::string& source);
// Throws CostsError, naming `source` and what to do, when a run under `mechanism` and
// `barrier` would charge the fence costs and `costs` does not know them.
void require_fence_costs(const Costs& costs, const std::string& source,
                         weft::StealMechanism mechanism, weft::Barrier barrier);
// Applies "NAME=FACTOR" (FACTOR a finite number >= 0) to `costs`; throws CostsError.
void scale_cost(Costs& costs, std::string_view spec);
// A command's costs: the file's at `path` (the uncalibrated placeholders for ""), then each
// of `scales` applied in order. `source` says where they came from: "uncalibrated" or the
// path, then ", NAME=FACTOR" per scale. Throws CostsError.
Costs command_costs(const std::string& path, const std::vector<std::string>& scales,
                    std::string& source);

}  // namespace sim
