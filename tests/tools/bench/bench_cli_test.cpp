// weft-bench's library (tools/bench/cli): the argument parser's accepted and rejected command
// lines, the UTS cutoff traversal's exact counts, and a small sweep end to end with its
// table and JSON.
#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bench_args_support.hpp"
#include "tools/bench/cli/args.hpp"
#include "tools/bench/cli/report.hpp"
#include "tools/bench/cli/sweep.hpp"
#include "tools/bench/cli/trace_json.hpp"
#include "tools/bench/stats/paired.hpp"
#include "workloads/uts/uts_seq.hpp"
#include "workloads/uts/uts_weft.hpp"

namespace {

using bench_cli::Command;
using bench_cli::Cutoff;
using bench_cli::Impl;
using bench_cli::Options;
using bench_cli::UsageError;

using bench_test::error_of;
using bench_test::parse;
using bench_test::ScopedEnv;

// A binomial tree of 30,057 nodes: big enough to be stolen from, small enough for sanitizers.
const std::vector<std::string_view> kSmallTree = {"uts",  "-t", "0", "-b", "2000", "-q",
                                                  "0.12", "-m", "8", "-r", "2"};
const uts::Counts kSmallCounts{30057, 26549, 59};

Options small_tree_options(std::initializer_list<std::string_view> extra) {
  std::vector<std::string_view> args = kSmallTree;
  args.insert(args.end(), extra);
  return bench_cli::parse_args(args);
}

TEST(BenchCliArgs, UtsDefaults) {
  const ScopedEnv env{{"WEFT_STEAL", nullptr}};
  const Options o = parse({"uts"});
  EXPECT_EQ(o.command, Command::kUts);
  EXPECT_EQ(o.tree_name, "T3");
  ASSERT_NE(o.preset, nullptr);
  EXPECT_EQ(o.preset->nodes, 4112897u);
  EXPECT_EQ(o.impls, (std::vector<Impl>{Impl::kSeq, Impl::kWeft, Impl::kThreads}));
  EXPECT_EQ(o.steal, std::vector<std::string>{"adaptive"});  // what Config{} steals with
  EXPECT_EQ(o.workers, (std::vector<unsigned>{1, 2}));
  EXPECT_EQ(o.chunk, 64u);
  EXPECT_EQ(o.repeat, 5);
  EXPECT_EQ(o.cutoff.kind, Cutoff::Kind::kNone);
  EXPECT_EQ(o.json, "");
}

// uts, fib and compare run what a user who sets nothing would get: WEFT_STEAL's policy, else
// the runtime's default; --steal overrides both.
TEST(BenchCliArgs, UtsAndFibStealAsTheRuntimeWouldWithoutSteal) {
  {
    const ScopedEnv env{{"WEFT_STEAL", "fixed:20"}};
    EXPECT_EQ(parse({"uts"}).steal, std::vector<std::string>{"fixed:20"});
    EXPECT_EQ(parse({"fib", "30"}).steal, std::vector<std::string>{"fixed:20"});
    EXPECT_EQ(parse({"fib", "30", "--steal", "half"}).steal, std::vector<std::string>{"half"});
    EXPECT_EQ(parse({"compare"}).steal, std::vector<std::string>{"fixed:20"});
  }
  for (const char* unset : {static_cast<const char*>(nullptr), ""}) {  // empty is unset
    const ScopedEnv env{{"WEFT_STEAL", unset}};
    EXPECT_EQ(parse({"fib", "30"}).steal, std::vector<std::string>{"adaptive"});
  }
  const ScopedEnv env{{"WEFT_STEAL", "most"}};
  try {
    (void)parse({"uts"});
    ADD_FAILURE() << "a bad WEFT_STEAL was accepted";
  } catch (const weft::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("WEFT_STEAL"), std::string::npos) << e.what();
  }
  EXPECT_EQ(parse({"uts", "--steal", "one"}).steal, std::vector<std::string>{"one"});
}

TEST(BenchCliArgs, UtsEverySetting) {
  const Options o = parse({"uts", "--tree", "t1", "--impl", "threads,weft", "--steal",
                           "one,fixed:20,half", "--workers", "1,2,4", "--chunk", "8", "--repeat",
                           "7", "--json", "out.json", "--cutoff", "level:5"});
  EXPECT_EQ(o.tree_name, "T1");
  ASSERT_NE(o.preset, nullptr);
  EXPECT_EQ(o.tree.type, uts::TreeType::kGeometric);
  EXPECT_EQ(o.impls, (std::vector<Impl>{Impl::kSeq, Impl::kThreads, Impl::kWeft}));
  EXPECT_EQ(o.steal, (std::vector<std::string>{"one", "fixed:20", "half"}));
  // Parsed once, in the same order: what the runs' Configs get (weft_run_config).
  ASSERT_EQ(o.steal_policies.size(), 3u);
  EXPECT_EQ(o.steal_policies[0].spec(), "one");
  EXPECT_EQ(o.steal_policies[1].spec(), "fixed:20");
  EXPECT_EQ(o.steal_policies[2].spec(), "half");
  EXPECT_EQ(o.workers, (std::vector<unsigned>{1, 2, 4}));
  EXPECT_EQ(o.chunk, 8u);
  EXPECT_EQ(o.repeat, 7);
  EXPECT_EQ(o.json, "out.json");
  EXPECT_EQ(o.cutoff.kind, Cutoff::Kind::kLevel);
  EXPECT_EQ(o.cutoff.value, 5);
  EXPECT_EQ(parse({"uts", "--cutoff", "tasks:16"}).cutoff.spec(), "tasks:16");
  EXPECT_EQ(parse({"uts", "--cutoff", "none"}).cutoff.spec(), "none");
  EXPECT_EQ(parse({"uts", "--impl", "seq"}).impls, std::vector<Impl>{Impl::kSeq});
}

