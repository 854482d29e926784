// weft-bench compare: its arguments, the peer protocol's parsing, and a small comparison run
// end to end against the peer programs this build made (none in sanitizer builds, where
// every peer must then be reported as skipped, never dropped).
#include "tools/bench/cli/compare.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>
#include <weft/schedule.hpp>

#include "bench_args_support.hpp"
#include "tools/bench/cli/args.hpp"
#include "tools/bench/cli/compare_pairs.hpp"
#include "tools/bench/cli/compare_report.hpp"
#include "tools/bench/cli/peer_process.hpp"
#include "tools/peers/peer_cli.hpp"
#include "workloads/kernels/par.hpp"
#include "workloads/kernels/suite.hpp"

namespace {

using bench_cli::Command;
using bench_cli::Options;
using bench_cli::UsageError;

using bench_test::error_of;
using bench_test::parse;
using bench_test::ScopedEnv;

TEST(BenchCompareArgs, DefaultsAreTheDocumentedSuite) {
  const Options o = parse({"compare"});
  EXPECT_EQ(o.command, Command::kCompare);
  EXPECT_EQ(o.workers, std::vector<unsigned>{2});
  EXPECT_EQ(o.steal, std::vector<std::string>{weft::Config::from_env().steal.spec()});
  EXPECT_EQ(o.repeat, 3);
  EXPECT_FALSE(o.until_decided);
  EXPECT_EQ(o.workload_specs,
            (std::vector<std::string>{"fib:35", "uts:T3", "nqueens:13", "strassen:1024",
                                      "sparselu:50x100", "fft:2^22", "sort:1e7", "matmul:1024"}));
  EXPECT_EQ(o.peers,
            (std::vector<std::string>{"gomp", "libomp", "tbb", "rayon", "chili", "java", "go"}));
  EXPECT_EQ(o.mechanisms, std::vector<weft::StealMechanism>{weft::StealMechanism::kConcurrent});
}

TEST(BenchCompareArgs, Settings) {
  const Options o = parse({"compare", "--workloads", "fib,strassen:2048", "--peers", "tbb,gomp,tbb",
                           "--peer-dir", "/x", "--workers", "1,2", "--steal", "fixed:20"});
  EXPECT_EQ(o.workload_specs, (std::vector<std::string>{"fib:35", "strassen:2048"}));
  EXPECT_EQ(o.peers, (std::vector<std::string>{"tbb", "gomp"}));
  EXPECT_EQ(o.peer_dir, "/x");
  EXPECT_TRUE(parse({"compare", "--peers", "none"}).peers.empty());
  EXPECT_EQ(parse({"compare", "--mechanism", "concurrent,request"}).mechanisms,
            (std::vector<weft::StealMechanism>{weft::StealMechanism::kConcurrent,
                                               weft::StealMechanism::kRequest}));
}

TEST(BenchCompareArgs, ErrorsNameTheArgument) {
  EXPECT_EQ(error_of({"compare", "--workloads", "fib,,uts"}).rfind("--workloads: empty item", 0),
            0u);
  EXPECT_NE(
      error_of({"compare", "--workloads", "quicksort"}).find("unknown workload (known: fib, uts"),
      std::string::npos);
  EXPECT_NE(error_of({"compare", "--workloads", "strassen:1000"}).find("strassen:1000"),
            std::string::npos);
  EXPECT_NE(error_of({"compare", "--workloads", "fib:x"}).find("fib:x"), std::string::npos);
  EXPECT_EQ(error_of({"compare", "--peers", "cilk"}).rfind("--peers cilk: unknown peer", 0), 0u);
  EXPECT_EQ(error_of({"compare", "--trace", "t.json"}), "--trace: unknown option (see --help)");
  EXPECT_EQ(error_of({"uts", "--workloads", "fib"}), "--workloads: unknown option (see --help)");
  EXPECT_EQ(error_of({"compare", "--peer-dir", ""}), "--peer-dir: empty directory name");
  const std::string mechanism = error_of({"compare", "--mechanism", "request,steal"});
  EXPECT_EQ(mechanism.rfind("--mechanism steal: ", 0), 0u) << mechanism;
  EXPECT_NE(mechanism.find("(allowed: concurrent, request)"), std::string::npos) << mechanism;
}

TEST(BenchCompareArgs, LoopSchedulesAndPeerVariants) {
  const Options o = parse({"compare", "--workloads", "matmul-loops:150:kij", "--schedule",
                           "dynamic,factoring,dynamic:1", "--peers", "gomp/nested,tbb,gomp"});
  EXPECT_EQ(o.workload_specs, std::vector<std::string>{"matmul-loops:150:kij"});
  EXPECT_EQ(o.schedules, (std::vector<std::string>{"dynamic:1", "factoring"}));
  EXPECT_EQ(o.peers, (std::vector<std::string>{"gomp/nested", "tbb", "gomp"}));
  EXPECT_TRUE(parse({"compare"}).schedules.empty());
  const std::string schedule = error_of({"compare", "--schedule", "dynamic:0"});
  EXPECT_EQ(schedule.rfind("--schedule dynamic:0: ", 0), 0u) << schedule;
  EXPECT_EQ(error_of({"compare", "--peers", "gomp/"}),
            "--peers gomp/: empty loop variant after '/'");
  EXPECT_EQ(
      error_of({"compare", "--peers", "cilk/nested"}).rfind("--peers cilk/nested: unknown peer", 0),
      0u);
  EXPECT_EQ(error_of({"uts", "--schedule", "static"}), "--schedule: unknown option (see --help)");
  EXPECT_NE(error_of({"compare", "--workloads", "matmul-loops:300:ikk"}).find("permutation of ijk"),
            std::string::npos);
}

// --loops, --frames and --adaptive: each a list of the Config field table's names, each once
// in the order given; every combination a series (--loops outermost); errors name the
// option, the value and the names allowed; uts and fib have none of them.
TEST(BenchCompareArgs, LoopSettings) {
  using bench_cli::LoopSettings;
  using weft::AdaptiveFork;
  using weft::LoopFrames;
  using weft::LoopScheme;
  const Options plain = parse({"compare"});
  EXPECT_TRUE(plain.loop_schemes.empty());
  EXPECT_TRUE(plain.loop_frames.empty());
  EXPECT_TRUE(plain.adaptive_forks.empty());
  EXPECT_FALSE(plain.loop_settings_given());
  EXPECT_EQ(bench_cli::loop_settings(plain).size(), 1u);

  const Options o = parse(
      {"compare", "--loops", "dlist,pcb,dlist", "--frames", "pool", "--adaptive", "0,lazy,1,0"});
  EXPECT_EQ(o.loop_schemes, (std::vector<LoopScheme>{LoopScheme::kDlist, LoopScheme::kPcb}));
  EXPECT_EQ(o.loop_frames, std::vector<LoopFrames>{LoopFrames::kPool});
  EXPECT_EQ(o.adaptive_forks, (std::vector<AdaptiveFork>{AdaptiveFork::kOff, AdaptiveFork::kLazy,
                                                         AdaptiveFork::kOn}));
  EXPECT_TRUE(o.loop_settings_given());
  EXPECT_TRUE(parse({"compare", "--adaptive", "1"}).loop_settings_given());
  const std::vector<LoopSettings> all = bench_cli::loop_settings(o);
  ASSERT_EQ(all.size(), 6u);
  EXPECT_EQ(all[0], (LoopSettings{LoopScheme::kDlist, LoopFrames::kPool, AdaptiveFork::kOff}));
  EXPECT_EQ(all[1], (LoopSettings{LoopScheme::kDlist, LoopFrames::kPool, AdaptiveFork::kLazy}));
  EXPECT_EQ(all[3], (LoopSettings{LoopScheme::kPcb, LoopFrames::kPool, AdaptiveFork::kOff}));
  EXPECT_EQ(all[5].text(), "pcb/pool/adapt=1");

  EXPECT_EQ(error_of({"compare", "--loops", "pcb,heap"}),
            "--loops heap: --loops=\"heap\": unknown loop scheme (allowed: pcb, dlist, split)");
  EXPECT_EQ(error_of({"compare", "--frames", "heap"}),
            "--frames heap: --frames=\"heap\": unknown loop frame home (allowed: stack, pool)");
  EXPECT_EQ(error_of({"compare", "--adaptive", "on"}),
            "--adaptive on: --adaptive=\"on\": unknown adaptive fork mode (allowed: 0, 1, lazy)");
  EXPECT_EQ(error_of({"compare", "--loops", "pcb,"}), "--loops: empty item in list \"pcb,\"");
  EXPECT_EQ(error_of({"compare", "--frames"}), "--frames: missing value");
  EXPECT_EQ(error_of({"uts", "--loops", "pcb"}), "--loops: unknown option (see --help)");
  const std::string help = bench_cli::usage();
  EXPECT_NE(help.find("[--loops pcb,dlist,split]"), std::string::npos) << help;
  EXPECT_NE(help.find("[--frames stack,pool] [--adaptive 0,1,lazy]"), std::string::npos) << help;
  EXPECT_NE(help.find("\"weft_pairs\""), std::string::npos) << help;
}

// A setting not given takes the environment's value, as the runtime would.
TEST(BenchCompareArgs, LoopSettingsNotGivenComeFromTheEnvironment) {
  const ScopedEnv env{{"WEFT_LOOPS", "split"}, {"WEFT_ADAPTIVE_FORK", "lazy"}};
  const std::vector<bench_cli::LoopSettings> all =
      bench_cli::loop_settings(parse({"compare", "--frames", "stack,pool"}));
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].text(), "split/stack/adapt=lazy");
  EXPECT_EQ(all[1].text(), "split/pool/adapt=lazy");
}

