// weft-sim's command line (tools/sim/cli/cli_args.hpp): the UTS workload as a preset, as the
// reference's tree flags, or as a preset with flags over it, and when a published size checks the
// run.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tools/sim/cli/cli_args.hpp"

namespace {

using sim::SimArgs;

// parse_args over "weft-sim run --workload <workload>"; returns its error ("" if none).
std::string parse_workload(const std::string& workload, SimArgs& args) {
  std::vector<std::string> words{"weft-sim", "run", "--workload", workload};
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  return sim::parse_args(static_cast<int>(argv.size()), argv.data(), args);
}

TEST(SimCli, PresetCarriesItsPublishedSize) {
  SimArgs args;
  ASSERT_EQ(parse_workload("uts:t3", args), "");
  EXPECT_EQ(args.workload.kind, sim::Workload::Kind::kUts);
  ASSERT_TRUE(args.workload.uts_nodes.has_value());
  EXPECT_EQ(*args.workload.uts_nodes, 4112897u);
}

TEST(SimCli, ReferenceFlagsOfAPresetFindItsSize) {
  SimArgs args;
  ASSERT_EQ(parse_workload("uts:-t 0 -b 2000 -q 0.124875 -m 8 -r 42", args), "");
  ASSERT_TRUE(args.workload.uts_nodes.has_value());
  EXPECT_EQ(*args.workload.uts_nodes, 4112897u);  // T3, spelled as the reference spells it
  EXPECT_EQ(args.workload.uts_params.m, 8);
}

TEST(SimCli, FlagsOverAPresetMakeAnotherTree) {
  SimArgs args;
  ASSERT_EQ(parse_workload("uts:T5  -r 35", args), "");
  EXPECT_EQ(args.workload.uts_params.seed, 35);
  EXPECT_EQ(args.workload.uts_params.gen_mx, 20);     // T5's, kept
  EXPECT_FALSE(args.workload.uts_nodes.has_value());  // no preset publishes it: counted
}

TEST(SimCli, BadTreesAreRefusedByName) {
  for (const char* bad : {"uts:", "uts:T9", "uts:-t 9", "uts:-t", "uts:-z 1", "uts:T3 -q x"}) {
    SimArgs args;
    const std::string error = parse_workload(bad, args);
    EXPECT_NE(error, "") << bad;
    EXPECT_NE(error.find("uts"), std::string::npos) << bad << ": " << error;
  }
}

}  // namespace
