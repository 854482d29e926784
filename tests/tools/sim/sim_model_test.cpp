// weft-sim's theoretical models (tools/sim/model_*.hpp) against what their theorems predict:
// Mitzenmacher's equations (integrated, their fixed point, and the simulated s_i at
// n = 1024 within 0.01 of it), the bag bound W/m + 3.65 log2 W, the latency bound, the
// generator model's bounded load, reproducibility, and the inputs refused. Each check has a
// control beside it that the same check must reject, so that it can fail.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "test_support.hpp"
#include "tools/sim/cli/model_args.hpp"
#include "tools/sim/models/model_bag.hpp"
#include "tools/sim/models/model_generator.hpp"
#include "tools/sim/models/model_latency.hpp"
#include "tools/sim/models/model_mitzenmacher.hpp"

namespace {

using sim::BagConfig;
using sim::GeneratorConfig;
using sim::MitzenmacherConfig;
using weft::StealPolicy;

struct ThresholdCase {
  double lambda;
  unsigned threshold;
};
// Near λ = 1 the system relaxes slowly and a run of 2000 time units averages fewer
// independent stretches: λ = 0.95, T = 4 spreads to 0.015 over seeds, these to 0.005.
const std::vector<ThresholdCase> kThresholdCases{{0.9, 2}, {0.7, 3}, {0.8, 4}};

double level(const std::vector<double>& s, std::size_t i) { return i < s.size() ? s[i] : 0.0; }

double largest_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double largest = 0.0;
  for (std::size_t i = 1; i < std::max(a.size(), b.size()); ++i)
    largest = std::max(largest, std::abs(level(a, i) - level(b, i)));
  return largest;
}

TEST(MitzenmacherModel, FixedPointIsWhereTheEquationsSettle) {
  for (const ThresholdCase& c : kThresholdCases) {
    SCOPED_TRACE(testing::Message() << "lambda " << c.lambda << ", T " << c.threshold);
    const std::vector<double> fixed = sim::mitzenmacher_fixed_point(c.lambda, c.threshold);
    ASSERT_GE(fixed.size(), 3u);
    EXPECT_EQ(fixed[0], 1.0);
    // Completions balance arrivals: the busy fraction is λ.
    EXPECT_NEAR(fixed[1], c.lambda, 1e-12);
    // The boundary between 0 and 1 balances too, which the derivation did not impose.
    const double p1 = fixed[1] - fixed[2];
    EXPECT_NEAR(c.lambda * (1 - fixed[1]), p1 * (1 - fixed[c.threshold]), 1e-9);
    for (std::size_t i = 1; i < fixed.size(); ++i) EXPECT_LE(fixed[i], fixed[i - 1]);
    const std::vector<double> settled =
        sim::integrate_mitzenmacher_equations(c.lambda, c.threshold, 600, 150);
    EXPECT_LT(largest_difference(settled, fixed), 1e-6);
    // The control: without stealing each processor is an M/M/1 queue, s_i = λ^i; stealing
    // moves the fixed point further than the simulation's tolerance.
    std::vector<double> no_stealing{1.0};
    while (no_stealing.back() > 1e-12) no_stealing.push_back(no_stealing.back() * c.lambda);
    EXPECT_GT(largest_difference(no_stealing, fixed), 0.01);
  }
}

TEST(MitzenmacherModel, SimulatedTailMatchesTheFixedPointAt1024Processors) {
  for (const ThresholdCase& c : kThresholdCases) {
    SCOPED_TRACE(testing::Message() << "lambda " << c.lambda << ", T " << c.threshold);
    const sim::MitzenmacherResult r = sim::simulate_mitzenmacher(MitzenmacherConfig{
        .processors = 1024, .lambda = c.lambda, .threshold = c.threshold, .time = 2000, .seed = 7});
    const std::vector<double> fixed = sim::mitzenmacher_fixed_point(c.lambda, c.threshold);
    for (std::size_t i = 1; i < std::max(r.tail.size(), fixed.size()); ++i) {
      EXPECT_NEAR(level(r.tail, i), level(fixed, i), 0.01) << "s_" << i;
    }
    EXPECT_GT(r.steals, 0u);
    EXPECT_LE(r.steals, r.steal_attempts);
    // The control: a threshold one higher moves the fixed point by more than the tolerance,
    // so the comparison tells thresholds apart.
    EXPECT_GT(largest_difference(r.tail, sim::mitzenmacher_fixed_point(c.lambda, c.threshold + 1)),
              0.01);
  }
}

