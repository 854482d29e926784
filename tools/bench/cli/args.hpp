// weft-bench's command line: the subcommands, their options and a strict parser, a table of
// flags per subcommand (workloads/common/flags.hpp). Every bad argument becomes one
// UsageError whose message is "<argument>: <what is wrong>", so that main prints exactly one
// line and the tests can check each message.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>
#include <weft/config.hpp>

#include "tools/bench/threads/threads_bench.hpp"
#include "workloads/common/flags.hpp"
#include "workloads/uts/presets.hpp"
#include "workloads/uts/tree.hpp"
#include "workloads/uts/uts_weft.hpp"

namespace bench_cli {

using UsageError = common::UsageError;

enum class Command { kHelp, kUts, kFib, kCompare, kThreads };
enum class Impl { kSeq, kWeft, kThreads };

std::string_view impl_name(Impl impl);
// "uts", "fib", "compare", "threads", "help"
const char* command_name(Command command);

// When the weft UTS traversal stops spawning (Olivier & Prins Sect. 4.4). Either way the
// children not spawned run at once on the caller, so the counts stay exact.
struct Cutoff : uts::SpawnCutoff {
  std::string spec() const;  // "none", "level:L", "tasks:K": what parse_cutoff accepts
};

// Parses "none", "level:L" (L >= 0) or "tasks:K" (K >= 1); throws UsageError for --cutoff.
Cutoff parse_cutoff(std::string_view spec);

// A byte count as "16384", "64K", "1M" or "1G" (K, M, G: powers of 1024) in [lo, hi]; throws
// UsageError naming `argument`.
std::size_t parse_bytes(std::string_view argument, std::string_view text, std::size_t lo,
                        std::size_t hi);

// Parses --mechanism's list ("concurrent,request"), each name once in the order given;
// throws UsageError naming --mechanism and the allowed names.
std::vector<weft::StealMechanism> parse_mechanisms(std::string_view text);

// One weft run's loop settings: Config::loops, loop_frames and adaptive_fork.
struct LoopSettings {
  weft::LoopScheme scheme = weft::LoopScheme::kPcb;
  weft::LoopFrames frames = weft::LoopFrames::kStack;
  weft::AdaptiveFork adaptive = weft::AdaptiveFork::kOn;
  // "pcb/stack/adapt=1", as compare labels a run with them
  std::string text() const;
  bool operator==(const LoopSettings&) const = default;
};

// Parse --loops, --frames and --adaptive's lists ("pcb,dlist"), each name once in the order
// given; throw UsageError naming the option, the value and the names allowed (the Config
// field table's: weft::parse_loop_scheme and the like).
std::vector<weft::LoopScheme> parse_loop_schemes(std::string_view text);
std::vector<weft::LoopFrames> parse_loop_frames(std::string_view text);
std::vector<weft::AdaptiveFork> parse_adaptive_forks(std::string_view text);

struct Options {
  Command command = Command::kHelp;
  // Shared by all subcommands. Every weft run is one (mechanism, steal policy, workers).
  std::vector<weft::StealMechanism> mechanisms{weft::StealMechanism::kConcurrent};
  // The steal policies, each parsed once: `steal` as typed (the labels and the JSON show the
  // spelling given, so fixed:02 stays fixed:02) and `steal_policies` what it means, in the
  // same order. uts, fib and compare default to the runtime's own policy (WEFT_STEAL, else
  // adaptive).
  std::vector<std::string> steal{"one"};
  std::vector<weft::StealPolicy> steal_policies{weft::StealPolicy::one()};
  std::vector<unsigned> workers{1, 2};
  int repeat = 5;
  std::string json;      // "" = no JSON file
  bool profile = false;  // the execution profile of every weft run (Config::profile)
  std::string trace;     // "" = no Chrome/Perfetto trace file
  // uts
  std::string tree_name = "T3";         // the preset's name, or "custom" when flags were given
  const uts::Preset* preset = nullptr;  // set only when the tree is exactly a preset
  uts::TreeParams tree;
  std::vector<Impl> impls{Impl::kSeq, Impl::kWeft, Impl::kThreads};  // always starts with kSeq
  std::size_t chunk = 64;
  Cutoff cutoff;
  // fib
  int fib_n = 35;
  // compare
  std::vector<std::string> workload_specs;  // each accepted by kernels::parse_spec
  std::vector<std::string> peers;           // names from known_peers(), each maybe "/VARIANT"
  // Loop workloads: weft's schedules, one series each (Schedule::spec()); empty = the one
  // the Config from the environment names.
  std::vector<std::string> schedules;
  // Loop workloads: weft's loop settings (--loops, --frames, --adaptive), every combination
  // its own series; an empty list takes the Config from the environment's value.
  std::vector<weft::LoopScheme> loop_schemes;
  std::vector<weft::LoopFrames> loop_frames;
  std::vector<weft::AdaptiveFork> adaptive_forks;
  std::string peer_dir;  // "" = default_peer_dir()
  // How repetitions become claims (tools/bench/stats). --seed: the randomized order of every
  // repetition and the bootstrap's resamples (default: drawn from std::random_device, and
  // printed, so that a sitting can be replayed). compare --until-decided: add repetitions
  // until every pair has a verdict or --budget seconds are spent; --repeat is then the
  // first look (default 10). --resamples: per interval, at least 2000.
  std::uint64_t seed = 0;
  bool until_decided = false;
  double budget_s = 600;
  int resamples = 10000;
  // The program's name and arguments, as the documents record them (set by main).
  std::vector<std::string> command_line;
  // threads: what to run (its repeat and workers are copied from the shared fields above,
  // workers only when --workers was given: each benchmark has its own default).
  bench_threads::Settings threads;

  // Whether any of --loops, --frames and --adaptive was given (compare's labels then show
  // every weft loop series' settings).
  bool loop_settings_given() const {
    return !loop_schemes.empty() || !loop_frames.empty() || !adaptive_forks.empty();
  }
};

// Every combination of --loops, --frames and --adaptive (in that nesting, each in the order
// given), an empty list taking Config::from_env()'s value.
std::vector<LoopSettings> loop_settings(const Options& o);

// The trace's cap: events kept per worker of each weft runtime (32 bytes each in memory,
// about 100 in the file), so a trace of a long sweep stays a file a browser can open.
inline constexpr std::size_t kTraceEventsPerWorker = 50000;

// Parses the arguments after the program name. Throws UsageError.
Options parse_args(std::span<const std::string_view> args);

// The Config of one weft run: the other WEFT_* knobs (pinning, task slots, seed) come from
// the environment, as in weft-fib-demo; --mechanism, --steal and --workers override
// WEFT_MECHANISM, WEFT_STEAL and WEFT_WORKERS, `loops` (compare's --loops, --frames and
// --adaptive) WEFT_LOOPS, WEFT_LOOP_FRAMES and WEFT_ADAPTIVE_FORK, and --profile turns the
// profile on.
weft::Config weft_run_config(const Options& o, weft::StealMechanism mechanism,
                             const weft::StealPolicy& steal, unsigned workers,
                             const LoopSettings* loops = nullptr);

// The --help text.
std::string usage();

}  // namespace bench_cli