TEST(BenchCliArgs, CustomTreeFlags) {
  const Options o =
      parse({"uts", "-t", "0", "-b", "2000", "-q", "0.124875", "-m", "8", "-r", "42"});
  EXPECT_EQ(o.tree_name, "custom");
  EXPECT_EQ(o.preset, nullptr);  // same shape as T3, but counts are only checked for presets
  EXPECT_EQ(o.tree.type, uts::TreeType::kBinomial);
  EXPECT_EQ(o.tree.b0, 2000.0);
  EXPECT_EQ(o.tree.q, 0.124875);
  EXPECT_EQ(o.tree.m, 8);
  EXPECT_EQ(o.tree.seed, 42);
  // Flags apply over a preset wherever --tree appears.
  const Options over = parse({"uts", "-r", "7", "--tree", "T3"});
  EXPECT_EQ(over.tree.seed, 7);
  EXPECT_EQ(over.tree.m, 8);
  EXPECT_EQ(over.tree_name, "custom");
}

TEST(BenchCliArgs, Fib) {
  const Options o = parse(
      {"fib", "40", "--steal", "half", "--workers", "2", "--repeat", "3", "--json", "f.json"});
  EXPECT_EQ(o.command, Command::kFib);
  EXPECT_EQ(o.fib_n, 40);
  EXPECT_EQ(o.steal, std::vector<std::string>{"half"});
  EXPECT_EQ(o.workers, std::vector<unsigned>{2});
  EXPECT_EQ(o.repeat, 3);
  EXPECT_EQ(o.json, "f.json");
  EXPECT_EQ(parse({"fib", "--repeat", "2", "30"}).fib_n, 30);
}

// How repetitions become claims: --seed, --until-decided (its first look at --repeat, 10 by
// default, at least 5), --budget (only with it) and --resamples (at least 2000).
TEST(BenchCliArgs, SeedUntilDecidedBudgetAndResamples) {
  const Options o = parse({"fib", "20", "--seed", "18446744073709551615", "--resamples", "5000"});
  EXPECT_EQ(o.seed, 18446744073709551615ULL);
  EXPECT_EQ(o.resamples, 5000);
  EXPECT_FALSE(o.until_decided);
  const Options u = parse({"uts", "--until-decided", "--budget", "90"});
  EXPECT_TRUE(u.until_decided);
  EXPECT_EQ(u.repeat, 10);
  EXPECT_DOUBLE_EQ(u.budget_s, 90.0);
  EXPECT_EQ(parse({"compare", "--until-decided", "--repeat", "7"}).repeat, 7);
  EXPECT_EQ(parse({"compare", "--until-decided"}).budget_s, 600.0);
  EXPECT_EQ(error_of({"fib", "20", "--until-decided", "--repeat", "4"}),
            "--repeat 4: with --until-decided it is the first look's repetitions: at least 5");
  EXPECT_EQ(error_of({"fib", "20", "--budget", "60"}),
            "--budget: applies only with --until-decided");
  EXPECT_EQ(error_of({"fib", "20", "--resamples", "1999"}),
            "--resamples 1999: expected a whole number from 2000 to 10000000, got \"1999\"");
  EXPECT_EQ(error_of({"fib", "20", "--seed", "-1"}),
            "--seed -1: expected a whole number from 0 to 18446744073709551615");
  EXPECT_EQ(error_of({"threads", "--until-decided"}),
            "--until-decided: unknown option (see --help)");
  // Without --seed, one is drawn, so two sittings differ in their order.
  EXPECT_NE(parse({"fib", "20"}).seed, parse({"fib", "20"}).seed);
}

TEST(BenchCliArgs, ProfileAndTrace) {
  const Options o = parse({"fib", "20", "--profile", "--trace", "t.json"});
  EXPECT_TRUE(o.profile);
  EXPECT_EQ(o.trace, "t.json");
  EXPECT_EQ(o.fib_n, 20);
  const Options u = parse({"uts", "--trace", "u.json", "--tree", "T1", "--profile"});
  EXPECT_TRUE(u.profile);
  EXPECT_EQ(u.trace, "u.json");
  EXPECT_FALSE(parse({"fib", "20"}).profile);
  EXPECT_EQ(error_of({"fib", "20", "--trace"}), "--trace: missing value");
  EXPECT_EQ(error_of({"fib", "20", "--trace", ""}), "--trace: empty file name");
  EXPECT_EQ(error_of({"uts", "--profile", "yes"}), "yes: unexpected argument");
}

