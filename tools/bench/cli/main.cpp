// weft-bench: UTS and Fibonacci sweeps over implementations, steal policies and worker
// counts, the side-by-side comparison with the peer runtimes, and the user-level thread
// benchmarks (weft-bench --help). The work is
// in the weft_bench_cli library; this file only maps its outcomes to streams and exit codes: 0
// done, 1 a wrong result or an I/O failure, 2 a bad argument or WEFT_* variable.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <string_view>
#include <utility>
#include <vector>
#include <weft/config.hpp>

#include "tools/bench/cli/args.hpp"
#include "tools/bench/cli/compare.hpp"
#include "tools/bench/cli/compare_report.hpp"
#include "tools/bench/cli/interrupt.hpp"
#include "tools/bench/cli/peer_process.hpp"
#include "tools/bench/cli/report.hpp"
#include "tools/bench/cli/sweep.hpp"
#include "tools/bench/cli/threads_report.hpp"
#include "tools/bench/cli/trace_json.hpp"
#include "workloads/common/output_file.hpp"

namespace {

// A progress line only for a person watching: redirected stderr stays clean.
bench_cli::Progress make_progress() {
  if (isatty(STDERR_FILENO) == 0) return {};
  return [](int rep, int repeat, const std::string& label) {
    if (repeat > 0) {
      std::fprintf(stderr, "\r\033[K[rep %d/%d] %s ...", rep, repeat, label.c_str());
    } else {  // --until-decided: no end known
      std::fprintf(stderr, "\r\033[K[rep %d] %s ...", rep, label.c_str());
    }
    std::fflush(stderr);
  };
}

void clear_progress(const bench_cli::Progress& progress) {
  if (progress) std::fprintf(stderr, "\r\033[K");
}

// "-" is standard output.
int write_file(const std::string& path, const std::string& text, const char* what) {
  if (path == "-") {
    if (std::fputs(text.c_str(), stdout) >= 0 && std::fflush(stdout) == 0) return 0;
    std::fprintf(stderr, "weft-bench: cannot write the %s to standard output\n", what);
    return 1;
  }
  const std::string error = bench_cli::replace_file(path, text);
  if (!error.empty()) {
    std::fprintf(stderr, "weft-bench: %s: cannot write the %s file: %s\n", path.c_str(), what,
                 error.c_str());
    return 1;
  }
  return 0;
}

// weft-bench --count-instructions [--json FILE] [--jobs N]: per-operation costs as callgrind's
// instruction counts, which are the evidence for a per-operation claim (docs/MEASURING.md).
// weft-instructions (tools/bench/instructions, built beside tools/bench/cli) does the counting;
// this replaces the process with it. Returns only if it cannot be started.
int exec_instruction_counter(int argc, char** argv) {
  char self[4096];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  std::string dir = n > 0 ? std::string(self, static_cast<std::size_t>(n)) : std::string(".");
  dir = dir.substr(0, dir.rfind('/'));
  const std::string program = dir + "/../instructions/weft-instructions";
  std::vector<char*> args{const_cast<char*>(program.c_str())};
  for (int i = 1; i < argc; ++i) args.push_back(argv[i]);
  args.push_back(nullptr);
  execv(program.c_str(), args.data());
  std::fprintf(stderr, "weft-bench: --count-instructions: cannot run %s: %s\n", program.c_str(),
               std::strerror(errno));
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  if (!args.empty() && args[0] == "--count-instructions")
    return exec_instruction_counter(argc, argv);
  bench_cli::Options options;
  try {
    options = bench_cli::parse_args(args);
  } catch (const bench_cli::UsageError& e) {
    std::fprintf(stderr, "weft-bench: %s\n", e.what());
    return 2;
  } catch (const weft::ConfigError& e) {  // a bad WEFT_* variable read for a default
    std::fprintf(stderr, "weft-bench: %s\n", e.what());
    return 2;
  }
  if (options.command == bench_cli::Command::kHelp) {
    std::fputs(bench_cli::usage().c_str(), stdout);
    return 0;
  }
  // Fail before a long sweep, not after it, when an output file cannot be written; without
  // creating it, so that an interrupted run leaves no empty file.
  for (const auto& [flag, path] :
       {std::pair{"--json", options.json}, std::pair{"--trace", options.trace}}) {
    if (path.empty() || path == "-") continue;
    const std::string error = bench_cli::check_replaceable(path);
    if (!error.empty()) {
      std::fprintf(stderr, "weft-bench: %s %s: cannot write there: %s\n", flag, path.c_str(),
                   error.c_str());
      return 2;
    }
  }
  options.command_line.assign(argv, argv + argc);
  options.threads.command_line = options.command_line;
  bench_cli::forward_interrupts_to_children();
  const bench_cli::Progress progress = make_progress();
  try {
    std::string table, json, trace;
    // A line per look of --until-decided, terminal or not: a long sitting's log says how it
    // went.
    const auto look_report = [&progress, &options](const std::string& line) {
      clear_progress(progress);
      std::fprintf(stderr, "weft-bench %s: %s\n", bench_cli::command_name(options.command),
                   line.c_str());
    };
    if (options.command == bench_cli::Command::kUts) {
      const auto result = bench_cli::run_uts(options, progress, look_report);
      table = bench_cli::uts_table(result);
      json = bench_cli::uts_json(result);
      if (!options.trace.empty()) trace = bench_cli::chrome_trace(result.records);
    } else if (options.command == bench_cli::Command::kCompare) {
      const auto result = bench_cli::run_compare(options, progress, look_report);
      table = bench_cli::compare_table(result);
      json = bench_cli::compare_json(result);
    } else if (options.command == bench_cli::Command::kThreads) {
      const auto result = bench_threads::run_threads(options.threads, progress);
      table = bench_cli::threads_table(result);
      json = bench_cli::threads_json(result);
    } else {
      const auto result = bench_cli::run_fib(options, progress, look_report);
      table = bench_cli::fib_table(result);
      json = bench_cli::fib_json(result);
      if (!options.trace.empty()) trace = bench_cli::chrome_trace(result.records);
    }
    clear_progress(progress);
    // With --json - or --trace -, standard output is that document's alone.
    const bool document_on_stdout = options.json == "-" || options.trace == "-";
    std::fputs(table.c_str(), document_on_stdout ? stderr : stdout);
    int status = 0;
    if (!options.json.empty()) status |= write_file(options.json, json, "JSON");
    if (!options.trace.empty()) status |= write_file(options.trace, trace, "trace");
    return status;
  } catch (const weft::ConfigError& e) {  // a bad WEFT_* variable: a usage error too
    clear_progress(progress);
    std::fprintf(stderr, "weft-bench: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    clear_progress(progress);
    std::fprintf(stderr, "weft-bench: %s\n", e.what());
    return 1;
  }
}