TEST(BagModel, MakespanWithinTheBound) {
  std::vector<std::uint64_t> task_counts{2, 100, 1000, 100000};
  if (!weft_test::kSanitized) task_counts.push_back(1000000);
  for (std::uint64_t tasks : task_counts) {
    for (unsigned workers : {1u, 2u, 16u, 256u, 4096u}) {
      for (std::uint64_t seed : {1u, 2u, 3u}) {
        SCOPED_TRACE(testing::Message() << "W " << tasks << ", m " << workers << ", seed " << seed);
        const sim::BagResult r =
            sim::simulate_bag(BagConfig{.tasks = tasks, .workers = workers, .seed = seed});
        EXPECT_LE(static_cast<double>(r.makespan), sim::bag_bound(tasks, workers));
        // No schedule beats W/m, nor the first steal's step on more than one processor.
        EXPECT_GE(r.makespan * workers, tasks);
        if (workers == 1) {
          EXPECT_EQ(r.makespan, tasks);
        }
      }
    }
  }
  // The control: stealing one task at a time from the one processor that starts with all
  // of them spreads the bag too slowly to meet the bound.
  const sim::BagResult one =
      sim::simulate_bag(BagConfig{.tasks = 10000, .workers = 256, .policy = StealPolicy::one()});
  EXPECT_GT(static_cast<double>(one.makespan), sim::bag_bound(10000, 256));
}

TEST(LatencyModel, ExcessStaysWithinTheConstant) {
  std::vector<std::uint64_t> task_counts{10000};
  if (!weft_test::kSanitized) task_counts.push_back(1000000);
  for (std::uint64_t tasks : task_counts) {
    for (unsigned workers : {16u, 256u}) {
      for (std::uint64_t latency : {1u, 10u, 100u, 1000u}) {
        SCOPED_TRACE(testing::Message()
                     << "W " << tasks << ", m " << workers << ", latency " << latency);
        const sim::BagResult r =
            sim::simulate_bag(BagConfig{.tasks = tasks, .workers = workers, .latency = latency});
        EXPECT_LE(static_cast<double>(r.makespan), sim::latency_bound(tasks, workers, latency));
        EXPECT_LE(sim::latency_excess_ratio(r.makespan, tasks, workers, latency),
                  sim::kLatencyConstant);
        // A steal takes λ steps, so the bag cannot spread before the first answer.
        EXPECT_GE(r.makespan, std::min<std::uint64_t>(tasks, latency));
      }
    }
  }
  // The control: the same run without the latency term in the bound is outside it.
  const sim::BagResult slow =
      sim::simulate_bag(BagConfig{.tasks = 10000, .workers = 256, .latency = 100});
  EXPECT_GT(static_cast<double>(slow.makespan), sim::bag_bound(10000, 256));
}

TEST(BagModel, LatencyOneIsTheClassicModelAndSeedsReproduce) {
  const BagConfig classic{.tasks = 5000, .workers = 64, .seed = 11};
  BagConfig with_latency = classic;
  with_latency.latency = 1;
  const sim::BagResult a = sim::simulate_bag(classic);
  const sim::BagResult b = sim::simulate_bag(with_latency);
  EXPECT_EQ(a.makespan, b.makespan);
  EXPECT_EQ(a.steal_requests, b.steal_requests);
  EXPECT_EQ(a.steals, b.steals);
  BagConfig other_seed = classic;
  other_seed.seed = 12;
  EXPECT_NE(sim::simulate_bag(other_seed).steal_requests, a.steal_requests);

  const MitzenmacherConfig m{.processors = 64, .time = 100, .seed = 3};
  EXPECT_EQ(sim::simulate_mitzenmacher(m).tail, sim::simulate_mitzenmacher(m).tail);
  const GeneratorConfig g{.processors = 64, .steps = 500, .seed = 3};
  EXPECT_EQ(sim::simulate_generator(g).max_load_second_half,
            sim::simulate_generator(g).max_load_second_half);
}

