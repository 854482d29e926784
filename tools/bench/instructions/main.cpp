// weft-instructions: what each of weft's operations costs, as instruction counts measured with
// valgrind --tool=callgrind, which are deterministic where times are not.
//
//   weft-instructions [--count-instructions] [--json FILE] [--jobs N]
//   weft-instructions --region NAME --size N [--mechanism request|concurrent]   (internal)
//
// The plain run re-executes this program under callgrind once per (region, size), with
// collection switched off at the start and on only around the region's work (regions.hpp),
// reads the instructions collected from callgrind's summary, and prints per operation
//   (count(size b) - count(size a)) / (operations(b) - operations(a)),
// so that start-up, the runtime's construction and the region's fixed costs cancel; and the
// same less the serial baseline's difference ("over serial": fork-join forms against the plain
// recursion, each spawn+join against its two calls; the loop against a plain loop of the same
// body). 1 worker. --count-instructions is the plain run by another name (weft-bench's
// --count-instructions execs it); --json FILE writes the figures as JSON too; --jobs N runs N
// valgrinds at a time (the counts do not depend on it).
//
// The mechanism. The concurrent mechanism (the default) pops a task inline only where the
// kernel offers the expedited private membarrier; without it the process runs in the fence
// mode, whose joins settle out of line with a fence, ~20 instructions more. What valgrind does:
// 3.19 (Debian 12) passes membarrier through to the kernel; on Linux 6.18 MEMBARRIER_CMD_QUERY
// answers under valgrind as natively and the registration succeeds, so under callgrind the
// concurrent mechanism runs its native code and counts exactly what the request mechanism
// counts (whose owner code is the same inline pop, as scripts/bench_lace.sh says). The regions
// run under the request mechanism, which needs no membarrier and so counts the same on any
// valgrind; one row repeats spawn+join under the concurrent mechanism, and the table says
// whether valgrind offered membarrier (where it does not, that row counts the fence mode).
//
// Against the scripts' counts (the same differencing, at other sizes): instr/op is what
// scripts/bench_core.sh's own awk gave as "weft: N instructions per spawn (its two calls
// included)", 49.00 from fib(30) to fib(35), and bench_lace.sh's instr/spawn (its noexcept
// and invoke forms, ~35-36 there, are 36.40 and 35.49 here). "over serial" differs by a
// fraction of an instruction (bench_core.sh's 30.05 is 29.70 here) because GCC compiles the
// serial recursion partly into a loop, so its cost per call depends on the sizes and the copy
// (19.30 here from fib(25) to fib(30), 18.95 in weft-fib-demo from fib(30) to fib(35)); the
// sizes here are bench_lace.sh's, whose serial recursion is this one.
//
// Exit status: 0 done; 1 a region failed (its result was wrong, or valgrind failed), with its
// output; 2 a bad argument, or no valgrind on PATH.
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "regions.hpp"
#include "workloads/common/flags.hpp"
#include "workloads/common/text_format.hpp"

extern char** environ;