TEST(BenchCliArgs, JsonAndTraceMustNameDifferentFiles) {
  EXPECT_EQ(error_of({"fib", "20", "--json", "out.json", "--trace", "out.json"}),
            "--json out.json and --trace out.json: the same file (each needs its own)");
  EXPECT_EQ(error_of({"uts", "--trace", "./run/../out.json", "--json", "out.json"}),
            "--json out.json and --trace ./run/../out.json: the same file (each needs its own)");
  const Options o = parse({"fib", "20", "--json", "out.json", "--trace", "trace.json"});
  EXPECT_EQ(o.json, "out.json");
  EXPECT_EQ(o.trace, "trace.json");
}

TEST(BenchCliArgs, Help) {
  EXPECT_EQ(parse({"--help"}).command, Command::kHelp);
  EXPECT_EQ(parse({"uts", "--help"}).command, Command::kHelp);
  EXPECT_EQ(parse({"fib", "-h"}).command, Command::kHelp);
  EXPECT_NE(bench_cli::usage().find("weft-bench uts"), std::string::npos);
}

TEST(BenchCliArgs, ErrorsNameTheArgumentOnOneLine) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {error_of({}), "subcommand: missing (expected uts, fib, compare or threads; see --help)"},
      {error_of({"bench"}), "bench: unknown subcommand (expected uts, fib, compare or threads)"},
      {error_of({"uts", "--bogus", "1"}), "--bogus: unknown option (see --help)"},
      {error_of({"fib", "30", "--tree", "T3"}), "--tree: unknown option (see --help)"},
      {error_of({"uts", "-z", "1"}), "-z: unknown option (see --help)"},
      {error_of({"uts", "--repeat"}), "--repeat: missing value"},
      {error_of({"uts", "--tree", "T9"}),
       "--tree T9: unknown tree preset (known: T1, T2, T3, T4, T5, T1L, T2L, T3L, A, B)"},
      {error_of({"uts", "-q", "1.5"}),
       "-q 1.5: UTS tree parameter -q (probability of a non-leaf node) = 1.5: expected a "
       "probability in [0, 1]"},
      {error_of({"uts", "-q", "-0.1"}),
       "-q -0.1: UTS tree parameter -q (probability of a non-leaf node) = -0.1: expected a "
       "probability in [0, 1]"},
      {error_of({"uts", "-m", "-1"}),
       "-m -1: UTS tree parameter -m (children of a non-leaf node) = -1: expected an integer "
       ">= 0"},
      {error_of({"uts", "--steal", "one,fixed:0"}),
       "--steal fixed:0: --steal=\"fixed:0\": the length must be from 1 to 1048576 (allowed: " +
           weft::StealPolicy::allowed_specs() + ")"},
      {error_of({"uts", "--mechanism", "concurrent,bogus"}),
       "--mechanism bogus: --mechanism=\"bogus\": unknown steal mechanism (allowed: concurrent, "
       "request)"},
      {error_of({"fib", "30", "--mechanism", "request,"}),
       "--mechanism: empty item in list \"request,\""},
      {error_of({"fib", "30", "--mechanism"}), "--mechanism: missing value"},
      {error_of({"uts", "--workers", "1,0"}),
       "--workers 0: expected a whole number from 1 to 4096, got \"0\""},
      {error_of({"fib", "30", "--workers", "two"}),
       "--workers two: expected a whole number from 1 to 4096, got \"two\""},
      {error_of({"uts", "--workers", "1,,2"}), "--workers: empty item in list \"1,,2\""},
      {error_of({"uts", "--repeat", "0"}),
       "--repeat 0: expected a whole number from 1 to 100000, got \"0\""},
      {error_of({"uts", "--cutoff", "depth:3"}),
       "--cutoff depth:3: expected none, level:L or tasks:K"},
      {error_of({"uts", "--cutoff", "tasks:0"}),
       "--cutoff tasks:0: expected a whole number from 1 to 1073741824, got \"0\""},
      {error_of({"uts", "--cutoff", "level:"}),
       "--cutoff level:: expected a whole number from 0 to 2147483647, got \"\""},
      {error_of({"uts", "--impl", "omp"}),
       "--impl omp: unknown implementation (known: seq, weft, threads)"},
      {error_of({"uts", "--chunk", "0"}),
       "--chunk 0: expected a whole number from 1 to 1073741824, got \"0\""},
      {error_of({"fib"}), "fib: missing N (e.g. fib 35)"},
      {error_of({"fib", "x"}), "fib N: expected a whole number from 1 to 50, got \"x\""},
      // compare's loop settings only
      {error_of({"uts", "--loops", "pcb"}), "--loops: unknown option (see --help)"},
      {error_of({"fib", "30", "--frames", "pool"}), "--frames: unknown option (see --help)"},
      {error_of({"uts", "--adaptive", "0"}), "--adaptive: unknown option (see --help)"},
  };
  for (const auto& [got, want] : cases) {
    EXPECT_EQ(got, want);
    EXPECT_EQ(got.find('\n'), std::string::npos) << got;
  }
}

