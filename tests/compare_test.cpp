// weft-bench compare: its arguments, the peer protocol's parsing, and a small comparison run
// end to end against the peer programs this build made (none in sanitizer builds, where
// every peer must then be reported as skipped, never dropped).
#include "cli/compare.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "bench_args_support.hpp"
#include "cli/args.hpp"
#include "cli/compare_report.hpp"
#include "cli/peer_process.hpp"
#include "peers/peer_cli.hpp"
#include "workloads/suite.hpp"

namespace {

using weft_bench::Command;
using weft_bench::Options;
using weft_bench::UsageError;

using bench_test::error_of;
using bench_test::parse;

TEST(BenchCompareArgs, DefaultsAreIssueFoursTable) {
  const Options o = parse({"compare"});
  EXPECT_EQ(o.command, Command::kCompare);
  EXPECT_EQ(o.workers, std::vector<unsigned>{2});
  EXPECT_EQ(o.steal, (std::vector<std::string>{"one", "half"}));
  EXPECT_EQ(o.repeat, 3);
  EXPECT_EQ(o.workload_specs,
            (std::vector<std::string>{"fib:35", "uts:T3", "nqueens:13", "strassen:1024",
                                      "sparselu:50x100", "fft:2^22", "sort:1e7", "matmul:1024"}));
  EXPECT_EQ(o.peers, (std::vector<std::string>{"gomp", "libomp", "tbb", "rayon"}));
}

TEST(BenchCompareArgs, Settings) {
  const Options o = parse({"compare", "--workloads", "fib,strassen:2048", "--peers", "tbb,gomp,tbb",
                           "--peer-dir", "/x", "--workers", "1,2", "--steal", "fixed:20"});
  EXPECT_EQ(o.workload_specs, (std::vector<std::string>{"fib:35", "strassen:2048"}));
  EXPECT_EQ(o.peers, (std::vector<std::string>{"tbb", "gomp"}));
  EXPECT_EQ(o.peer_dir, "/x");
  EXPECT_TRUE(parse({"compare", "--peers", "none"}).peers.empty());
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
  EXPECT_EQ(error_of({"compare", "--trace", "t.json"}), "--trace: unknown option");
  EXPECT_EQ(error_of({"uts", "--workloads", "fib"}), "--workloads: unknown option");
  EXPECT_EQ(error_of({"compare", "--peer-dir", ""}), "--peer-dir: empty directory name");
}

TEST(BenchCompareArgs, WorkloadSpecs) {
  EXPECT_EQ(workloads::parse_spec("sparselu").text(), "sparselu:50x100");
  EXPECT_EQ(workloads::parse_spec("fft:2^10").size, "2^10");
  EXPECT_EQ(workloads::workload_list().size(), 8u);
  EXPECT_THROW((void)workloads::parse_spec("fib:51"), workloads::SizeError);
  EXPECT_THROW((void)workloads::parse_spec(""), workloads::SizeError);
}

TEST(BenchComparePeerProtocol, ArgumentsAndLine) {
  const std::vector<std::string_view> args{"--workload", "fib:12",   "--workers",
                                           "3",          "--repeat", "2"};
  const peers::PeerOptions o = peers::parse_peer_args(args);
  EXPECT_EQ(o.spec.text(), "fib:12");
  EXPECT_EQ(o.workers, 3);
  EXPECT_EQ(o.repeat, 2);
  workloads::Outcome out{0.25, "fib(12) = 144", ""};
  const std::string line = peers::outcome_line("x", o, out);
  EXPECT_EQ(weft_bench::json_field(line, "seconds"), "0.250000000");
  EXPECT_EQ(weft_bench::json_field(line, "result"), "fib(12) = 144");
  EXPECT_EQ(weft_bench::json_field(line, "verified"), "true");
  out.error = "wrong \"value\"\n";
  const std::string bad = peers::outcome_line("x", o, out);
  EXPECT_EQ(weft_bench::json_field(bad, "verified"), "false");
  EXPECT_EQ(weft_bench::json_field(bad, "error"), "wrong \"value\"\n");
  EXPECT_THROW((void)weft_bench::json_field(line, "absent"), weft_bench::PeerError);

  const auto error_of_peer = [](std::vector<std::string_view> a) -> std::string {
    try {
      (void)peers::parse_peer_args(a);
    } catch (const workloads::SizeError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(error_of_peer({"--workers", "2"}), "--workload: is required");
  EXPECT_EQ(error_of_peer({"--workload", "fib"}), "--workers: is required");
  EXPECT_EQ(error_of_peer({"--workload", "fib", "--workers", "0"}),
            "--workers: '0' is out of range [1, 4096]");
  EXPECT_EQ(error_of_peer({"--bogus"}), "--bogus: unknown option");
  EXPECT_EQ(error_of_peer({"--workload"}), "--workload: needs a value");
}

TEST(BenchComparePeerProtocol, APeerThatBreaksTheProtocolIsAnError) {
  // /bin/true answers nothing: never a silent zero time.
  EXPECT_THROW((void)weft_bench::run_peer("/bin/true", "fib:10", 1), weft_bench::PeerError);
  EXPECT_THROW((void)weft_bench::run_peer("/nonexistent/peer", "fib:10", 1), weft_bench::PeerError);
  EXPECT_TRUE(weft_bench::peer_workloads("/nonexistent/peer").empty());
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
  const weft_bench::CompareResult result = weft_bench::run_compare(o);
  ASSERT_EQ(result.workloads.size(), 3u);
  const std::vector<std::string> built = built_peers();
  for (const auto& w : result.workloads) {
    // serial + 2 policies x 2 worker counts + 4 peers x 2 worker counts, none dropped.
    ASSERT_EQ(w.runs.size(), 1u + 4u + 8u) << w.spec.text();
    EXPECT_EQ(w.runs.front().impl, "serial");
    for (const auto& run : w.runs) {
      const bool built_peer = std::find(built.begin(), built.end(), run.impl) != built.end();
      const bool rayon_lacks = run.impl == "rayon" && w.spec.name == "sort";
      if (run.is_peer() && (!built_peer || rayon_lacks)) {
        EXPECT_FALSE(run.skipped.empty()) << run.label();
        EXPECT_TRUE(run.times.empty());
      } else {
        EXPECT_TRUE(run.skipped.empty()) << run.label() << ": " << run.skipped;
        EXPECT_EQ(run.times.size(), 2u) << run.label();
        EXPECT_EQ(run.result, w.runs.front().result) << run.label();
      }
    }
  }
  const std::string table = weft_bench::compare_table(result);
  EXPECT_NE(table.find("fib:16"), std::string::npos);
  EXPECT_NE(table.find("weft half w=2"), std::string::npos);
  const std::string json = weft_bench::compare_json(result);
  EXPECT_EQ(json.rfind("{\"command\":\"compare\"", 0), 0u);
  EXPECT_NE(json.find("\"ratios\":["), std::string::npos);
}

}  // namespace