namespace {

using bench_instructions::Region;

// The flags, parsed into Options; the checks that span them run after the table's parse.
struct Options {
  // The plain run's.
  std::string json_path;
  unsigned jobs = 1;
  bool plain_flags = false;  // --count-instructions, --json or --jobs given
  // One region's (internal: how the plain run runs each region under valgrind).
  std::string region;
  long size = -1;  // -1: not given
  std::string mechanism = "request";
  bool mechanism_given = false;
  bool help = false;
};

using common::UsageError;

common::FlagTable flag_table(Options& o) {
  return common::FlagTable({
      {"--count-instructions", "", "the plain run (what weft-bench --count-instructions execs)",
       [&o](std::string_view) { o.plain_flags = true; }},
      {"--json", "FILE", "also write the figures as JSON",
       [&o](std::string_view v) {
         if (v.empty()) throw UsageError("--json", "needs a file name");
         o.json_path = v;
         o.plain_flags = true;
       }},
      {"--jobs", "N", "run N valgrinds at a time, 1 to 64 (default 1; the counts do not\nchange)",
       [&o](std::string_view v) {
         o.jobs =
             static_cast<unsigned>(common::parse_integer(common::argument("--jobs", v), v, 1, 64));
         o.plain_flags = true;
       }},
      {"--region", "NAME", "(internal) run one region, as valgrind runs it: one of those below",
       [&o](std::string_view v) {
         o.region = v;
         if (bench_instructions::find_region(o.region) == nullptr) {
           throw UsageError(common::argument("--region", v), "no such region");
         }
       }},
      {"--size", "N", "(internal) fib(N), N chunks or N yields per thread",
       [&o](std::string_view v) {
         o.size = static_cast<long>(
             common::parse_integer(common::argument("--size", v), v, 1, 10'000'000));
       }},
      {"--mechanism", "M", "(internal) the steal mechanism: request (default) or concurrent",
       [&o](std::string_view v) {
         if (v != "request" && v != "concurrent") {
           throw UsageError(common::argument("--mechanism", v), "expected request or concurrent");
         }
         o.mechanism = v;
         o.mechanism_given = true;
       }},
  });
}

std::string help_text() {
  Options scratch;
  std::string text =
      "weft-instructions: the instructions each weft operation costs, counted with valgrind\n"
      "--tool=callgrind on 1 worker: per spawn+join of each fork-join form, per chunk of a\n"
      "parallel loop, per yield of a user-level thread, per spawn+join of the C interface.\n"
      "\n"
      "usage: weft-instructions [--count-instructions] [--json FILE] [--jobs N]\n"
      "       weft-instructions --region NAME --size N [--mechanism request|concurrent]\n"
      "\n" +
      flag_table(scratch).options_help() + "\nThe regions (--region NAME):\n";
  for (const Region& r : bench_instructions::regions()) {
    text += common::format("  %-14s %s\n", r.name, r.what);
  }
  return text +
         "\nEach figure is (count(b) - count(a)) / (operations(b) - operations(a)) for two sizes "
         "a\n"
         "and b, so fixed costs cancel; \"over serial\" takes the serial baseline's difference "
         "off\n"
         "as well. valgrind must be on PATH.\n";
}

// The flags, with the checks that span them; throws UsageError.
Options parse(const std::vector<std::string_view>& args) {
  Options o;
  o.help = !flag_table(o).parse(args);
  if (o.help) return o;
  const bool region_flags = !o.region.empty() || o.size >= 0 || o.mechanism_given;
  if (!region_flags) return o;
  if (o.plain_flags) {
    throw UsageError("--region",
                     "runs one region; --json, --jobs and --count-instructions "
                     "do not apply");
  }
  if (o.region.empty()) throw UsageError(o.size >= 0 ? "--size" : "--mechanism", "needs --region");
  if (o.size < 0) throw UsageError("--region", "needs --size");
  const long most = bench_instructions::max_size(*bench_instructions::find_region(o.region));
  if (o.size > most) {
    throw UsageError("--size " + std::to_string(o.size),
                     "region " + o.region + " takes 1 to " + std::to_string(most));
  }
  return o;
}

// ---- The table's rows ---------------------------------------------------------------------

struct Row {
  const char* operation;
  const char* form;
  const char* region;
  const char* baseline;  // the serial region, or nullptr: no "over serial"
  const char* mechanism;
  long sizes[2];
};

// Sizes: counts are exact, so small ones suffice; large enough that the per-operation figure
// is an average over thousands of operations.
// fib(25) and fib(30) as scripts/bench_lace.sh counts them: the serial recursion, which GCC
// compiles partly into a loop, costs a little more or less per call at other sizes.
constexpr long kFibA = 25, kFibB = 30;        // 121392 and 1346268 spawns
constexpr long kVectorA = 20, kVectorB = 25;  // a FutureVector allocates: ~800 a spawn
constexpr long kChunksA = 1000, kChunksB = 2000;
constexpr long kYieldsA = 500, kYieldsB = 1000;  // per thread: 1000 and 2000 switches

const std::vector<Row> kRows{
    {"spawn+join", "spawn", "spawn", "serial", "request", {kFibA, kFibB}},
    {"spawn+join", "noexcept", "noexcept", "serial", "request", {kFibA, kFibB}},
    {"spawn+join", "spawn, no cleanup", "no-cleanup", "serial", "request", {kFibA, kFibB}},
    {"spawn+join", "invoke", "invoke", "serial", "request", {kFibA, kFibB}},
    {"spawn+join", "ctx invoke", "ctx-invoke", "serial", "request", {kFibA, kFibB}},
    {"spawn+join", "ctx spawn", "ctx-spawn", "serial", "request", {kFibA, kFibB}},
    {"spawn+join", "scope", "scope", "serial", "request", {kFibA, kFibB}},
    {"spawn+join", "spawn_if", "spawn_if", "serial", "request", {kFibA, kFibB}},
    {"spawn+join", "future_vector", "future_vector", "serial", "request", {kVectorA, kVectorB}},
    {"spawn+join", "spawn/concurrent", "spawn", "serial", "concurrent", {kFibA, kFibB}},
    {"cut-off node", "invoke_if(false)", "invoke-if", "serial", "request", {kFibA, kFibB}},
    {"spawn+join", "c weft_spawn", "c-spawn", "c-serial", "request", {kFibA, kFibB}},
    {"spawn+join", "c weft_spawn_nothrow", "c-nothrow", "c-serial", "request", {kFibA, kFibB}},
    {"loop chunk",
     "parallel_for dynamic:1",
     "loop",
     "loop-serial",
     "request",
     {kChunksA, kChunksB}},
    {"thread yield", "yield fifo", "yield-fifo", nullptr, "request", {kYieldsA, kYieldsB}},
    {"thread yield", "yield lifo", "yield-lifo", nullptr, "request", {kYieldsA, kYieldsB}},
    {"thread yield", "yield df", "yield-df", nullptr, "request", {kYieldsA, kYieldsB}},
    {"thread yield", "yield dfd", "yield-dfd", nullptr, "request", {kYieldsA, kYieldsB}},
};

// ---- Running the regions under callgrind --------------------------------------------------

using RunKey = std::tuple<std::string, long, std::string>;  // region, size, mechanism

struct RunResult {
  long long instructions = -1;
  bool membarrier = false;
  std::string valgrind_version;
};

std::optional<std::string> find_on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path != nullptr ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    struct stat st {};
    if (stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
        access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
  }
  return std::nullopt;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The text after `tag` on the first line holding it, or "".
std::string after(const std::string& text, const std::string& tag) {
  const std::size_t at = text.find(tag);
  if (at == std::string::npos) return "";
  const std::size_t from = at + tag.size();
  return text.substr(from, text.find('\n', from) - from);
}

// A directory of the runs' logs, removed with them at the end.
class LogDir {
 public:
  LogDir() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern =
        std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/weft-instructions.XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) {
      std::fprintf(stderr, "weft-instructions: cannot make a directory %s: %s\n", pattern.c_str(),
                   std::strerror(errno));
      std::exit(1);
    }
    path_ = pattern;
  }
  ~LogDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  LogDir(const LogDir&) = delete;
  LogDir& operator=(const LogDir&) = delete;
  std::string file(std::size_t i) const { return path_ + "/run" + std::to_string(i) + ".log"; }

 private:
  std::string path_;
};