TEST(BenchCliArgs, Mechanism) {
  using weft::StealMechanism;
  const std::vector<StealMechanism> concurrent{StealMechanism::kConcurrent};
  EXPECT_EQ(parse({"uts"}).mechanisms, concurrent);
  EXPECT_EQ(parse({"fib", "20"}).mechanisms, concurrent);
  EXPECT_EQ(parse({"fib", "20", "--mechanism", "request"}).mechanisms,
            std::vector<StealMechanism>{StealMechanism::kRequest});
  // Each name once, in the order given.
  EXPECT_EQ(parse({"uts", "--mechanism", "request,concurrent,request"}).mechanisms,
            (std::vector<StealMechanism>{StealMechanism::kRequest, StealMechanism::kConcurrent}));
  // The message names the option, the value and the allowed names.
  const std::string bogus = error_of({"fib", "20", "--mechanism", "bogus"});
  EXPECT_EQ(bogus.rfind("--mechanism bogus: ", 0), 0u) << bogus;
  EXPECT_NE(bogus.find("concurrent, request"), std::string::npos) << bogus;
  const std::string help = bench_cli::usage();
  EXPECT_NE(help.find("[--mechanism concurrent,request]"), std::string::npos);
  EXPECT_NE(help.find("\"mechanism\":null"), std::string::npos);
}

// A weft run's Config takes the loop settings given (compare's --loops, --frames,
// --adaptive) over the environment's, and the environment's (here the defaults) without.
TEST(BenchCliArgs, WeftRunConfigTakesTheLoopSettings) {
  const Options o = parse({"fib", "20"});
  const weft::Config plain = bench_cli::weft_run_config(o, weft::StealMechanism::kRequest,
                                                        weft::StealPolicy::parse("half"), 3);
  EXPECT_EQ(plain.mechanism, weft::StealMechanism::kRequest);
  EXPECT_EQ(plain.steal.spec(), "half");
  EXPECT_EQ(plain.workers, 3u);
  const weft::Config env = weft::Config::from_env();
  EXPECT_EQ(plain.loops, env.loops);
  EXPECT_EQ(plain.loop_frames, env.loop_frames);
  EXPECT_EQ(plain.adaptive_fork, env.adaptive_fork);
  const bench_cli::LoopSettings settings{weft::LoopScheme::kSplit, weft::LoopFrames::kPool,
                                         weft::AdaptiveFork::kLazy};
  const weft::Config c = bench_cli::weft_run_config(o, weft::StealMechanism::kConcurrent,
                                                    weft::StealPolicy::parse("one"), 2, &settings);
  EXPECT_EQ(c.loops, weft::LoopScheme::kSplit);
  EXPECT_EQ(c.loop_frames, weft::LoopFrames::kPool);
  EXPECT_EQ(c.adaptive_fork, weft::AdaptiveFork::kLazy);
  EXPECT_EQ(c.workers, 2u);
  EXPECT_EQ(settings.text(), "split/pool/adapt=lazy");
}

TEST(BenchCliArgs, FibArgumentErrors) {
  EXPECT_EQ(error_of({"fib", "0"}), "fib N: expected a whole number from 1 to 50, got \"0\"");
  EXPECT_EQ(error_of({"fib", "30", "31"}), "31: unexpected argument (fib takes one N)");
}

TEST(BenchCliCutoff, CountsStayExact) {
  const Options o = small_tree_options({});
  const uts::Tree tree(o.tree);
  ASSERT_EQ(uts::traverse_sequential(tree), kSmallCounts);
  weft::Config config;
  config.workers = 2;
  weft::Runtime rt{config};
  for (const char* spec : {"none", "level:0", "level:2", "level:30", "tasks:1", "tasks:4"}) {
    EXPECT_EQ(uts::traverse_weft(rt, tree, bench_cli::parse_cutoff(spec)), kSmallCounts) << spec;
  }
}

// Balanced braces and brackets outside strings, and no string left open.
bool balanced(const std::string& json) {
  std::vector<char> open;
  bool in_string = false;
  for (std::size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    if (c == '{' || c == '[') open.push_back(c);
    if (c == '}' || c == ']') {
      if (open.empty() || open.back() != (c == '}' ? '{' : '[')) return false;
      open.pop_back();
    }
  }
  return open.empty() && !in_string;
}

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

