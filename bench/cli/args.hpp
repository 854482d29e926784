// weft-bench's command line: the subcommands, their options and a strict parser. Every bad
// argument becomes one UsageError whose message is "<argument>: <what is wrong>", so that
// main prints exactly one line and the tests can check each message.
#pragma once

#include "uts/uts_weft.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "uts/presets.hpp"
#include "uts/tree.hpp"

namespace weft_bench {

class UsageError : public std::runtime_error {
 public:
  UsageError(std::string_view argument, std::string_view what)
      : std::runtime_error(std::string(argument) + ": " + std::string(what)) {}
};

enum class Command { kHelp, kUts, kFib, kCompare };
enum class Impl { kSeq, kWeft, kThreads };

std::string_view impl_name(Impl impl);

// When the weft UTS traversal stops spawning (Olivier & Prins Sect. 4.4). Either way the
// children not spawned run at once on the caller, so the counts stay exact.
struct Cutoff : uts::SpawnCutoff {
  std::string spec() const;  // "none", "level:L", "tasks:K": what parse_cutoff accepts
};

// Parses "none", "level:L" (L >= 0) or "tasks:K" (K >= 1); throws UsageError for --cutoff.
Cutoff parse_cutoff(std::string_view spec);

struct Options {
  Command command = Command::kHelp;
  // Shared by both subcommands.
  std::vector<std::string> steal{"one"};  // each accepted by weft::StealPolicy::parse
  std::vector<unsigned> workers{1, 2};
  int repeat = 5;
  std::string json;  // "" = no JSON file
  bool profile = false;  // the execution profile of every weft run (Config::profile)
  std::string trace;     // "" = no Chrome/Perfetto trace file
  // uts
  std::string tree_name = "T3";     // the preset's name, or "custom" when flags were given
  const uts::Preset* preset = nullptr;  // set only when the tree is exactly a preset
  uts::TreeParams tree;
  std::vector<Impl> impls{Impl::kSeq, Impl::kWeft, Impl::kThreads};  // always starts with kSeq
  std::size_t chunk = 64;
  Cutoff cutoff;
  // fib
  int fib_n = 35;
  // compare
  std::vector<std::string> workload_specs;  // each accepted by workloads::parse_spec
  std::vector<std::string> peers;           // names from known_peers()
  std::string peer_dir;                     // "" = default_peer_dir()
};

// The trace's cap: events kept per worker of each weft runtime (32 bytes each in memory,
// about 100 in the file), so a trace of a long sweep stays a file a browser can open.
inline constexpr std::size_t kTraceEventsPerWorker = 50000;

// Parses the arguments after the program name. Throws UsageError.
Options parse_args(std::span<const std::string_view> args);

// The --help text.
std::string usage();

}  // namespace weft_bench