class Runner {
 public:
  Runner(std::string valgrind, std::string self, unsigned jobs)
      : valgrind_(std::move(valgrind)), self_(std::move(self)), jobs_(jobs) {}

  void add(const RunKey& key) {
    if (results_.count(key) == 0) {
      results_[key] = {};
      order_.push_back(key);
    }
  }

  // Runs every run added, `jobs` at a time; exits with status 1 if one fails.
  void run_all() {
    const bool progress = isatty(STDERR_FILENO) == 1;
    std::map<pid_t, std::size_t> running;
    std::size_t next = 0, done = 0;
    while (done < order_.size()) {
      while (next < order_.size() && running.size() < jobs_) {
        running[start(next)] = next;
        ++next;
      }
      if (progress) {
        const auto& [region, size, mechanism] = order_[next - 1];
        std::fprintf(stderr, "\r\033[Kweft-instructions: callgrind run %zu of %zu (%s, size %ld%s)",
                     next, order_.size(), region.c_str(), size,
                     mechanism == "request" ? "" : (", " + mechanism).c_str());
      }
      int status = 0;
      const pid_t pid = waitpid(-1, &status, 0);
      if (pid < 0) {
        if (errno == EINTR) continue;
        std::perror("weft-instructions: waitpid");
        std::exit(1);
      }
      const auto it = running.find(pid);
      if (it == running.end()) continue;
      const std::size_t i = it->second;
      running.erase(it);
      ++done;
      collect(i, status, progress);
    }
    if (progress) std::fprintf(stderr, "\r\033[K");
  }

  const RunResult& result(const RunKey& key) const { return results_.at(key); }