TEST(BenchCliSweep, UtsEveryImplementationMatches) {
  const Options o = small_tree_options({"--steal", "one,half", "--workers", "1,2", "--repeat", "2",
                                        "--chunk", "4", "--cutoff", "tasks:8"});
  std::vector<std::string> labels;
  const bench_cli::UtsResult result =
      bench_cli::run_uts(o, [&](int rep, int, const std::string& label) {
        labels.push_back(std::to_string(rep) + " " + label);
      });
  // seq, weft one 1/2, weft half 1/2, threads 1/2, each once per repetition in a shuffled
  // order.
  ASSERT_EQ(result.records.size(), 7u);
  const std::vector<std::string> order = {"seq",
                                          "weft concurrent/one w=1",
                                          "weft concurrent/one w=2",
                                          "weft concurrent/half w=1",
                                          "weft concurrent/half w=2",
                                          "threads w=1",
                                          "threads w=2"};
  ASSERT_EQ(labels.size(), 14u);
  for (std::size_t rep = 0; rep < 2; ++rep) {
    std::vector<std::string> block(labels.begin() + static_cast<std::ptrdiff_t>(7 * rep),
                                   labels.begin() + static_cast<std::ptrdiff_t>(7 * rep + 7));
    std::vector<std::string> want;
    for (const std::string& label : order) want.push_back(std::to_string(rep + 1) + " " + label);
    std::sort(block.begin(), block.end());
    std::sort(want.begin(), want.end());
    EXPECT_EQ(block, want);
  }
  for (const auto& r : result.records) {
    EXPECT_EQ(r.counts, kSmallCounts) << r.label();
    EXPECT_EQ(r.times.size(), 2u) << r.label();
    if (r.impl == Impl::kSeq) continue;
    if (r.impl == Impl::kWeft) {  // weft counts its workers' nodes only with --profile
      EXPECT_TRUE(r.load.empty()) << r.label();
      continue;
    }
    EXPECT_EQ(r.load.size(), r.workers) << r.label();
    EXPECT_GT(bench_cli::efficiency(r.load), 0.0) << r.label();
    EXPECT_LE(bench_cli::efficiency(r.load), 1.0) << r.label();
  }
  // threads counts every node in some thread's load.
  std::uint64_t nodes = 0;
  for (std::uint64_t x : result.records.back().load) nodes += x;
  EXPECT_EQ(nodes, 2 * kSmallCounts.nodes);

  // Each weft run is paired with the threads run at its worker count, repetition by repetition.
  ASSERT_EQ(result.vs_threads.size(), 4u);
  for (const bench_cli::ThreadsPair& p : result.vs_threads) {
    const bench_cli::Record& w = result.records[p.weft];
    const bench_cli::Record& t = result.records[p.threads];
    EXPECT_EQ(w.impl, Impl::kWeft);
    EXPECT_EQ(t.impl, Impl::kThreads);
    EXPECT_EQ(w.workers, t.workers) << w.label();
    EXPECT_EQ(p.summary.n, 2u) << w.label();
    const std::vector<double> ratios = bench_stats::paired_ratios(w.times, t.times);
    EXPECT_DOUBLE_EQ(p.summary.ratio_median, bench_stats::median_of(ratios)) << w.label();
  }

  const std::string table = bench_cli::uts_table(result);
  EXPECT_NE(table.find("30057 nodes"), std::string::npos);
  EXPECT_EQ(occurrences(table, "\nweft "), 4u);
  EXPECT_EQ(occurrences(table, "\nthreads "), 2u);
  EXPECT_NE(table.find("weft's time / threads' at the same workers"), std::string::npos) << table;
  EXPECT_EQ(occurrences(table, "  weft concurrent/one w=2 "), 2u) << "vs seq and vs threads";

  const std::string json = bench_cli::uts_json(result);
  EXPECT_TRUE(balanced(json)) << json;
  for (const char* key : {"\"benchmark\":\"uts\"", "\"tree\":\"custom\"", "\"cutoff\":\"tasks:8\"",
                          "\"counts\":{\"nodes\":30057", "\"runs\":[", "\"times_s\":[",
                          "\"median_s\":", "\"speedup_vs_seq\":", "\"counters_per_run\":",
                          "\"nodes_per_worker_per_run\":null", "\"nodes_per_thread_per_run\":"}) {
    EXPECT_NE(json.find(key), std::string::npos) << key;
  }
  EXPECT_EQ(occurrences(json, "\"times_s\":"), 7u);
  EXPECT_EQ(occurrences(json, "\"membarrier_ns\":"), 4u) << "one per weft run";
  EXPECT_EQ(occurrences(json, "\"vs_threads\":{\"threads_workers\":"), 4u) << json;
  // The default mechanism is written out too; seq and threads have none.
  EXPECT_EQ(occurrences(json, "\"mechanism\":\"concurrent\""), 4u);
  EXPECT_EQ(occurrences(json, "\"mechanism\":null"), 3u);
}

