#include "tools/sim/cli/record_cli.hpp"

#include <chrono>
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tools/sim/calibrate/calibrate_steps.hpp"
#include "tools/sim/calibrate/spawn_overhead.hpp"
#include "tools/sim/cli/cli_args.hpp"
#include "tools/sim/dag/dag_median.hpp"
#include "tools/sim/dag/dag_recorder.hpp"
#include "tools/sim/dag/dag_scale.hpp"
#include "tools/sim/dag/record_par.hpp"
#include "tools/sim/dag/task_call_par.hpp"
#include "tools/sim/dag/wdag_file.hpp"
#include "workloads/common/output_file.hpp"
#include "workloads/kernels/suite.hpp"

namespace sim {
namespace {

constexpr int kMaxRepeat = 99;

struct RecordArgs {
  std::string workload;
  std::string out;
  int repeat = 1;
  bool help = false;
};

// record's flags, parsed into `args`.
common::FlagTable record_flags(RecordArgs& args) {
  return common::FlagTable({
      {"--workload", "NAME:SIZE", "the compare workload to record (required)",
       [&args](std::string_view v) { args.workload = std::string(v); }},
      {"--out", "FILE.wdag", "the .wdag file to write (required)",
       [&args](std::string_view v) { args.out = std::string(v); }},
      repeat_flag(args.repeat, kMaxRepeat,
                  "recorded runs, each strand's median time kept; as many serial\n"
                  "runs time the task calls (default 1)"),
  });
}

std::string record_usage() {
  RecordArgs scratch;
  return "usage: weft-sim record --workload NAME:SIZE --out FILE.wdag [--repeat 1]\n" +
         record_flags(scratch).options_help() +
         "Runs a compare workload (weft-bench compare's names and sizes, e.g. strassen:1024,\n"
         "sparselu:50x100, fft:2^20, nqueens:12) serially, spawning where weft does, and\n"
         "writes its task DAG with each strand's measured time (docs/WDAG.md). With\n"
         "--repeat R it runs R times and keeps each strand's median time (the runs must\n"
         "spawn alike). Every run's output is verified as compare verifies it. Then it\n"
         "times R untimed serial runs with weft's task calls (each scope child called\n"
         "through a function pointer from a slot, as weft's join calls it) and scales\n"
         "every strand so that the work sums to the median of those (plus weft's own\n"
         "costs the recording adds): a timed strand runs slower than untimed code\n"
         "(docs/SIMULATOR.md, \"Recorded DAGs\").\n"
         "Exit 1 if one is wrong, 2 for bad arguments.\n";
}

// "" or what is wrong.
std::string parse(int argc, char** argv, RecordArgs& args) {
  const std::string error = parse_subcommand(record_flags(args), argc, argv, args.help);
  if (!error.empty() || args.help) return error;
  if (args.workload.empty()) return "record needs --workload NAME:SIZE";
  if (args.out.empty()) return "record needs --out FILE";
  return "";
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// One verified recording of `spec`; throws std::runtime_error if its output is wrong.
Dag record_once(const kernels::Spec& spec, std::uint64_t clock_cost_ps, std::string& result,
                std::uint64_t& added_ps) {
  const std::string name = spec.text();
  const auto start = std::chrono::steady_clock::now();
  // A line a second at most: a short recording says nothing until its summary.
  double reported = 1;
  DagRecorder recorder(clock_cost_ps, [&](std::uint64_t tasks) {
    if (const double s = seconds_since(start); s >= reported) {
      std::fprintf(stderr, "weft-sim record: %s: %llu tasks, %.1f s\n", name.c_str(),
                   static_cast<unsigned long long>(tasks), s);
      reported = s + 1;
    }
  });
  RecordPar par(recorder);
  const kernels::Outcome outcome = kernels::run_spec(spec, par);
  if (!outcome.error.empty()) throw std::runtime_error("wrong output: " + outcome.error);
  result = outcome.result;
  std::fprintf(stderr, "weft-sim record: %s: the recorded run took %.2f s (%.2f s in all)\n",
               name.c_str(), outcome.seconds, seconds_since(start));
  added_ps = recorder.added_ps();
  return recorder.finish(name);
}

// The median time of `repeat` verified serial runs with weft's task calls (TaskCallPar), in
// ps.
std::uint64_t task_call_ps(const kernels::Spec& spec, int repeat) {
  std::vector<double> seconds;
  for (int r = 0; r < repeat; ++r) {
    TaskCallPar serial;
    const kernels::Outcome outcome = kernels::run_spec(spec, serial);
    if (!outcome.error.empty()) throw std::runtime_error("wrong output: " + outcome.error);
    seconds.push_back(outcome.seconds);
  }
  return static_cast<std::uint64_t>(spread(std::move(seconds)).median * 1e12);
}

}  // namespace

int record_command(int argc, char** argv) {
  RecordArgs args;
  if (const std::string e = parse(argc, argv, args); !e.empty()) {
    std::fprintf(stderr, "weft-sim: %s\n%s", e.c_str(), record_usage().c_str());
    return 2;
  }
  if (args.help) {
    std::fputs(record_usage().c_str(), stdout);
    return 0;
  }
  kernels::Spec spec;
  try {
    spec = kernels::parse_spec(args.workload);
  } catch (const kernels::SizeError& e) {
    std::fprintf(stderr, "weft-sim: --workload %s\n", e.what());
    return 2;
  }
  // Refused before the recording, not after it.
  if (const std::string e = bench_cli::check_replaceable(args.out); !e.empty()) {
    std::fprintf(stderr, "weft-sim: --out %s: %s\n", args.out.c_str(), e.c_str());
    return 2;
  }
  const std::string name = spec.text();
  const std::uint64_t clock_cost_ps = measure_clock_cost_ps();
  std::fprintf(stderr, "weft-sim record: %s: a clock read costs %.1f ns\n", name.c_str(),
               static_cast<double>(clock_cost_ps) / 1000);
  const auto start = std::chrono::steady_clock::now();
  std::string result;
  Dag dag;
  double scale = 1;
  try {
    std::vector<Dag> runs;
    std::uint64_t added_ps = 0;  // the same in every run: it depends on the spawns alone
    for (int r = 0; r < args.repeat; ++r) {
      runs.push_back(record_once(spec, clock_cost_ps, result, added_ps));
    }
    dag = median_dag(runs);
    const double recorded_s = static_cast<double>(dag.work_units() * dag.unit_ps) / 1e12;
    const std::uint64_t serial_ps = task_call_ps(spec, args.repeat);
    scale = work_scale_to_serial(dag, serial_ps, added_ps);
    scale_work(dag, scale);
    std::fprintf(stderr,
                 "weft-sim record: %s: the serial run with weft's task calls took %.4f s "
                 "(median of %d), the "
                 "recorded work %.4f s (of which weft's own costs %.4f s): strands scaled by "
                 "%.3f\n",
                 name.c_str(), static_cast<double>(serial_ps) / 1e12, args.repeat, recorded_s,
                 static_cast<double>(added_ps) / 1e12, scale);
    std::fprintf(stderr,
                 "weft-sim record: %s: weft's cost beyond a spawn and join, added to the work "
                 "of the task that pays it: %s\n",
                 name.c_str(), spawn_overheads_text().c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "weft-sim: record %s: %s (nothing written)\n", name.c_str(), e.what());
    return 1;
  }
  const std::string bytes = encode_wdag(dag);
  if (const std::string e = bench_cli::replace_file(args.out, bytes); !e.empty()) {
    std::fprintf(stderr, "weft-sim: --out %s: %s\n", args.out.c_str(), e.c_str());
    return 2;
  }
  std::printf(
      "%s: %llu tasks, %llu ops, work %.3f ms (strands scaled by %.3f to the serial run), "
      "%zu bytes in %s (%s; %d run%s, %.2f s)\n",
      name.c_str(), static_cast<unsigned long long>(dag.tasks()),
      static_cast<unsigned long long>(dag.ops.size()),
      static_cast<double>(dag.work_units() * dag.unit_ps) / 1e9, scale, bytes.size(),
      args.out.c_str(), result.c_str(), args.repeat, args.repeat == 1 ? "" : "s",
      seconds_since(start));
  return 0;
}

}  // namespace sim