 private:
  pid_t start(std::size_t i) {
    const auto& [region, size, mechanism] = order_[i];
    const std::vector<std::string> argv{valgrind_,
                                        "--tool=callgrind",
                                        "--callgrind-out-file=/dev/null",
                                        "--collect-atstart=no",
                                        self_,
                                        "--region",
                                        region,
                                        "--size",
                                        std::to_string(size),
                                        "--mechanism",
                                        mechanism};
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const std::string log = logs_.file(i);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    pid_t pid = -1;
    const int rc = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) {
      std::fprintf(stderr, "weft-instructions: cannot run %s: %s\n", valgrind_.c_str(),
                   std::strerror(rc));
      std::exit(1);
    }
    return pid;
  }

  void collect(std::size_t i, int status, bool progress) {
    const auto& [region, size, mechanism] = order_[i];
    const std::string log = read_file(logs_.file(i));
    RunResult& r = results_[order_[i]];
    const std::string collected = after(log, "Collected : ");
    const std::string line = after(log, "region " + region + " size " + std::to_string(size));
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && !collected.empty() && !line.empty()) {
      r.instructions = std::strtoll(collected.c_str(), nullptr, 10);
      r.membarrier = line.find("membarrier yes") != std::string::npos;
      r.valgrind_version = after(log, "Using Valgrind-");
      r.valgrind_version = r.valgrind_version.substr(0, r.valgrind_version.find(' '));
      return;
    }
    if (progress) std::fprintf(stderr, "\r\033[K");
    std::fprintf(stderr,
                 "weft-instructions: the region %s at size %ld (%s mechanism) failed under "
                 "callgrind (%s %d); its output:\n%s",
                 region.c_str(), size, mechanism.c_str(),
                 WIFEXITED(status) ? "exit status" : "signal",
                 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), log.c_str());
    std::exit(1);
  }

  std::string valgrind_, self_;
  unsigned jobs_;
  LogDir logs_;
  std::vector<RunKey> order_;
  std::map<RunKey, RunResult> results_;
};

// ---- The figures --------------------------------------------------------------------------

struct Figure {
  const Row* row;
  long ops[2];
  long long counts[2];
  long long baseline_counts[2];
  double per_op;
  std::optional<double> over_serial;
};

std::string compiler() {
#if defined(__clang__)
  return std::string("Clang ") + __clang_version__;
#elif defined(__GNUC__)
  return common::format("GCC %d.%d.%d", __GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__);
#else
  return "unknown";
#endif
}

std::string sizes_text(const Region& region, const long sizes[2]) {
  switch (region.unit) {
    case bench_instructions::Unit::kFibSpawns:
      return common::format("fib(%ld), fib(%ld)", sizes[0], sizes[1]);
    case bench_instructions::Unit::kChunks:
      return common::format("%ld, %ld chunks", sizes[0], sizes[1]);
    case bench_instructions::Unit::kYieldSwitches:
      return common::format("%ld, %ld yields", 2 * sizes[0], 2 * sizes[1]);
  }
  return "";
}

std::string json(const std::vector<Figure>& figures, const std::string& valgrind_version,
                 bool membarrier) {
  using common::number;
  using common::quote;
  std::ostringstream out;
  out << "{\"unit\":\"instructions\",\"tool\":\"valgrind --tool=callgrind\",\"valgrind\":"
      << quote(valgrind_version) << ",\"compiler\":" << quote(compiler())
      << ",\"workers\":1,\"membarrier_under_valgrind\":" << (membarrier ? "true" : "false")
      << ",\"per_operation\":[";
  bool first = true;
  for (const Figure& f : figures) {
    out << (first ? "" : ",") << "{\"operation\":" << quote(f.row->operation)
        << ",\"form\":" << quote(f.row->form) << ",\"region\":" << quote(f.row->region)
        << ",\"mechanism\":" << quote(f.row->mechanism) << ",\"instructions\":" << number(f.per_op)
        << ",\"over_serial\":" << (f.over_serial ? number(*f.over_serial) : "null")
        << ",\"baseline\":" << (f.row->baseline != nullptr ? quote(f.row->baseline) : "null")
        << ",\"sizes\":[" << f.row->sizes[0] << "," << f.row->sizes[1] << "],\"operations\":["
        << f.ops[0] << "," << f.ops[1] << "],\"counts\":[" << f.counts[0] << "," << f.counts[1]
        << "]";
    if (f.row->baseline != nullptr) {
      out << ",\"baseline_counts\":[" << f.baseline_counts[0] << "," << f.baseline_counts[1] << "]";
    }
    out << "}";
    first = false;
  }
  out << "]}\n";
  return out.str();
}