TEST(BenchCompareArgs, WorkloadSpecs) {
  EXPECT_EQ(kernels::parse_spec("sparselu").text(), "sparselu:50x100");
  EXPECT_EQ(kernels::parse_spec("fft:2^10").size, "2^10");
  EXPECT_EQ(kernels::workload_list().size(), 14u);
  EXPECT_THROW((void)kernels::parse_spec("fib:51"), kernels::SizeError);
  EXPECT_THROW((void)kernels::parse_spec(""), kernels::SizeError);
}

// The serial elision, counting the runs it is given (peer_main makes its backend once).
int g_logged_runs = 0;
class RunCounting : public kernels::SerialPar {
 public:
  static constexpr std::array<std::string_view, 1> kLoopVariants = {"serial"};
  static bool runs_under(std::string_view, const peers::LoopSchedule&) { return true; }
  template <class F>
  void run(F&& f) {
    ++g_logged_runs;
    std::forward<F>(f)();
  }
};

// Every timed run of a peer follows its own warm-up, as weft's runs in compare do: a peer
// warmed up only once would time its later repetitions from wherever its threads had gone.
TEST(BenchComparePeerProtocol, EveryTimedRunFollowsAWarmUp) {
  char prog[] = "weft-peer-x", workload[] = "--workload", spec[] = "nqueens:5",
       workers[] = "--workers", one[] = "1", repeat[] = "--repeat", three[] = "3";
  char* argv[] = {prog, workload, spec, workers, one, repeat, three, nullptr};
  g_logged_runs = 0;
  testing::internal::CaptureStdout();
  const int status = peers::peer_main(
      "x", 7, argv,
      [](int, std::string_view, const peers::LoopSchedule&) { return RunCounting(); });
  const std::string lines = testing::internal::GetCapturedStdout();
  EXPECT_EQ(status, 0) << lines;
  EXPECT_EQ(std::count(lines.begin(), lines.end(), '\n'), 3) << lines;
  EXPECT_EQ(g_logged_runs, 6) << "3 timed runs, each after a warm-up";
}