TEST(GeneratorModel, LoadStaysBoundedBelowRateOne) {
  const std::uint64_t steps = weft_test::kSanitized ? 2000 : 10000;
  for (double lambda : {0.5, 0.9}) {
    SCOPED_TRACE(testing::Message() << "lambda " << lambda);
    const sim::GeneratorResult r = sim::simulate_generator(
        GeneratorConfig{.processors = 1024, .lambda = lambda, .steps = steps});
    EXPECT_TRUE(sim::load_stays_bounded(r, 1024))
        << r.max_load_first_half << " then " << r.max_load_second_half;
    EXPECT_EQ(r.generated, r.served + r.final_load);
    // Bounded in absolute terms too: well under what a run without service would pile up.
    EXPECT_LT(r.mean_load_second_half, 0.1 * static_cast<double>(r.generated));
  }
  // The control: stealing one task at a time cannot drain the generators' processor, whose
  // load grows by about λn - 2 a step, so the check must see the growth.
  const sim::GeneratorResult one = sim::simulate_generator(GeneratorConfig{
      .processors = 1024, .lambda = 0.9, .steps = 1000, .policy = StealPolicy::one()});
  EXPECT_FALSE(sim::load_stays_bounded(one, 1024));
}

std::string parse(std::vector<std::string> words, sim::ModelArgs& args) {
  words.insert(words.begin(), {"weft-sim", "model"});
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  return sim::parse_model_args(static_cast<int>(argv.size()), argv.data(), args);
}

TEST(ModelArgs, BadInputsAreRefusedNamingTheFlag) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> bad{
      {{}, "--mode"},
      {{"--mode", "queue"}, "--mode"},
      {{"--mode", "bag", "--tasks", "-5"}, "--tasks"},
      {{"--mode", "bag", "--tasks", "1"}, "--tasks"},
      {{"--mode", "bag", "--tasks", "ten"}, "--tasks"},
      {{"--mode", "bag", "--workers", "0"}, "--workers"},
      {{"--mode", "bag", "--workers", "4097"}, "--workers"},
      {{"--mode", "bag", "--workers", "16,"}, "--workers"},
      {{"--mode", "bag", "--lambda", "0.5"}, "--lambda"},
      {{"--mode", "bag", "--steal", "most"}, "--steal"},
      {{"--mode", "bag", "--seed", "-1"}, "--seed"},
      {{"--mode", "bag", "--tasks"}, "--tasks"},
      {{"--mode", "bag", "--tasks", "--workers", "4"}, "--tasks"},
      {{"--mode", "latency", "--latency", "0"}, "--latency"},
      {{"--mode", "latency", "--tasks", "100", "--latency", "51"}, "--latency"},
      {{"--mode", "mitzenmacher", "--lambda", "1"}, "--lambda"},
      {{"--mode", "mitzenmacher", "--lambda", "0"}, "--lambda"},
      {{"--mode", "mitzenmacher", "--lambda", "nan"}, "--lambda"},
      {{"--mode", "mitzenmacher", "--threshold", "1"}, "--threshold"},
      {{"--mode", "mitzenmacher", "--steal", "half"}, "--steal"},
      {{"--mode", "mitzenmacher", "--workers", "1"}, "--workers"},
      {{"--mode", "mitzenmacher", "--time", "0"}, "--time"},
      {{"--mode", "generator", "--lambda", "1.5"}, "--lambda"},
      {{"--mode", "generator", "--time", "100.5"}, "--time"},
      {{"--mode", "generator", "--workers", "8,16"}, "--workers"},
      {{"--mode", "generator", "--latency", "3"}, "--latency"},
  };
  for (const auto& [words, flag] : bad) {
    sim::ModelArgs args;
    const std::string error = parse(words, args);
    EXPECT_NE(error.find(flag), std::string::npos)
        << testing::PrintToString(words) << ": '" << error << "'";
  }
  sim::ModelArgs args;
  EXPECT_EQ(
      parse({"--json", "-", "--lambda", "0.8", "--mode", "generator", "--workers", "64"}, args),
      "");
  EXPECT_EQ(args.mode, sim::ModelArgs::Mode::kGenerator);
  EXPECT_EQ(args.lambda, 0.8);
  EXPECT_EQ(args.workers, std::vector<unsigned>{64});
  EXPECT_EQ(args.json_path, "-");
  EXPECT_EQ(args.policy.spec(), "half");
}