int count_instructions(const std::string& json_path, unsigned jobs) {
  const std::optional<std::string> valgrind = find_on_path("valgrind");
  if (!valgrind) {
    std::fprintf(stderr,
                 "weft-instructions: valgrind not found on PATH; it counts the instructions "
                 "(Debian: apt-get install valgrind)\n");
    return 2;
  }
  std::error_code ec;
  const std::string self = std::filesystem::read_symlink("/proc/self/exe", ec).string();
  if (ec) {
    std::fprintf(stderr, "weft-instructions: /proc/self/exe: %s\n", ec.message().c_str());
    return 1;
  }
  Runner runner(*valgrind, self, jobs);
  for (const Row& row : kRows) {
    for (long size : row.sizes) {
      runner.add({row.region, size, row.mechanism});
      if (row.baseline != nullptr) runner.add({row.baseline, size, "request"});
    }
  }
  runner.run_all();

  std::vector<Figure> figures;
  std::string version;
  bool membarrier = false;
  for (const Row& row : kRows) {
    const Region& region = *bench_instructions::find_region(row.region);
    Figure f{&row, {}, {}, {}, 0.0, std::nullopt};
    for (int i = 0; i < 2; ++i) {
      const RunResult& r = runner.result({row.region, row.sizes[i], row.mechanism});
      f.ops[i] = bench_instructions::operations(region, row.sizes[i]);
      f.counts[i] = r.instructions;
      if (std::string(row.mechanism) == "concurrent") membarrier = r.membarrier;
      version = r.valgrind_version;
      if (row.baseline != nullptr) {
        f.baseline_counts[i] = runner.result({row.baseline, row.sizes[i], "request"}).instructions;
      }
    }
    const double ops = static_cast<double>(f.ops[1] - f.ops[0]);
    f.per_op = static_cast<double>(f.counts[1] - f.counts[0]) / ops;
    if (row.baseline != nullptr) {
      f.over_serial = static_cast<double>((f.counts[1] - f.counts[0]) -
                                          (f.baseline_counts[1] - f.baseline_counts[0])) /
                      ops;
    }
    figures.push_back(f);
  }

  std::printf(
      "instructions per operation: valgrind %s --tool=callgrind, 1 worker, built with %s;\n"
      "(count(b) - count(a)) / (operations(b) - operations(a)); request mechanism unless "
      "named\n(membarrier under valgrind: %s)\n",
      version.c_str(), compiler().c_str(),
      membarrier ? "yes, so the concurrent mechanism counts its native code"
                 : "no, so the concurrent mechanism counts its fence mode");
  std::printf("%-13s %-23s %9s %12s  %-22s %s\n", "operation", "form", "instr/op", "over serial",
              "sizes a, b", "baseline");
  for (const Figure& f : figures) {
    const Region& region = *bench_instructions::find_region(f.row->region);
    std::printf("%-13s %-23s %9.2f %12s  %-22s %s\n", f.row->operation, f.row->form, f.per_op,
                f.over_serial ? common::format("%.2f", *f.over_serial).c_str() : "-",
                sizes_text(region, f.row->sizes).c_str(),
                f.row->baseline != nullptr ? f.row->baseline : "-");
  }

  if (!json_path.empty()) {
    std::ofstream out(json_path);
    out << json(figures, version, membarrier);
    out.close();
    if (!out) {
      std::fprintf(stderr, "weft-instructions: cannot write %s\n", json_path.c_str());
      return 1;
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  try {
    o = parse(std::vector<std::string_view>(argv + 1, argv + argc));
  } catch (const UsageError& e) {
    std::fprintf(stderr, "weft-instructions: %s\n", e.what());
    return 2;
  }
  if (o.help) {
    std::fputs(help_text().c_str(), stdout);
    return 0;
  }
  if (o.region.empty()) return count_instructions(o.json_path, o.jobs);
  try {
    return bench_instructions::run_region(*bench_instructions::find_region(o.region), o.size,
                                          o.mechanism);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "weft-instructions: %s\n", e.what());
    return 1;
  }
}
