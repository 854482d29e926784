// The simulator's costs file (tools/sim/engine/costs.hpp): a whole file read to the picosecond,
// each defect refused with a message naming its field, and --scale-cost.
#include <gtest/gtest.h>

#include <string>

#include "tools/sim/engine/costs.hpp"

namespace {

using sim::Costs;
using sim::CostsError;

// A valid file whose every median is 1.5 ns, except `override` spliced in at the end.
std::string costs_file(const std::string& extra = "", const std::string& skip = "",
                       int version = sim::kCostsVersion) {
  std::string text =
      R"({"format": "weft-sim costs", "version": )" + std::to_string(version) + R"(, "costs": {)";
  bool first = true;
  for (const sim::CostField& f : sim::cost_fields()) {
    if (f.name == skip) continue;
    if (version == 1 && (f.name == "fence_claim_ns" || f.name == "fenced_join_ns")) continue;
    text += (first ? "" : ", ") + std::string("\"") + std::string(f.name) +
            R"(": {"median": 1.5, "spread": [1.4, 1.6], "method": "test"})";
    first = false;
  }
  return text + extra + "}}";
}

std::string error_of(const std::string& text) {
  try {
    (void)sim::parse_costs(text, "costs.json");
  } catch (const CostsError& e) {
    return e.what();
  }
  return "";
}

TEST(SimCosts, AWholeFileSetsEveryCostToThePicosecond) {
  Costs c = sim::parse_costs(costs_file(), "costs.json");
  for (const sim::CostField& f : sim::cost_fields()) {
    EXPECT_EQ(f.get(c), 1500u) << f.name;
  }
}

TEST(SimCosts, EachDefectIsNamed) {
  EXPECT_NE(error_of("{").find("not JSON"), std::string::npos);
  EXPECT_NE(error_of(R"({"format": "other"})").find("not a costs file"), std::string::npos);
  EXPECT_NE(error_of(R"({"format": "weft-sim costs", "version": 3, "costs": {}})").find("version"),
            std::string::npos);
  EXPECT_NE(error_of(costs_file("", "claim_ns")).find("\"claim_ns\" is missing"),
            std::string::npos);
  EXPECT_NE(error_of(costs_file(R"(, "clam_ns": {"median": 1})")).find("unknown cost \"clam_ns\""),
            std::string::npos);
  EXPECT_NE(error_of(costs_file(R"(, "poll_ns": {"median": -1})", "poll_ns"))
                .find("\"poll_ns\" = -1 is not in"),
            std::string::npos);
  EXPECT_NE(error_of(costs_file(R"(, "poll_ns": {"median": "fast"})", "poll_ns"))
                .find("\"poll_ns\" needs a numeric \"median\""),
            std::string::npos);
}

// A file from before the fence costs is read without them, and refused only where a run would
// charge them: the concurrent mechanism under a barrier other than membarrier.
TEST(SimCosts, AVersionOneFileHasNoFenceCostsAndSaysWhereThatMatters) {
  const Costs c = sim::parse_costs(costs_file("", "", 1), "old.json");
  EXPECT_FALSE(c.fence_costs_known);
  EXPECT_EQ(c.engine.claim_ps, 1500u);
  EXPECT_EQ(c.engine.fence_claim_ps, 0u);
  EXPECT_TRUE(sim::parse_costs(costs_file(), "new.json").fence_costs_known);
  using weft::Barrier;
  using weft::StealMechanism;
  EXPECT_NO_THROW(
      sim::require_fence_costs(c, "old.json", StealMechanism::kConcurrent, Barrier::kMembarrier));
  EXPECT_NO_THROW(
      sim::require_fence_costs(c, "old.json", StealMechanism::kRequest, Barrier::kAuto));
  for (Barrier b : {Barrier::kAuto, Barrier::kFence}) {
    try {
      sim::require_fence_costs(c, "old.json", StealMechanism::kConcurrent, b);
      ADD_FAILURE() << weft::barrier_name(b);
    } catch (const CostsError& e) {
      EXPECT_NE(std::string(e.what()).find("old.json"), std::string::npos);
      EXPECT_NE(std::string(e.what()).find("--barrier membarrier"), std::string::npos);
    }
  }
  // A version-1 file that names a fence cost is not one.
  EXPECT_NE(error_of(costs_file(R"(, "fence_claim_ns": {"median": 1})", "", 1))
                .find("unknown cost \"fence_claim_ns\""),
            std::string::npos);
}

TEST(SimCosts, ScaleCostMultipliesOneCost) {
  Costs c = sim::uncalibrated_costs();
  const std::uint64_t claim = c.engine.claim_ps, spawn = c.engine.spawn_ps;
  sim::scale_cost(c, "claim_ns=2.5");
  EXPECT_EQ(c.engine.claim_ps, claim * 5 / 2);
  EXPECT_EQ(c.engine.spawn_ps, spawn);
  EXPECT_THROW(sim::scale_cost(c, "claim_ns=-1"), CostsError);
  EXPECT_THROW(sim::scale_cost(c, "claim_ns=2x"), CostsError);
  EXPECT_THROW(sim::scale_cost(c, "claim_ns"), CostsError);
  EXPECT_THROW(sim::scale_cost(c, "clam_ns=2"), CostsError);
}

TEST(SimCosts, AMissingFileIsNamed) {
  try {
    (void)sim::load_costs("/nonexistent/costs.json");
    FAIL();
  } catch (const CostsError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/costs.json"), std::string::npos);
  }
}

}  // namespace