TEST(ModelArgs, TheTableWordsFlagErrorsAndHelpStopsTheParse) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> bad{
      {{"--mode", "bag", "--tasks"}, "--tasks: missing value"},
      // A value never starts with "--": the flag before it lacks its value.
      {{"--mode", "bag", "--tasks", "--workers", "4"}, "--tasks: missing value"},
      {{"--mode", "--tasks", "4"}, "--mode: missing value"},
      {{"--mode", "generator", "--foo", "3"}, "--foo: unknown option (see --help)"},
      {{"--mode", "bag", "stray"}, "stray: unexpected argument"},
      {{"--mode", "generator", "--latency", "3"},
       "'--latency' is not an option of --mode generator"},
      {{"--mode", "bag", "--tasks", "1"},
       "--tasks 1: expected a whole number from 2 to 100000000, got \"1\""},
      {{"--mode", "mitzenmacher", "--workers", "1"},
       "--workers 1: expected a whole number from 2 to 4096, got \"1\""},
      {{"--mode", "generator", "--workers", "8,16"}, "--workers: this mode takes one count"},
      {{"--mode", "mitzenmacher", "--lambda", "1"},
       "--lambda: '1' is not a rate in (0, 1) (the model is stable only below 1)"},
      {{"--mode", "mitzenmacher", "--time", "0"}, "--time: '0' is not a time in (0, 100000]"},
  };
  for (const auto& [words, error] : bad) {
    sim::ModelArgs args;
    EXPECT_EQ(parse(words, args), error) << testing::PrintToString(words);
  }
  for (const char* help : {"--help", "-h"}) {
    sim::ModelArgs args;
    EXPECT_EQ(parse({"--tasks", "0", help, "--bad"}, args), "") << help;
    EXPECT_TRUE(args.help) << help;
  }
  const std::string usage = sim::model_usage();
  for (const char* flag :
       {"--mode MODE", "--tasks W,...", "--workers M,...", "--latency L,...", "--steal POLICY",
        "--lambda RATE", "--threshold T", "--time T", "--seed N", "--json FILE|-"}) {
    EXPECT_NE(usage.find(std::string("\n  ") + flag), std::string::npos) << flag;
  }
}

TEST(ModelConfigs, OutOfRangeAreRefused) {
  EXPECT_THROW(sim::simulate_bag(BagConfig{.tasks = 0}), std::invalid_argument);
  EXPECT_THROW(sim::simulate_bag(BagConfig{.workers = 0}), std::invalid_argument);
  EXPECT_THROW(sim::simulate_bag(BagConfig{.latency = 0}), std::invalid_argument);
  EXPECT_THROW(sim::simulate_mitzenmacher(MitzenmacherConfig{.lambda = 1.0}),
               std::invalid_argument);
  EXPECT_THROW(sim::simulate_mitzenmacher(MitzenmacherConfig{.threshold = 1}),
               std::invalid_argument);
  EXPECT_THROW(sim::simulate_mitzenmacher(MitzenmacherConfig{.processors = 1}),
               std::invalid_argument);
  EXPECT_THROW(sim::mitzenmacher_fixed_point(1.0, 2), std::invalid_argument);
  EXPECT_THROW(sim::simulate_generator(GeneratorConfig{.lambda = 1.0}), std::invalid_argument);
  EXPECT_THROW(sim::simulate_generator(GeneratorConfig{.steps = 1}), std::invalid_argument);
}

}  // namespace
