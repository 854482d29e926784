// weft-sim's command line (tools/sim/cli/cli_args.hpp): the UTS workload as a preset, as the
// reference's tree flags, or as a preset with flags over it, and when a published size checks the
// run; run's and calibrate's flag tables, their errors and the option lists of --help.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "tools/sim/cli/cli_args.hpp"

namespace {

using sim::SimArgs;

// parse_args over "weft-sim <words>"; returns its error ("" if none).
std::string parse(std::vector<std::string> words, SimArgs& args) {
  words.insert(words.begin(), "weft-sim");
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  return sim::parse_args(static_cast<int>(argv.size()), argv.data(), args);
}

// The words of `line`, split at its spaces.
std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> words;
  std::istringstream in(line);
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

// parse_args over "weft-sim run --workload <workload>"; returns its error ("" if none).
std::string parse_workload(const std::string& workload, SimArgs& args) {
  return parse({"run", "--workload", workload}, args);
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

TEST(SimCli, RunTakesEveryFlag) {
  SimArgs args;
  ASSERT_EQ(parse(split("run --workload fib:12 --workers 1,3 --steal one,half --mechanism "
                        "concurrent,request --barrier fence --seed 7 --costs c.json --scale-cost "
                        "claim_ns=2 --scale-cost spawn_ns=3 --json -"),
                  args),
            "");
  EXPECT_EQ(args.command, SimArgs::Command::kRun);
  EXPECT_EQ(args.workload.fib_n, 12);
  EXPECT_EQ(args.workers, (std::vector<unsigned>{1, 3}));
  ASSERT_EQ(args.policies.size(), 2u);
  EXPECT_EQ(args.policies[1].spec(), "half");
  EXPECT_EQ(args.mechanisms.size(), 2u);
  EXPECT_EQ(args.barrier, weft::Barrier::kFence);
  EXPECT_EQ(args.seed, 7u);
  EXPECT_EQ(args.costs_path, "c.json");
  EXPECT_EQ(args.scale_costs, (std::vector<std::string>{"claim_ns=2", "spawn_ns=3"}));
  EXPECT_EQ(args.json_path, "-");
  SimArgs calibrate;
  ASSERT_EQ(parse({"calibrate", "--repeat", "3", "--json", "costs.json"}, calibrate), "");
  EXPECT_EQ(calibrate.command, SimArgs::Command::kCalibrate);
  EXPECT_EQ(calibrate.repeat, 3);
  EXPECT_EQ(calibrate.json_path, "costs.json");
}

TEST(SimCli, BadArgumentsAreWordedByTheTable) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> bad{
      {{}, "no command"},
      {{"walk"}, "unknown command 'walk' (run, calibrate, record, paper, model, validate)"},
      {{"run", "--repeat", "3"}, "--repeat: unknown option (see --help)"},
      {{"run", "--json"}, "--json: missing value"},
      {{"run", "stray"}, "stray: unexpected argument"},
      {{"calibrate", "--workers", "2"}, "--workers: unknown option (see --help)"},
      {{"run", "--workers", "0"}, "--workers 0: expected a whole number from 1 to 4096, got \"0\""},
      {{"run", "--workers", "1,"}, "--workers: empty item in list \"1,\""},
      {{"run", "--seed", "x"}, "--seed x: expected a whole number from 0 to 18446744073709551615"},
      {{"run", "--workload", "fib:51"},
       "--workload fib:51: expected a whole number from 0 to 50, got \"51\""},
      {{"run", "--workload", "dag:"}, "--workload dag:FILE: needs a file"},
      {{"run", "--workload", "heap:3"},
       "--workload: 'heap:3' is not fib:N, uts:PRESET, uts:\"FLAGS\" or dag:FILE"},
      {{"run", "--barrier", "sometimes"},
       "--barrier=\"sometimes\": unknown barrier mode (allowed: auto, membarrier, fence)"},
      {{"calibrate", "--repeat", "0"},
       "--repeat 0: expected a whole number from 1 to 1000, got \"0\""},
  };
  for (const auto& [words, error] : bad) {
    SimArgs args;
    EXPECT_EQ(parse(words, args), error) << testing::PrintToString(words);
  }
}

TEST(SimCli, HelpListsEveryFlag) {
  // --help and -h stop the parse: what follows them is not looked at.
  for (const char* help : {"--help", "-h"}) {
    for (const char* command : {"run", "calibrate"}) {
      SimArgs args;
      ASSERT_EQ(parse({command, help, "--bad"}, args), "") << command << " " << help;
      EXPECT_TRUE(args.help) << command << " " << help;
    }
  }
  const std::string usage = sim::usage();
  for (const char* flag : {"--workload SPEC", "--workers P,...", "--steal POLICY,...",
                           "--mechanism M,...", "--barrier B", "--seed N", "--costs FILE",
                           "--scale-cost NAME=FACTOR", "--json FILE|-", "--repeat R"}) {
    EXPECT_NE(usage.find(std::string("\n  ") + flag), std::string::npos) << flag;
  }
}

}  // namespace