TEST(BenchComparePeerProtocol, ArgumentsAndLine) {
  const std::vector<std::string_view> args{"--workload", "fib:12",   "--workers",
                                           "3",          "--repeat", "2"};
  const peers::PeerOptions o = peers::parse_peer_args(args);
  EXPECT_EQ(o.spec.text(), "fib:12");
  EXPECT_EQ(o.workers, 3);
  EXPECT_EQ(o.repeat, 2);
  kernels::Outcome out{0.25, "fib(12) = 144", ""};
  const std::string line = peers::outcome_line("x", o, out);
  EXPECT_EQ(bench_cli::json_field(line, "seconds"), "0.250000000");
  EXPECT_EQ(bench_cli::json_field(line, "result"), "fib(12) = 144");
  EXPECT_EQ(bench_cli::json_field(line, "verified"), "true");
  out.error = "wrong \"value\"\n";
  const std::string bad = peers::outcome_line("x", o, out);
  EXPECT_EQ(bench_cli::json_field(bad, "verified"), "false");
  EXPECT_EQ(bench_cli::json_field(bad, "error"), "wrong \"value\"\n");
  EXPECT_THROW((void)bench_cli::json_field(line, "absent"), bench_cli::PeerError);

  const auto error_of_peer = [](std::vector<std::string_view> a) -> std::string {
    try {
      (void)peers::parse_peer_args(a);
    } catch (const kernels::SizeError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(error_of_peer({"--workers", "2"}), "--workload: is required");
  EXPECT_EQ(error_of_peer({"--workload", "fib"}), "--workers: is required");
  EXPECT_EQ(error_of_peer({"--workload", "fib", "--workers", "0"}),
            "--workers: '0' is out of range [1, 4096]");
  EXPECT_EQ(error_of_peer({"--bogus"}), "--bogus: unknown option (see --help)");
  EXPECT_EQ(error_of_peer({"--workload"}), "--workload: missing value");
  EXPECT_EQ(error_of_peer({"fib"}), "fib: unexpected argument");
  EXPECT_TRUE(peers::parse_peer_args(std::vector<std::string_view>{"--help"}).help);
  EXPECT_NE(peers::peer_help("x").find("  --workers W "), std::string::npos);

  const std::vector<std::string_view> variants{"outer", "nested"};
  const std::vector<std::string_view> loop_args{"--workload", "gauss-jordan:20", "--workers",
                                                "2",          "--loops",         "nested"};
  EXPECT_EQ(peers::parse_peer_args(loop_args, variants).loops, "nested");
  EXPECT_TRUE(peers::parse_peer_args(std::vector<std::string_view>{"--list-loops"}).list_loops);
  const auto error_with_variants = [&](std::vector<std::string_view> a) -> std::string {
    try {
      (void)peers::parse_peer_args(a, variants);
    } catch (const kernels::SizeError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(error_with_variants({"--workload", "gauss-jordan", "--workers", "2", "--loops", "x"}),
            "--loops x: unknown loop variant (known: outer, nested)");
  EXPECT_EQ(error_with_variants({"--workload", "fib", "--workers", "2", "--loops", "outer"}),
            "--loops: applies to the loop workloads only, not fib");
  out.error.clear();
  out.threads = 9;
  EXPECT_EQ(bench_cli::json_field(peers::outcome_line("x", o, out), "threads"), "9");
  EXPECT_EQ(peers::outcome_line("x", o, out).find("\"schedule\""), std::string::npos);
}

// --schedule: weft's specs (as compare passes them, Schedule::spec()'s form) mean the same to
// the peers' own parser; a loop workload only; with a backend's runs_under it filters the
// variants, and an empty --loops becomes the first that runs.
TEST(BenchComparePeerProtocol, Schedule) {
  for (const char* text : {"static", "dynamic", "dynamic:7", "guided", "guided:64", "factoring",
                           "auto", "dynamic:4611686018427387904"}) {
    const std::string weft_spec = weft::Schedule::parse(text).spec();
    const peers::LoopSchedule s = peers::LoopSchedule::parse(weft_spec);
    EXPECT_EQ(s.spec(), weft_spec) << text;
    EXPECT_EQ(s.chunk, weft::Schedule::parse(text).chunk()) << text;
  }
  EXPECT_TRUE(peers::LoopSchedule::parse("default").is_default());
  EXPECT_EQ(peers::LoopSchedule::parse("dynamic:4611686018427387904").int_chunk(), INT_MAX);
  const auto bad = [](std::string_view text) -> std::string {
    try {
      (void)peers::LoopSchedule::parse(text);
    } catch (const kernels::SizeError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(bad("dynamic:0"),
            "--schedule dynamic:0: the chunk size must be an integer from 1 to 2^62");
  EXPECT_EQ(bad("guided:4611686018427387905").rfind("--schedule guided:4611686018427387905: ", 0),
            0u);
  EXPECT_EQ(bad("static:4"), "--schedule static:4: only dynamic and guided take a chunk size");
  EXPECT_EQ(bad("dynamic:"),
            "--schedule dynamic:: the chunk size must be an integer from 1 to 2^62");
  EXPECT_EQ(bad("steal").rfind("--schedule steal: unknown schedule", 0), 0u);

  const std::vector<std::string_view> variants{"auto", "simple", "static"};
  const peers::RunsUnder static_only = [](std::string_view v, const peers::LoopSchedule& s) {
    return s.kind != peers::LoopSchedule::Kind::kStatic || v == "static";
  };
  const auto parse = [&](std::vector<std::string_view> a) {
    return peers::parse_peer_args(a, variants, static_only);
  };
  const peers::PeerOptions o =
      parse({"--workload", "empty-loop:10", "--workers", "1", "--schedule", "dynamic:3"});
  EXPECT_EQ(o.schedule.spec(), "dynamic:3");
  EXPECT_EQ(o.loops, "auto");
  EXPECT_EQ(parse({"--workload", "empty-loop:10", "--workers", "1", "--schedule", "static"}).loops,
            "static");
  EXPECT_TRUE(parse({"--workload", "empty-loop:10", "--workers", "1"}).schedule.is_default());
  const kernels::Outcome out{0.5, "iterations 10", ""};
  EXPECT_EQ(bench_cli::json_field(peers::outcome_line("x", o, out), "schedule"), "dynamic:3");
  const auto error_of_peer = [&](std::vector<std::string_view> a) -> std::string {
    try {
      (void)parse(a);
    } catch (const kernels::SizeError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(error_of_peer({"--workload", "fib", "--workers", "2", "--schedule", "static"}),
            "--schedule: applies to the loop workloads only, not fib");
  EXPECT_EQ(error_of_peer({"--workload", "empty-loop", "--workers", "2", "--schedule", "static",
                           "--loops", "simple"}),
            "--loops simple: does not run under --schedule static (these do: static)");
  EXPECT_EQ(error_of_peer({"--workload", "empty-loop", "--workers", "2", "--schedule", "x"})
                .rfind("--schedule x: unknown schedule", 0),
            0u);
  EXPECT_TRUE(parse({"--list-loops", "--schedule", "static"}).list_loops);
}

TEST(BenchComparePeerProtocol, APeerThatBreaksTheProtocolIsAnError) {
  // /bin/true answers nothing: never a silent zero time.
  EXPECT_THROW((void)bench_cli::run_peer("/bin/true", "fib:10", 1), bench_cli::PeerError);
  EXPECT_THROW((void)bench_cli::run_peer("/nonexistent/peer", "fib:10", 1), bench_cli::PeerError);
  EXPECT_TRUE(bench_cli::peer_workloads("/nonexistent/peer").empty());
}

// A program that cannot be started is reported with the reason exec gave, and leaves no
// child behind; one that starts has its stdout read and its exit status kept.
TEST(BenchComparePeerProtocol, RunProgramReportsWhyAProgramCannotRun) {
  int status = -1;
  try {
    (void)bench_cli::run_program("/nonexistent/peer", {}, status);
    ADD_FAILURE() << "a missing program ran";
  } catch (const bench_cli::PeerError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot run: No such file or directory"),
              std::string::npos)
        << e.what();
  }
  try {
    (void)bench_cli::run_program("/", {}, status);  // a directory: exec refuses it
    ADD_FAILURE() << "a directory ran";
  } catch (const bench_cli::PeerError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot run: Permission denied"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(waitpid(-1, nullptr, WNOHANG), -1);  // no child left, reaped or running
  EXPECT_EQ(bench_cli::run_program("/bin/sh", {"-c", "echo out; exit 3"}, status), "out\n");
  EXPECT_EQ(status, 3);
}

// The peers this build made (CMake passes the list), every other known one must be skipped.
std::vector<std::string> built_peers() {
  std::vector<std::string> names;
  std::string_view list = WEFT_TEST_BUILT_PEERS;
  while (!list.empty()) {
    const std::size_t comma = list.find(',');
    names.emplace_back(list.substr(0, comma));
    list = comma == std::string_view::npos ? "" : list.substr(comma + 1);
  }
  return names;
}

TEST(BenchCompareRun, EveryImplementationRunsOrIsSkippedWithAReason) {
  Options o = parse({"compare", "--workloads", "fib:16,nqueens:6,sort:12345", "--workers", "1,2",
                     "--steal", "one,half", "--repeat", "2", "--peer-dir", WEFT_TEST_PEER_DIR});
  const bench_cli::CompareResult result = bench_cli::run_compare(o);
  ASSERT_EQ(result.workloads.size(), 3u);
  const std::vector<std::string> built = built_peers();
  for (const auto& w : result.workloads) {
    // serial + 2 policies x 2 worker counts + 7 peers x 2 worker counts, none dropped.
    ASSERT_EQ(w.runs.size(), 1u + 4u + 14u) << w.spec.text();
    EXPECT_EQ(w.runs.front().impl, "serial");
    for (const auto& run : w.runs) {
      const bool built_peer = std::find(built.begin(), built.end(), run.impl) != built.end();
      if (run.is_peer() && !built_peer) {
        EXPECT_FALSE(run.skipped.empty()) << run.label();
        EXPECT_TRUE(run.times.empty());
      } else {
        EXPECT_TRUE(run.skipped.empty()) << run.label() << ": " << run.skipped;
        EXPECT_EQ(run.times.size(), 2u) << run.label();
        EXPECT_EQ(run.result, w.runs.front().result) << run.label();
      }
    }
  }
  const std::string table = bench_cli::compare_table(result);
  EXPECT_NE(table.find("fib:16"), std::string::npos);
  EXPECT_NE(table.find("weft concurrent/half w=2"), std::string::npos);
  const std::string json = bench_cli::compare_json(result);
  EXPECT_EQ(json.rfind("{\"command\":\"compare\"", 0), 0u);
  EXPECT_NE(json.find("\"ratios\":["), std::string::npos);
}

// A loop workload end to end: weft once per schedule, each built peer once per loop variant
// it lists (OpenMP: outer, nested, taskloop; oneTBB: four partitioners) and per schedule,
// Rayon and chili skipped; all verified with the serial result; the table and JSON carry the
// schedule, cost, ns per iteration, threads.
TEST(BenchCompareRun, LoopWorkloadRunsEveryScheduleAndVariant) {
  Options o = parse({"compare", "--workloads", "matmul-loops:20:kij,gauss-jordan:12", "--workers",
                     "1,2", "--steal", "one", "--schedule", "dynamic:1,factoring", "--repeat", "2",
                     "--peer-dir", WEFT_TEST_PEER_DIR});
  const bench_cli::CompareResult result = bench_cli::run_compare(o);
  ASSERT_EQ(result.workloads.size(), 2u);
  const std::vector<std::string> built = built_peers();
  const auto is_built = [&](const std::string& peer) {
    return std::find(built.begin(), built.end(), peer) != built.end();
  };
  const auto series_of = [&](const std::string& peer) -> std::size_t {
    if (!is_built(peer)) return 1;  // one skipped series
    if (peer == "gomp" || peer == "libomp") return 3 * 2;
    if (peer == "tbb") return 4 * 2;
    return 1;  // rayon, chili, java, go: no loop workloads
  };
  std::size_t peer_runs = 0;
  for (const std::string& peer : bench_cli::known_peers()) peer_runs += 2 * series_of(peer);
  for (const auto& w : result.workloads) {
    EXPECT_TRUE(w.loops);
    EXPECT_GT(w.iterations, 0u);
    ASSERT_EQ(w.runs.size(), 1u + 2u * 2u + peer_runs) << w.spec.text();
    EXPECT_EQ(w.runs[1].label(), "weft concurrent/one dynamic:1 w=1");
    EXPECT_EQ(w.runs[4].label(), "weft concurrent/one factoring w=2");
    for (const auto& run : w.runs) {
      const bool has_no_loops =
          run.impl == "rayon" || run.impl == "chili" || run.impl == "java" || run.impl == "go";
      if (has_no_loops || (run.is_peer() && !is_built(run.impl))) {
        EXPECT_FALSE(run.skipped.empty()) << run.label();
        continue;
      }
      EXPECT_TRUE(run.skipped.empty()) << run.label() << ": " << run.skipped;
      EXPECT_EQ(run.times.size(), 2u) << run.label();
      EXPECT_EQ(run.result, w.runs.front().result) << run.label();
      if (run.is_peer()) {
        EXPECT_FALSE(run.variant.empty()) << run.label();
        EXPECT_TRUE(run.schedule == "dynamic:1" || run.schedule == "factoring") << run.label();
      }
    }
    // weft/peer sets each peer series beside weft's run of the same schedule.
    for (const bench_cli::PeerRatio& r : bench_cli::peer_ratios(w))
      EXPECT_EQ(r.weft->schedule, r.peer->schedule) << r.peer->label();
  }
  const std::string table = bench_cli::compare_table(result);
  EXPECT_NE(table.find("cost s"), std::string::npos) << table;
  EXPECT_NE(table.find("ns/iter threads"), std::string::npos) << table;
  const std::string json = bench_cli::compare_json(result);
  EXPECT_NE(json.find("\"schedule\":\"factoring\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"ns_per_iteration\":"), std::string::npos) << json;
  EXPECT_NE(json.find("\"cost_s\":"), std::string::npos) << json;
  EXPECT_NE(json.find("\"loops\":true"), std::string::npos) << json;
  if (is_built("gomp")) {
    // Variant by variant, each once per schedule, after weft's runs.
    const auto& runs = result.workloads[0].runs;
    const auto at = [&](const std::string& label) {
      return std::find_if(runs.begin(), runs.end(),
                          [&](const auto& r) { return r.label() == label; }) -
             runs.begin();
    };
    EXPECT_EQ(at("gomp/taskloop dynamic:1 w=1"), 5);
    EXPECT_EQ(at("gomp/taskloop factoring w=2"), 8);
    EXPECT_EQ(at("gomp/outer dynamic:1 w=1"), 9);
    EXPECT_NE(table.find("gomp/nested dynamic:1 w=2"), std::string::npos) << table;
    EXPECT_NE(json.find("{\"impl\":\"gomp\",\"mechanism\":null,\"steal\":null,\"schedule\":"
                        "\"dynamic:1\",\"variant\":\"taskloop\",\"workers\":1,"
                        "\"label\":\"gomp/taskloop dynamic:1 w=1\""),
              std::string::npos)
        << json;
    EXPECT_NE(json.find("\"variant\":\"nested\",\"schedule\":\"factoring\",\"workers\":2,"
                        "\"weft_mechanism\""),
              std::string::npos)
        << json;
    // The nested variant reports the threads its regions ran on: at least the outer team.
    for (const auto& run : runs)
      if (run.label() == "gomp/nested dynamic:1 w=2") {
        EXPECT_GE(run.threads, 2u);
      }
  }
}

// One variant picked by name; without --schedule the peer runs its own default, so
// labelled; a variant the peer lacks is an error, not a silent skip.
TEST(BenchCompareRun, LoopWorkloadRunsTheVariantPicked) {
  const std::vector<std::string> built = built_peers();
  if (std::find(built.begin(), built.end(), "gomp") == built.end()) {
    GTEST_SKIP() << "gomp not built";
  }
  Options one =
      parse({"compare", "--workloads", "empty-loop:100", "--workers", "2", "--steal", "one",
             "--peers", "gomp/outer", "--repeat", "1", "--peer-dir", WEFT_TEST_PEER_DIR});
  const auto picked = bench_cli::run_compare(one);
  ASSERT_EQ(picked.workloads[0].runs.size(), 3u);
  EXPECT_EQ(picked.workloads[0].runs[2].label(), "gomp/outer default w=2");
  EXPECT_EQ(picked.workloads[0].runs[2].result, picked.workloads[0].runs[0].result);
  EXPECT_NE(bench_cli::compare_json(picked).find("\"schedule\":\"default\",\"variant\":"
                                                 "\"outer\""),
            std::string::npos);
  one.peers = {"gomp/bogus"};
  try {
    (void)bench_cli::run_compare(one);
    ADD_FAILURE() << "gomp/bogus ran";
  } catch (const bench_cli::PeerError& e) {
    EXPECT_NE(std::string(e.what()).find("gomp has no loop variant 'bogus' (known: taskloop, "
                                         "outer, nested)"),
              std::string::npos)
        << e.what();
  }
}

// The static schedule is oneTBB's static_partitioner: of its variants only static runs
// under it, and one named that does not is a skipped series with the reason, never dropped.
// The peer's run is verified; the peer's line names the schedule it ran.
TEST(BenchCompareRun, PeerSchedulesFollowTheirVariants) {
  const std::vector<std::string> built = built_peers();
  if (std::find(built.begin(), built.end(), "tbb") == built.end()) GTEST_SKIP() << "no tbb peer";
  Options o = parse({"compare", "--workloads", "triangle-loops:30", "--workers", "2", "--steal",
                     "one", "--schedule", "static,dynamic:2", "--peers", "tbb,tbb/simple",
                     "--repeat", "1", "--peer-dir", WEFT_TEST_PEER_DIR});
  const bench_cli::CompareResult result = bench_cli::run_compare(o);
  std::vector<std::string> labels;
  for (const auto& run : result.workloads[0].runs) {
    labels.push_back(run.label() + (run.skipped.empty() ? "" : " (skipped)"));
    if (run.skipped.empty()) {
      EXPECT_EQ(run.result, result.workloads[0].runs[0].result) << run.label();
    }
  }
  EXPECT_EQ(labels,
            (std::vector<std::string>{"serial", "weft concurrent/one static w=2",
                                      "weft concurrent/one dynamic:2 w=2", "tbb/auto dynamic:2 w=2",
                                      "tbb/simple dynamic:2 w=2", "tbb/static static w=2",
                                      "tbb/static dynamic:2 w=2", "tbb/affinity dynamic:2 w=2",
                                      "tbb/simple static w=2 (skipped)"}));
  EXPECT_EQ(result.workloads[0].runs.back().skipped,
            "tbb does not run simple under static (these do: static)");
  const std::string program = std::string(WEFT_TEST_PEER_DIR) + "/weft-peer-tbb";
  EXPECT_EQ(bench_cli::peer_loop_variants(program, "static"), std::vector<std::string>{"static"});
  EXPECT_EQ(bench_cli::peer_loop_variants(program, "default").size(), 4u);
  const bench_cli::PeerRun run =
      bench_cli::run_peer(program, "empty-loop:1000", 2, "simple", "guided:8");
  EXPECT_TRUE(run.verified) << run.error;
  EXPECT_EQ(run.result, "iterations 1000");
}

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// --mechanism concurrent,request without peers: every weft run is one (mechanism, policy,
// workers), alternated once per repetition in that order after the serial elision, all
// verified; the table, the profile and the JSON name each run's mechanism.
// `labels` cut into blocks of `size` (one workload's repetition), each block sorted: the
// order within a block is the randomized one, the blocks' order is fixed.
std::vector<std::string> in_blocks(std::vector<std::string> labels, std::size_t size) {
  for (std::size_t i = 0; i + size <= labels.size(); i += size)
    std::sort(labels.begin() + static_cast<std::ptrdiff_t>(i),
              labels.begin() + static_cast<std::ptrdiff_t>(i + size));
  return labels;
}

TEST(BenchCompareRun, BothMechanismsAlternateAndAreNamed) {
  const Options o = parse({"compare", "--workloads", "fib:14,nqueens:6", "--peers", "none",
                           "--workers", "1,2", "--steal", "one,half", "--mechanism",
                           "concurrent,request", "--repeat", "2", "--profile", "--seed", "5"});
  std::vector<std::string> labels;
  const bench_cli::CompareResult result =
      bench_cli::run_compare(o, [&](int rep, int, const std::string& label) {
        labels.push_back(std::to_string(rep) + " " + label);
      });
  ASSERT_EQ(result.workloads.size(), 2u);
  std::vector<std::string> order;
  for (const char* mechanism : {"concurrent", "request"})
    for (const char* steal : {"one", "half"})
      for (const char* workers : {"1", "2"})
        order.push_back(std::string("weft ") + mechanism + "/" + steal + " w=" + workers);
  order.insert(order.begin(), "serial");
  std::vector<std::string> expected;
  for (int rep = 1; rep <= 2; ++rep)
    for (const char* spec : {"fib:14", "nqueens:6"})
      for (const std::string& label : order)
        expected.push_back(std::to_string(rep) + " " + spec + " " + label);
  EXPECT_EQ(in_blocks(labels, order.size()), in_blocks(expected, order.size()));
  EXPECT_NE(labels, expected) << "each block's order shuffled";
  for (const auto& w : result.workloads) {
    ASSERT_EQ(w.runs.size(), order.size()) << w.spec.text();
    for (std::size_t i = 0; i < w.runs.size(); ++i) {
      const bench_cli::CompareRun& run = w.runs[i];
      EXPECT_EQ(run.label(), order[i]);
      EXPECT_EQ(run.times.size(), 2u) << run.label();
      EXPECT_EQ(run.result, w.runs.front().result) << run.label();
      if (run.impl == "weft" && run.mechanism == weft::StealMechanism::kConcurrent) {
        EXPECT_EQ(run.counters.requests_served, 0u) << run.label();
      }
    }
    EXPECT_EQ(w.runs[5].mechanism, weft::StealMechanism::kRequest);
    EXPECT_TRUE(bench_cli::peer_ratios(w).empty());
  }
  const std::string table = bench_cli::compare_table(result);
  EXPECT_EQ(occurrences(table, "  weft request/"), 2u * 4u * 2u) << table;  // row and profile
  EXPECT_EQ(occurrences(table, "  weft concurrent/"), 2u * 4u * 2u) << table;
  const std::string json = bench_cli::compare_json(result);
  EXPECT_EQ(occurrences(json, "\"mechanism\":\"request\""), 2u * 4u) << json;
  EXPECT_EQ(occurrences(json, "\"mechanism\":\"concurrent\""), 2u * 4u) << json;
  // The serial runs have neither a mechanism nor a policy.
  EXPECT_EQ(occurrences(json, "\"mechanism\":null,\"steal\":null"), 2u) << json;
  EXPECT_EQ(occurrences(json, "\"steal\":null"), 2u) << json;
  EXPECT_EQ(occurrences(json, "\"requests_served\":"), 2u * 8u) << json;
  EXPECT_EQ(occurrences(json, "\"request_timeouts\":"), 2u * 8u) << json;
  EXPECT_EQ(occurrences(json, "\"profile\":{\"r_busy\":"), 2u * 8u) << json;
  EXPECT_EQ(occurrences(json, "\"membarrier_ns\":"), 2u * 8u) << json;
  // A request runtime's thieves pay no membarrier.
  EXPECT_GE(occurrences(json, "\"membarrier_ns\":0"), 2u * 4u) << json;
  EXPECT_NE(json.find("\"label\":\"weft request/half w=2\""), std::string::npos) << json;
}

// A weft run of a loop workload, built by hand.
bench_cli::CompareRun loop_run(weft::StealMechanism mechanism, bench_cli::LoopSettings loops,
                               unsigned workers, std::vector<double> times, bool show = true) {
  bench_cli::CompareRun r;
  r.impl = "weft";
  r.mechanism = mechanism;
  r.steal = "one";
  r.schedule = "dynamic:1";
  r.workers = workers;
  r.loop_settings = loops;
  r.show_loop_settings = show;
  r.times = std::move(times);
  r.result = "sum(x) = 1";
  return r;
}

// The paired ratios: a setting's first value over each other, repetition by repetition,
// between series alike in everything else (never across mechanisms or worker counts); named
// by the values, with what both share; in the table and the JSON beside the run objects'
// loop settings. Built by hand: the pairing must not depend on timing noise.
TEST(BenchCompareRun, WeftPairsPairRepetitionsOfSeriesDifferingInOneSetting) {
  using weft::AdaptiveFork;
  using weft::LoopFrames;
  using weft::LoopScheme;
  using weft::StealMechanism;
  const bench_cli::LoopSettings pcb{LoopScheme::kPcb, LoopFrames::kStack, AdaptiveFork::kOff};
  const bench_cli::LoopSettings dlist{LoopScheme::kDlist, LoopFrames::kStack, AdaptiveFork::kOff};
  bench_cli::CompareWorkload w{kernels::parse_spec("gauss-jordan:20"), {}, true, 400, {}, 3};
  w.runs.push_back(loop_run(StealMechanism::kConcurrent, pcb, 1, {0.5, 0.5, 0.5}));
  w.runs.front().impl = "serial";
  w.runs.front().loop_settings.reset();
  w.runs.push_back(loop_run(StealMechanism::kConcurrent, pcb, 1, {4.0, 4.0, 4.0}));
  w.runs.push_back(loop_run(StealMechanism::kConcurrent, pcb, 2, {1.0, 2.0, 3.0}));
  w.runs.push_back(loop_run(StealMechanism::kConcurrent, dlist, 1, {1.0, 2.0, 8.0}));
  w.runs.push_back(loop_run(StealMechanism::kConcurrent, dlist, 2, {2.0, 2.0, 2.0}));
  // Unpaired: it differs from every other series in two settings (mechanism and policy).
  w.runs.push_back(loop_run(StealMechanism::kRequest, dlist, 2, {9.0, 9.0, 9.0}));
  w.runs.back().steal = "half";
  EXPECT_EQ(w.runs[1].label(), "weft concurrent/one dynamic:1 pcb/stack/adapt=0 w=1");
  EXPECT_EQ(w.runs[3].weft_config(), "concurrent/one dynamic:1 dlist/stack/adapt=0");
  EXPECT_EQ(loop_run(StealMechanism::kConcurrent, pcb, 2, {}, false).label(),
            "weft concurrent/one dynamic:1 w=2");

  const std::vector<bench_cli::WeftPair> pairs = bench_cli::weft_pairs(w);
  ASSERT_EQ(pairs.size(), 2u);
  EXPECT_EQ(pairs[0].setting, "loops");
  EXPECT_EQ(pairs[0].name, "pcb/dlist");
  EXPECT_EQ(pairs[0].context, "concurrent/one dynamic:1 stack/adapt=0 w=1");
  EXPECT_EQ(pairs[0].a, &w.runs[1]);
  EXPECT_EQ(pairs[0].b, &w.runs[3]);
  EXPECT_DOUBLE_EQ(pairs[0].median, 2.0);  // 4/1, 4/2, 4/8
  EXPECT_DOUBLE_EQ(pairs[0].min, 0.5);
  EXPECT_DOUBLE_EQ(pairs[0].max, 4.0);
  EXPECT_EQ(pairs[1].a, &w.runs[2]);
  EXPECT_EQ(pairs[1].b, &w.runs[4]);
  EXPECT_DOUBLE_EQ(pairs[1].median, 1.0);  // 1/2, 2/2, 3/2
  EXPECT_DOUBLE_EQ(pairs[1].min, 0.5);
  EXPECT_DOUBLE_EQ(pairs[1].max, 1.5);

  bench_cli::CompareResult result;
  result.repeat = 3;
  result.workloads.push_back(w);
  const std::string table = bench_cli::compare_table(result);
  // Three repetitions decide nothing: the intervals are the ratios' whole range.
  EXPECT_NE(table.find("  weft settings, paired repetitions, median [interval] verdict (< 1: "
                       "the first faster):\n"
                       "    pcb/dlist 2.000 [0.500, 4.000] undecided n=3  concurrent/one "
                       "dynamic:1 stack/adapt=0 w=1\n"
                       "    pcb/dlist 1.000 [0.500, 1.500] undecided n=3  concurrent/one "
                       "dynamic:1 stack/adapt=0 w=2\n"),
            std::string::npos)
      << table;
  const std::string json = bench_cli::compare_json(result);
  EXPECT_NE(json.find("\"weft_pairs\":[{\"setting\":\"loops\",\"name\":\"pcb/dlist\","
                      "\"a\":\"weft concurrent/one dynamic:1 pcb/stack/adapt=0 w=1\","
                      "\"b\":\"weft concurrent/one dynamic:1 dlist/stack/adapt=0 w=1\","
                      "\"workers\":1,\"median\":2,\"min\":0.5,\"max\":4,\"ratio_median\":2,"
                      "\"ci_low\":0.5,\"ci_high\":4,\"confidence\":0.95,\"verdict\":\"undecided\","
                      "\"n\":3},"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"label\":\"serial\",\"loops\":null,\"frames\":null,"
                      "\"adaptive_fork\":null,\"defaults\":null,"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"label\":\"weft request/half dynamic:1 dlist/stack/adapt=0 w=2\","
                      "\"loops\":\"dlist\",\"frames\":\"stack\",\"adaptive_fork\":\"0\","
                      "\"defaults\":false,"),
            std::string::npos)
      << json;

  // One value per setting: nothing to pair, and no table lines.
  w.runs.resize(3);
  EXPECT_TRUE(bench_cli::weft_pairs(w).empty());
  result.workloads = {w};
  EXPECT_EQ(bench_cli::compare_table(result).find("weft settings"), std::string::npos);
  EXPECT_NE(bench_cli::compare_json(result).find("\"weft_pairs\":[]"), std::string::npos);
}

// The frame home and adaptive fork are named by their values, the latter prefixed. Built by
// hand, as above.
TEST(BenchCompareRun, WeftPairsNameFrameHomesAndAdaptiveForksByTheirValues) {
  using weft::AdaptiveFork;
  using weft::LoopFrames;
  using weft::LoopScheme;
  using weft::StealMechanism;
  bench_cli::CompareWorkload f{kernels::parse_spec("gauss-jordan:20"), {}, true, 400, {}, 2};
  f.runs.push_back(loop_run(StealMechanism::kConcurrent,
                            {LoopScheme::kPcb, LoopFrames::kStack, AdaptiveFork::kOff}, 1,
                            {0.5, 0.5, 0.5}));
  f.runs.front().impl = "serial";
  f.runs.front().loop_settings.reset();
  for (const LoopFrames frames : {LoopFrames::kPool, LoopFrames::kStack})
    for (const AdaptiveFork adaptive : {AdaptiveFork::kLazy, AdaptiveFork::kOn})
      f.runs.push_back(loop_run(StealMechanism::kConcurrent, {LoopScheme::kSplit, frames, adaptive},
                                2, {1.0, 3.0}));
  std::vector<std::string> named;
  for (const bench_cli::WeftPair& p : bench_cli::weft_pairs(f))
    named.push_back(p.name + " " + p.context);
  EXPECT_EQ(named,
            (std::vector<std::string>{"pool/stack concurrent/one dynamic:1 split/adapt=lazy w=2",
                                      "pool/stack concurrent/one dynamic:1 split/adapt=1 w=2",
                                      "adapt=lazy/1 concurrent/one dynamic:1 split/pool w=2",
                                      "adapt=lazy/1 concurrent/one dynamic:1 split/stack w=2"}));
}

// A fork-join workload's weft series pair by mechanism and by policy where --mechanism or
// --steal gave two values or more: each first value's series over each other value's, all
// else alike; no schedule or loop setting pairs (they do not apply there). Built by hand.
TEST(BenchCompareRun, WeftPairsPairMechanismsAndPoliciesOnForkJoinWorkloads) {
  bench_cli::CompareWorkload w{kernels::parse_spec("fib:10"), {}, false, 0, {}, 2};
  bench_cli::CompareRun serial;
  serial.impl = "serial";
  serial.times = {1.0, 1.0};
  w.runs.push_back(serial);
  for (const weft::StealMechanism m :
       {weft::StealMechanism::kConcurrent, weft::StealMechanism::kRequest})
    for (const char* steal : {"adaptive", "one", "half"}) {
      bench_cli::CompareRun r;
      r.impl = "weft";
      r.mechanism = m;
      r.steal = steal;
      r.workers = 2;
      r.times = {m == weft::StealMechanism::kRequest ? 2.0 : 1.0, 4.0};
      w.runs.push_back(r);
    }
  std::vector<std::string> named;
  for (const bench_cli::WeftPair& p : bench_cli::weft_pairs(w))
    named.push_back(p.setting + " " + p.name + " " + p.context);
  EXPECT_EQ(named,
            (std::vector<std::string>{
                "mechanism concurrent/request adaptive w=2", "mechanism concurrent/request one w=2",
                "mechanism concurrent/request half w=2", "steal adaptive/one concurrent w=2",
                "steal adaptive/one request w=2", "steal adaptive/half concurrent w=2",
                "steal adaptive/half request w=2"}));
  const std::vector<bench_cli::WeftPair> pairs = bench_cli::weft_pairs(w);
  EXPECT_EQ(pairs[0].a, &w.runs[1]);
  EXPECT_EQ(pairs[0].b, &w.runs[4]);
  EXPECT_DOUBLE_EQ(pairs[0].min, 0.5);  // 1/2, 4/4
  EXPECT_DOUBLE_EQ(pairs[0].max, 1.0);

  // The pairs are claims: planned with the others, and in the table under "weft settings".
  std::size_t settings = 0;
  for (const bench_cli::ComparePair& p : bench_cli::plan_pairs(w))
    if (p.kind == "setting") ++settings;
  EXPECT_EQ(settings, 7u);
  bench_cli::CompareResult result;
  result.repeat = 2;
  result.workloads.push_back(w);
  const std::string table = bench_cli::compare_table(result);
  EXPECT_NE(table.find("  weft settings, paired repetitions"), std::string::npos) << table;
  EXPECT_NE(table.find("    concurrent/request 0.750 [0.500, 1.000] undecided n=2  adaptive w=2\n"),
            std::string::npos)
      << table;

  // One mechanism and one policy: nothing to pair.
  w.runs.resize(2);
  EXPECT_TRUE(bench_cli::weft_pairs(w).empty());
}

// --loops end to end: on a loop workload one weft series per scheme, alternated within each
// repetition, verified, labelled with the settings, paired in the table and the JSON; a
// fork-join workload ignores the settings (as it does --schedule): one weft series, labelled
// and in the JSON as without them.
TEST(BenchCompareRun, LoopSettingsSeriesAlternateAndArePaired) {
  const Options o = parse({"compare", "--workloads", "gauss-jordan:20,fib:10", "--workers", "2",
                           "--steal", "one", "--schedule", "dynamic:1", "--loops", "pcb,dlist",
                           "--adaptive", "0", "--repeat", "2", "--peers", "none"});
  std::vector<std::string> labels;
  const bench_cli::CompareResult result =
      bench_cli::run_compare(o, [&](int rep, int, const std::string& label) {
        labels.push_back(std::to_string(rep) + " " + label);
      });
  ASSERT_EQ(result.workloads.size(), 2u);
  const std::string frames = weft::loop_frames_name(weft::Config::from_env().loop_frames);
  const std::string pcb = "weft concurrent/one dynamic:1 pcb/" + frames + "/adapt=0 w=2";
  const std::string dlist = "weft concurrent/one dynamic:1 dlist/" + frames + "/adapt=0 w=2";
  std::vector<std::string> expected;
  for (int rep = 1; rep <= 2; ++rep) {
    for (const std::string& label : {std::string("serial"), pcb, dlist})
      expected.push_back(std::to_string(rep) + " gauss-jordan:20 " + label);
    for (const std::string& label : {std::string("serial"), std::string("weft concurrent/one w=2")})
      expected.push_back(std::to_string(rep) + " fib:10 " + label);
  }
  std::vector<std::string> sorted_labels = labels, sorted_expected = expected;
  std::sort(sorted_labels.begin(), sorted_labels.end());
  std::sort(sorted_expected.begin(), sorted_expected.end());
  EXPECT_EQ(sorted_labels, sorted_expected);
  EXPECT_EQ(labels[0].substr(0, 18), "1 gauss-jordan:20 ");
  EXPECT_EQ(labels[3].substr(0, 9), "1 fib:10 ");

  const bench_cli::CompareWorkload& loops = result.workloads[0];
  ASSERT_EQ(loops.runs.size(), 3u);
  for (const auto& run : loops.runs) {
    EXPECT_EQ(run.times.size(), 2u) << run.label();
    EXPECT_EQ(run.result, loops.runs.front().result) << run.label();
  }
  ASSERT_TRUE(loops.runs[2].loop_settings.has_value());
  EXPECT_EQ(loops.runs[2].loop_settings->scheme, weft::LoopScheme::kDlist);
  EXPECT_EQ(loops.runs[2].loop_settings->adaptive, weft::AdaptiveFork::kOff);
  const std::vector<bench_cli::WeftPair> pairs = bench_cli::weft_pairs(loops);
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].a, &loops.runs[1]);
  EXPECT_EQ(pairs[0].b, &loops.runs[2]);
  EXPECT_GT(pairs[0].median, 0.0);
  EXPECT_LE(pairs[0].min, pairs[0].median);
  EXPECT_GE(pairs[0].max, pairs[0].median);

  const bench_cli::CompareWorkload& fib = result.workloads[1];
  ASSERT_EQ(fib.runs.size(), 2u);
  EXPECT_FALSE(fib.runs[1].loop_settings.has_value());
  EXPECT_EQ(fib.runs[1].result, fib.runs[0].result);
  EXPECT_TRUE(bench_cli::weft_pairs(fib).empty());

  const std::string table = bench_cli::compare_table(result);
  EXPECT_EQ(occurrences(table, "  weft settings, paired repetitions"), 1u) << table;
  EXPECT_EQ(occurrences(table, "\n    pcb/dlist "), 1u) << table;
  EXPECT_NE(table.find("  " + dlist + " "), std::string::npos) << table;
  const std::string json = bench_cli::compare_json(result);
  EXPECT_NE(json.find("\"weft_pairs\":[{\"setting\":\"loops\",\"name\":\"pcb/dlist\",\"a\":\"" +
                      pcb + "\",\"b\":\"" + dlist + "\",\"workers\":2,\"median\":"),
            std::string::npos)
      << json;
  EXPECT_EQ(occurrences(json, "\"adaptive_fork\":\"0\""), 2u) << json;
  EXPECT_NE(json.find("\"label\":\"weft concurrent/one w=2\",\"loops\":null,\"frames\":null,"
                      "\"adaptive_fork\":null"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"weft_pairs\":[]}]}"), std::string::npos) << json;  // fib's, last
}

// The weft/peer ratio takes weft's best (mechanism, policy) at the peer's worker count, and
// the table and JSON name both. Built by hand: the choice must not depend on timing noise.
// weft's run for a peer is chosen before the times are known: the defaults' series where
// one ran at the peer's worker count, else the first listed, never the fastest.
TEST(BenchCompareRun, PeerRatioTakesWeftsPreRegisteredSeries) {
  bench_cli::CompareWorkload w{kernels::parse_spec("fib:10"), {}, false, 0, {}, 6};
  const auto run = [](std::string impl, weft::StealMechanism m, std::string steal, unsigned workers,
                      std::vector<double> times) {
    bench_cli::CompareRun r;
    r.impl = std::move(impl);
    r.mechanism = m;
    r.steal = std::move(steal);
    r.workers = workers;
    r.times = std::move(times);
    r.result = "fib(10) = 55";
    return r;
  };
  using weft::StealMechanism;
  const std::vector<double> six(6, 4.0);
  w.runs.push_back(run("serial", StealMechanism::kConcurrent, "", 1, six));
  w.runs.push_back(run("weft", StealMechanism::kConcurrent, "one", 2, {3, 3, 3, 3, 3, 3}));
  w.runs.push_back(run("weft", StealMechanism::kConcurrent, "half", 2, {1, 1, 1, 1, 1, 1}));
  w.runs.push_back(run("weft", StealMechanism::kRequest, "half", 2, {2, 2, 2, 2, 2, 2}));
  w.runs.push_back(run("weft", StealMechanism::kRequest, "half", 1, {5, 5, 5, 5, 5, 5}));
  w.runs.push_back(run("tbb", StealMechanism::kConcurrent, "", 2, {4, 4, 4, 4, 4, 4}));
  // No defaults among them: the first at 2 workers, though "half" is faster.
  std::vector<bench_cli::PeerRatio> ratios = bench_cli::peer_ratios(w);
  ASSERT_EQ(ratios.size(), 1u);
  EXPECT_EQ(ratios[0].weft, &w.runs[1]);
  EXPECT_DOUBLE_EQ(ratios[0].median, 0.75);
  // The defaults' series wherever it stands.
  w.runs[3].defaults = true;
  ratios = bench_cli::peer_ratios(w);
  ASSERT_EQ(ratios.size(), 1u);
  EXPECT_EQ(ratios[0].weft, &w.runs[3]);
  EXPECT_DOUBLE_EQ(ratios[0].min, 0.5);
  EXPECT_DOUBLE_EQ(ratios[0].max, 0.5);
  bench_cli::CompareResult result;
  result.repeat = 6;
  result.workloads.push_back(w);
  const std::string table = bench_cli::compare_table(result);
  EXPECT_NE(table.find("0.500 [0.500, 0.500] ahead     n=6  request/half"), std::string::npos)
      << table;
  // Seven claims: four weft/serial, one weft/peer, concurrent/half over request/half and
  // concurrent/one over concurrent/half (weft_pairs).
  EXPECT_NE(table.find("pairs: 7; 7 decided (5 ahead, 0 level, 2 behind), 0 undecided"),
            std::string::npos)
      << table;
  const std::string json = bench_cli::compare_json(result);
  EXPECT_NE(json.find("\"weft_mechanism\":\"request\",\"weft_steal\":\"half\""), std::string::npos)
      << json;
  EXPECT_NE(json.find("{\"kind\":\"weft/peer\",\"name\":\"weft/tbb\",\"a\":\"weft "
                      "request/half w=2\",\"b\":\"tbb w=2\",\"workers\":2,\"ratio_median\":0.5,"
                      "\"ci_low\":0.5,\"ci_high\":0.5,\"confidence\":0.95,\"verdict\":\"ahead\","
                      "\"n\":6,"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("{\"impl\":\"tbb\",\"mechanism\":null,"), std::string::npos) << json;
}

}  // namespace
