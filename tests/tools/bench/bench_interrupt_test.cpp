// weft-bench as a process that gets interrupted: a SIGTERM, SIGINT or SIGKILL in the middle
// of a compare run ends the peer it is running too, weft-bench dies of that signal, and the --json
// file is the old one or none, never an empty one; a run that completes replaces it. The peer is
// a stand-in script in a --peer-dir of the test's own, which writes its pid and then sleeps
// where a real peer would compute, so the test knows when the run is in the middle and which
// process must be gone.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "process_support.hpp"
#include "temp_dir_support.hpp"

namespace {

namespace fs = std::filesystem;
using process_test::kPatience;

// A fresh directory holding the stand-in peer weft-peer-gomp.
class FakePeerDir : public file_test::TempDir {
 public:
  FakePeerDir() {
    std::ofstream script(*this / "weft-peer-gomp");
    script << "#!/bin/sh\n"
              "# A peer that lists fib, then sleeps where it would compute.\n"
              "if [ \"$1\" = --list ]; then echo 'fib 35'; exit 0; fi\n"
              "d=$(dirname \"$0\")\n"
              "echo $$ >\"$d/peer.pid.part\" && mv \"$d/peer.pid.part\" \"$d/peer.pid\"\n"
              "exec sleep 600\n";
    script.close();
    fs::permissions(*this / "weft-peer-gomp", fs::perms::owner_all);
  }
};

struct Interrupted {
  int bench_status = -1;  // weft-bench's wait status; -1 if it had to be killed
  pid_t peer = -1;        // -1 if the peer never started
  bool peer_ended = false;
  std::string output;  // weft-bench's stdout and stderr
};

// Runs `weft-bench compare` on the stand-in peer with `extra` arguments, sends `sig` once
// the peer runs, and waits (bounded) for weft-bench and then the peer to end. Whatever is
// left running at the end is killed.
Interrupted interrupt_compare(const FakePeerDir& dir, int sig, std::vector<std::string> extra) {
  std::vector<std::string> argv{WEFT_TEST_BENCH, "compare", "--workloads", "fib:10",
                                "--peers",       "gomp",    "--peer-dir",  dir.path().string(),
                                "--workers",     "1",       "--steal",     "one",
                                "--repeat",      "1"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  const std::string log = (dir.path() / "bench.out").string();
  Interrupted r;
  const pid_t bench = process_test::start(argv, log);
  if (bench < 0) return r;
  const fs::path pid_file = dir.path() / "peer.pid";
  if (process_test::wait_until([&] { return fs::exists(pid_file); }))
    r.peer = std::stoi(process_test::read_file(pid_file.string()));
  kill(bench, sig);
  if (const auto status = process_test::wait_for_exit(bench)) {
    r.bench_status = *status;
  } else {
    kill(bench, SIGKILL);
    (void)waitpid(bench, nullptr, 0);
  }
  if (r.peer > 0) {
    r.peer_ended = process_test::wait_until([&] { return !process_test::runs(r.peer); });
    if (!r.peer_ended) kill(r.peer, SIGKILL);
  }
  r.output = process_test::read_file(log);
  return r;
}

// SIGKILL cannot be caught, so no handler passes it on: the peer dies with weft-bench
// through the parent-death signal it was started with.
TEST(BenchInterrupt, SignalEndsTheRunningPeerAndWeftBench) {
  for (const int sig : {SIGTERM, SIGINT, SIGKILL}) {
    SCOPED_TRACE(sig == SIGTERM ? "SIGTERM" : sig == SIGINT ? "SIGINT" : "SIGKILL");
    const FakePeerDir dir;
    const Interrupted r = interrupt_compare(dir, sig, {});
    ASSERT_GT(r.peer, 0) << "the stand-in peer never ran; weft-bench said:\n" << r.output;
    EXPECT_TRUE(r.peer_ended) << "the peer " << r.peer << " still ran " << kPatience.count()
                              << " s after weft-bench was interrupted";
    ASSERT_NE(r.bench_status, -1) << "weft-bench did not end";
    EXPECT_TRUE(WIFSIGNALED(r.bench_status) && WTERMSIG(r.bench_status) == sig)
        << "wait status " << r.bench_status << "; weft-bench said:\n"
        << r.output;
  }
}

// The files in `dir` that weft-bench may have written: the test's own are left out.
std::vector<std::string> written(const file_test::TempDir& dir) {
  std::vector<std::string> names;
  for (const std::string& name : dir.entries())
    if (name != "weft-peer-gomp" && name != "peer.pid" && name != "bench.out")
      names.push_back(name);
  return names;
}

TEST(BenchInterrupt, InterruptedRunLeavesNoEmptyJson) {
  const FakePeerDir dir;
  const Interrupted r = interrupt_compare(dir, SIGTERM, {"--json", dir / "new.json"});
  ASSERT_GT(r.peer, 0) << "the stand-in peer never ran; weft-bench said:\n" << r.output;
  EXPECT_EQ(written(dir), std::vector<std::string>{});  // no new.json, no temporary file
}

TEST(BenchInterrupt, InterruptedRunKeepsTheOldJson) {
  const FakePeerDir dir;
  std::ofstream(dir / "old.json") << "{\"old\":true}\n";
  const Interrupted r = interrupt_compare(dir, SIGTERM, {"--json", dir / "old.json"});
  ASSERT_GT(r.peer, 0) << "the stand-in peer never ran; weft-bench said:\n" << r.output;
  EXPECT_EQ(written(dir), std::vector<std::string>{"old.json"});
  EXPECT_EQ(process_test::read_file(dir / "old.json"), "{\"old\":true}\n");
}

TEST(BenchInterrupt, CompletedRunReplacesTheJsonWhole) {
  const file_test::TempDir dir;
  std::ofstream(dir / "out.json") << "{\"old\":true}\n";
  const pid_t bench =
      process_test::start({WEFT_TEST_BENCH, "fib", "12", "--workers", "1", "--repeat", "1",
                           "--json", dir / "out.json", "--trace", dir / "trace.json"},
                          dir / "bench.out");
  ASSERT_GT(bench, 0);
  const auto status = process_test::wait_for_exit(bench);
  if (!status) kill(bench, SIGKILL);
  ASSERT_TRUE(status && WIFEXITED(*status) && WEXITSTATUS(*status) == 0)
      << process_test::read_file(dir / "bench.out");
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"bench.out", "out.json", "trace.json"}));
  const std::string json = process_test::read_file(dir / "out.json");
  EXPECT_EQ(json.rfind("{\"benchmark\":\"fib\"", 0), 0u) << json;
  EXPECT_NE(process_test::read_file(dir / "trace.json").find("traceEvents"), std::string::npos);
}

}  // namespace