// --mechanism concurrent,request on UTS: the mechanism is the sweep's outermost weft
// dimension, every run's counts match, and the table and JSON say which mechanism ran.
TEST(BenchCliSweep, UtsOverBothMechanisms) {
  const Options o = small_tree_options(
      {"--impl", "seq,weft,threads", "--mechanism", "concurrent,request", "--steal", "one,half",
       "--workers", "2", "--repeat", "1", "--profile", "--trace", "unused.json"});
  std::vector<std::string> labels;
  const bench_cli::UtsResult result =
      bench_cli::run_uts(o, [&](int, int, const std::string& label) { labels.push_back(label); });
  const std::vector<std::string> order = {"seq",
                                          "weft concurrent/one w=2",
                                          "weft concurrent/half w=2",
                                          "weft request/one w=2",
                                          "weft request/half w=2",
                                          "threads w=2"};
  std::vector<std::string> sorted_labels = labels, sorted_order = order;
  std::sort(sorted_labels.begin(), sorted_labels.end());
  std::sort(sorted_order.begin(), sorted_order.end());
  EXPECT_EQ(sorted_labels, sorted_order);
  ASSERT_EQ(result.records.size(), order.size());
  for (const auto& r : result.records) EXPECT_EQ(r.counts, kSmallCounts) << r.label();
  EXPECT_EQ(result.records[3].mechanism, weft::StealMechanism::kRequest);
  EXPECT_EQ(result.records[1].mechanism, weft::StealMechanism::kConcurrent);
  // Only the request mechanism's victims serve requests.
  EXPECT_EQ(result.records[1].counters.requests_served, 0u);
  EXPECT_EQ(result.records[2].counters.requests_served, 0u);

  const std::string table = bench_cli::uts_table(result);
  EXPECT_NE(table.find(" mech "), std::string::npos) << table;
  EXPECT_EQ(occurrences(table, "\nweft     request    "), 2u) << table;
  EXPECT_EQ(occurrences(table, "\nweft     concurrent "), 2u) << table;
  EXPECT_NE(table.find("weft request/half w=2 ("), std::string::npos) << table;  // the profile
  const std::string json = bench_cli::uts_json(result);
  EXPECT_TRUE(balanced(json)) << json;
  EXPECT_EQ(occurrences(json, "\"mechanism\":\"request\",\"steal\":"), 2u) << json;
  EXPECT_EQ(occurrences(json, "\"mechanism\":\"concurrent\",\"steal\":"), 2u) << json;
  EXPECT_EQ(occurrences(json, "\"mechanism\":null,\"steal\":null"), 2u) << json;
  EXPECT_EQ(occurrences(json, "\"requests_served\":"), 4u) << json;
  EXPECT_EQ(occurrences(json, "\"request_timeouts\":"), 4u) << json;
  // The trace names each runtime by its label, mechanism included.
  const std::string trace = bench_cli::chrome_trace(result.records);
  EXPECT_NE(trace.find("\"args\":{\"name\":\"weft request/half w=2\"}"), std::string::npos);
  EXPECT_NE(trace.find("\"args\":{\"name\":\"weft concurrent/one w=2\"}"), std::string::npos);
}

// Every run's time over the baseline's, paired by repetition, with an interval and verdict in
// the table and the JSON; the order of each repetition is the seed's, replayed by the seed.
TEST(BenchCliSweep, FibPairsWithTheBaselineAndAReplayableOrder) {
  const auto run = [](const char* seed) {
    const Options o = parse(
        {"fib", "16", "--steal", "one,half", "--workers", "1,2", "--repeat", "6", "--seed", seed});
    std::vector<std::string> labels;
    bench_cli::FibResult result =
        bench_cli::run_fib(o, [&](int rep, int, const std::string& label) {
          labels.push_back(std::to_string(rep) + " " + label);
        });
    return std::pair{labels, result};
  };
  const auto [labels, result] = run("11");
  EXPECT_EQ(run("11").first, labels);
  EXPECT_NE(run("12").first, labels);
  ASSERT_EQ(result.sitting.pairs.size(), 4u);
  for (const bench_cli::BaselinePair& p : result.sitting.pairs) {
    EXPECT_EQ(p.summary.n, 6u);
    EXPECT_LE(p.summary.ci_low, p.summary.ratio_median);
    EXPECT_GE(p.summary.ci_high, p.summary.ratio_median);
    EXPECT_DOUBLE_EQ(p.summary.confidence, 0.95);
  }
  EXPECT_EQ(result.sitting.repetitions, 6);
  EXPECT_EQ(result.sitting.info.seed, 11u);
  EXPECT_EQ(result.sitting.host.samples, 7);  // before the first repetition and after each
  const std::string table = bench_cli::fib_table(result);
  EXPECT_NE(table.find("time / serial's, median of the paired repetitions"), std::string::npos)
      << table;
  EXPECT_NE(table.find("pairs: 4; "), std::string::npos) << table;
  EXPECT_NE(table.find("6 repetitions in randomized blocks (seed 11)"), std::string::npos) << table;
  const std::string json = bench_cli::fib_json(result);
  EXPECT_TRUE(balanced(json)) << json;
  EXPECT_EQ(occurrences(json, "\"vs_baseline\":{\"look\":0,\"ratio_median\":"), 4u) << json;
  EXPECT_EQ(occurrences(json, "\"vs_baseline\":null"), 1u) << json;
  for (const char* key : {"\"commit\":", "\"compiler\":", "\"flags\":", "\"cpu_model\":",
                          "\"kernel\":", "\"date\":", "\"seed\":11,", "\"command_line\":",
                          "\"host\":{\"calibration_samples\":7", "\"host_unsteady\":"}) {
    EXPECT_NE(json.find(key), std::string::npos) << key;
  }
}

// --until-decided on fib: looks from --repeat on, each at its own confidence; the sitting
// stops when every pair is decided or the budget would be passed.
TEST(BenchCliSweep, FibUntilDecidedLooksAndStops) {
  const Options o = parse({"fib", "14", "--steal", "one", "--workers", "1", "--until-decided",
                           "--budget", "20", "--repeat", "5", "--seed", "3"});
  std::vector<std::string> looks;
  const bench_cli::FibResult result =
      bench_cli::run_fib(o, {}, [&](const std::string& line) { looks.push_back(line); });
  ASSERT_FALSE(looks.empty());
  EXPECT_EQ(looks[0].rfind("look 1 at 5 repetitions (97.50 % intervals): ", 0), 0u) << looks[0];
  EXPECT_EQ(result.sitting.looks, static_cast<int>(looks.size()));
  ASSERT_EQ(result.sitting.pairs.size(), 1u);
  const bench_cli::BaselinePair& p = result.sitting.pairs[0];
  EXPECT_GE(p.look, 1);
  EXPECT_LT(p.summary.confidence, 1.0);
  EXPECT_GT(p.summary.confidence, 0.95);
  EXPECT_TRUE(p.decided || result.sitting.elapsed_s > 0) << "stopped by the budget if undecided";
  EXPECT_TRUE(result.sitting.until_decided);
  EXPECT_NE(bench_cli::fib_json(result).find("\"until_decided\":true,\"budget_s\":20,"),
            std::string::npos);
}

TEST(BenchCliSweep, WrongPublishedCountsAreReported) {
  Options o = small_tree_options({"--impl", "seq", "--repeat", "1"});
  uts::Preset wrong{"W",          "a preset whose published size is off by one",
                    o.tree,       kSmallCounts.nodes + 1,
                    std::nullopt, std::nullopt,
                    "this test"};
  o.preset = &wrong;
  try {
    (void)bench_cli::run_uts(o);
    FAIL() << "no VerifyError";
  } catch (const bench_cli::VerifyError& e) {
    EXPECT_NE(std::string(e.what()).find("WRONG COUNTS seq"), std::string::npos) << e.what();
  }
}

TEST(BenchCliSweep, FibMatchesAndReports) {
  const ScopedEnv env{{"WEFT_COUNT_SPAWNS", "1"}};  // the counters below read spawns
  const Options o =
      parse({"fib", "18", "--steal", "one,fixed:2", "--workers", "1,2", "--repeat", "2"});
  const bench_cli::FibResult result = bench_cli::run_fib(o);
  EXPECT_EQ(result.value, 2584);
  EXPECT_EQ(result.spawns, 4180u);  // fib(19) - 1 internal nodes of the call tree
  ASSERT_EQ(result.records.size(), 5u);
  for (const auto& r : result.records) EXPECT_EQ(r.times.size(), 2u) << r.label();
  EXPECT_EQ(result.records[1].counters.spawns, 2 * result.spawns);
  const std::string json = bench_cli::fib_json(result);
  EXPECT_TRUE(balanced(json)) << json;
  for (const char* key : {"\"benchmark\":\"fib\"", "\"value\":2584",
                          "\"ns_per_spawn\":", "\"speedup_vs_serial\":", "\"steal\":\"fixed:2\""}) {
    EXPECT_NE(json.find(key), std::string::npos) << key;
  }
  EXPECT_NE(bench_cli::fib_table(result).find("fib(18) = 2584"), std::string::npos);
}

// fib on the request mechanism: verified (run_fib throws otherwise), labelled and recorded as
// such in the table and the JSON.
TEST(BenchCliSweep, FibOnTheRequestMechanism) {
  const ScopedEnv env{{"WEFT_COUNT_SPAWNS", "1"}};
  const Options o = parse({"fib", "18", "--mechanism", "request", "--steal", "one,half",
                           "--workers", "1,2", "--repeat", "2"});
  const bench_cli::FibResult result = bench_cli::run_fib(o);
  EXPECT_EQ(result.value, 2584);
  ASSERT_EQ(result.records.size(), 5u);
  for (std::size_t i = 1; i < result.records.size(); ++i) {
    const auto& r = result.records[i];
    EXPECT_EQ(r.mechanism, weft::StealMechanism::kRequest) << r.label();
    EXPECT_EQ(r.label().rfind("weft request/", 0), 0u) << r.label();
    EXPECT_EQ(r.counters.spawns, 2 * result.spawns) << r.label();
    EXPECT_EQ(r.times.size(), 2u);
  }
  const std::string json = bench_cli::fib_json(result);
  EXPECT_TRUE(balanced(json)) << json;
  EXPECT_EQ(occurrences(json, "\"mechanism\":\"request\""), 4u) << json;
  EXPECT_EQ(occurrences(json, "\"mechanism\":null"), 1u) << json;
  EXPECT_EQ(occurrences(json, "\"mechanism\":\"concurrent\""), 0u) << json;
  const std::string table = bench_cli::fib_table(result);
  EXPECT_EQ(occurrences(table, "\nweft    request    "), 4u) << table;
}

// --profile and --trace end to end on UTS: the profile's rows and JSON, per-worker node
// counts that add up to the tree, and a trace with one steal slice and arrow per steal.
TEST(BenchCliSweep, UtsProfileAndTrace) {
  const Options o = small_tree_options({"--impl", "seq,weft", "--steal", "one,half", "--workers",
                                        "2,4", "--repeat", "2", "--profile", "--trace", "t.json"});
  const bench_cli::UtsResult result = bench_cli::run_uts(o);
  ASSERT_EQ(result.records.size(), 5u);
  std::uint64_t steals = 0;
  for (const auto& r : result.records) {
    if (r.impl != Impl::kWeft) continue;
    std::uint64_t nodes = 0;
    for (std::uint64_t n : r.load) nodes += n;
    EXPECT_EQ(nodes, 2 * kSmallCounts.nodes) << r.label() << ": nodes per worker, two runs";
    EXPECT_EQ(r.load.size(), r.workers);
    for (const auto& w : r.per_worker) {
      EXPECT_EQ(w.task_ns + w.steal_ns + w.idle_ns + w.switch_ns, w.window_ns) << r.label();
    }
    EXPECT_GT(r.frame_cost_ns, 0.0);
    steals += r.counters.steals;
    ASSERT_EQ(r.trace.workers.size(), r.workers);
  }
  const std::string table = bench_cli::uts_table(result);
  EXPECT_NE(table.find("execution profile"), std::string::npos) << table;
  EXPECT_NE(table.find("  worker 3 "), std::string::npos) << table;
  const std::string json = bench_cli::uts_json(result);
  EXPECT_TRUE(balanced(json)) << json;
  EXPECT_EQ(occurrences(json, "\"profile\":{"), 4u);
  EXPECT_EQ(occurrences(json, "\"node_efficiency\":"), 4u);
  const std::string trace = bench_cli::chrome_trace(result.records);
  EXPECT_TRUE(balanced(trace));
  EXPECT_EQ(trace.rfind("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", 0), 0u);
  EXPECT_EQ(occurrences(trace, "\"process_name\""), 4u);
  EXPECT_EQ(occurrences(trace, "\"thread_name\""), 12u);
  EXPECT_EQ(occurrences(trace, "\"name\":\"steal\",\"cat\":\"steal\",\"pid\""), steals);
  EXPECT_EQ(occurrences(trace, "\"ph\":\"s\""), steals);
  EXPECT_EQ(occurrences(trace, "\"ph\":\"f\""), steals);
  EXPECT_GE(occurrences(trace, "\"name\":\"busy\""), 8u) << "a busy slice per run at least";
}

// A loop a worker joined from the queue is a "loop" slice naming its owner and chunks, with
// an arrow from the owner's row; it encloses the busy interval recorded before it.
TEST(ChromeTrace, JoinedLoopsAreSlicesWithAnArrowFromTheirOwner) {
  bench_cli::Record r;
  r.impl = bench_cli::Impl::kWeft;
  r.workers = 2;
  r.trace.origin_ns = 1000;
  r.trace.workers.resize(2);
  using Kind = weft::TraceEvent::Kind;
  r.trace.workers[1].events = {{Kind::kBusy, -1, 0, 2000, 3000}, {Kind::kLoop, 0, 5, 1500, 3500}};
  const std::string trace = bench_cli::chrome_trace({r});
  EXPECT_TRUE(balanced(trace)) << trace;
  EXPECT_EQ(occurrences(trace,
                        "\"name\":\"loop\",\"cat\":\"loop\",\"pid\":1,\"tid\":1,\"ts\":0.500,"
                        "\"dur\":2.000,\"args\":{\"owner\":0,\"chunks\":5}"),
            1u)
      << trace;
  EXPECT_EQ(occurrences(trace, "\"ph\":\"s\",\"name\":\"loop\""), 1u) << trace;
  EXPECT_EQ(occurrences(trace, "\"ph\":\"f\",\"bp\":\"e\",\"name\":\"loop\""), 1u) << trace;
  EXPECT_EQ(occurrences(trace, "\"name\":\"busy\""), 1u) << trace;
}

}  // namespace
