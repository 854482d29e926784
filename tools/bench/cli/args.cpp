#include "tools/bench/cli/args.hpp"

#include <algorithm>
#include <charconv>
#include <iterator>
#include <limits>
#include <random>
#include <system_error>
#include <weft/config.hpp>

#include "tools/bench/cli/compare.hpp"
#include "workloads/common/output_file.hpp"
#include "workloads/kernels/suite.hpp"
#include "workloads/uts/tree_flags.hpp"

namespace bench_cli {
namespace {

std::string workload_names() {
  std::string names;
  for (const auto& w : kernels::workload_list())
    names += (names.empty() ? "" : ", ") + std::string(w.name) + ":" + std::string(w.default_size);
  return names;
}

std::string known_presets() {
  std::string names;
  for (const auto& p : uts::presets()) names += (names.empty() ? "" : ", ") + std::string(p.name);
  return names;
}

// Each spec once, as Schedule::spec() writes it back ("dynamic" becomes "dynamic:1").
std::vector<std::string> parse_schedules(std::string_view text) {
  std::vector<std::string> specs;
  for (std::string_view s : common::split_list("--schedule", text)) {
    std::string spec;
    try {
      spec = weft::Schedule::parse(s, "--schedule").spec();
    } catch (const weft::ConfigError& e) {
      throw UsageError(common::argument("--schedule", s), e.what());
    }
    if (std::find(specs.begin(), specs.end(), spec) == specs.end()) specs.push_back(spec);
  }
  return specs;
}

// What a Runtime made from the environment steals with: the runtime's own reading of
// WEFT_STEAL and its rules (empty counts as unset). A bad WEFT_* value: ConfigError, as the
// run itself would throw.
weft::StealPolicy runtime_steal() { return weft::Config::from_env().steal; }

// Each policy parsed once, here: its spelling goes to the labels and the JSON, the policy to
// the runs' Configs (weft_run_config).
void parse_steal(std::string_view text, Options& o) {
  o.steal.clear();
  o.steal_policies.clear();
  for (std::string_view s : common::split_list("--steal", text)) {
    try {
      o.steal_policies.push_back(weft::StealPolicy::parse(s, "--steal"));
    } catch (const weft::ConfigError& e) {
      throw UsageError(common::argument("--steal", s), e.what());
    }
    o.steal.emplace_back(s);
  }
}

// A list of one Config choice, each name once in the order given, by `parse` (one of weft's
// parse_mechanism, parse_loop_scheme, ...), its ConfigError a UsageError naming the item.
template <class T>
std::vector<T> parse_choices(std::string_view option, std::string_view text,
                             T (*parse)(std::string_view, std::string_view)) {
  std::vector<T> values;
  for (std::string_view s : common::split_list(option, text)) {
    T v{};
    try {
      v = parse(s, option);
    } catch (const weft::ConfigError& e) {
      throw UsageError(common::argument(option, s), e.what());
    }
    if (std::find(values.begin(), values.end(), v) == values.end()) values.push_back(v);
  }
  return values;
}

// --bench's list: micro, matmul, tree, many, each once in the order given.
std::vector<bench_threads::Bench> parse_benches(std::string_view text) {
  using bench_threads::Bench;
  std::vector<Bench> benches;
  for (std::string_view s : common::split_list("--bench", text)) {
    Bench b{};
    if (s == "micro") {
      b = Bench::kMicro;
    } else if (s == "matmul") {
      b = Bench::kMatmul;
    } else if (s == "tree") {
      b = Bench::kTree;
    } else if (s == "many") {
      b = Bench::kMany;
    } else if (s == "barnes") {
      b = Bench::kBarnes;
    } else if (s == "dtree") {
      b = Bench::kDtree;
    } else {
      throw UsageError(common::argument("--bench", s),
                       "unknown benchmark (known: micro, matmul, tree, many, barnes, dtree)");
    }
    if (std::find(benches.begin(), benches.end(), b) == benches.end()) benches.push_back(b);
  }
  return benches;
}

// --n's list: matmul orders, powers of two from 128 (one level above the 64 base) to 8192.
std::vector<std::size_t> parse_orders(std::string_view text) {
  std::vector<std::size_t> orders;
  for (std::string_view s : common::split_list("--n", text)) {
    const std::string item = common::argument("--n", s);
    const auto n = static_cast<std::size_t>(common::parse_integer(item, s, 128, 8192));
    if ((n & (n - 1)) != 0)
      throw UsageError(item, "expected a power of two (the recursion halves n)");
    if (std::find(orders.begin(), orders.end(), n) == orders.end()) orders.push_back(n);
  }
  return orders;
}

std::vector<std::size_t> parse_byte_list(std::string_view option, std::string_view text,
                                         std::size_t lo, std::size_t hi) {
  std::vector<std::size_t> values;
  for (std::string_view s : common::split_list(option, text)) {
    const std::size_t v = parse_bytes(common::argument(option, s), s, lo, hi);
    if (std::find(values.begin(), values.end(), v) == values.end()) values.push_back(v);
  }
  return values;
}

}  // namespace

std::size_t parse_bytes(std::string_view argument, std::string_view text, std::size_t lo,
                        std::size_t hi) {
  std::size_t unit = 1;
  std::string_view digits = text;
  if (!text.empty()) {
    switch (text.back()) {
      case 'K': unit = std::size_t{1} << 10; break;
      case 'M': unit = std::size_t{1} << 20; break;
      case 'G': unit = std::size_t{1} << 30; break;
      default: break;
    }
    if (unit != 1) digits.remove_suffix(1);
  }
  std::uint64_t v = 0;
  const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  const bool number = !digits.empty() && ec == std::errc{} && ptr == digits.data() + digits.size();
  if (!number || v > hi / unit || v * unit < lo || v * unit > hi) {
    throw UsageError(argument, "expected a size from " + bench_threads::bytes_text(lo) + " to " +
                                   bench_threads::bytes_text(hi) +
                                   " (bytes, or with a K, M or G suffix), got \"" +
                                   std::string(text) + "\"");
  }
  return static_cast<std::size_t>(v * unit);
}

std::vector<weft::StealMechanism> parse_mechanisms(std::string_view text) {
  return parse_choices("--mechanism", text, weft::parse_mechanism);
}

std::vector<weft::LoopScheme> parse_loop_schemes(std::string_view text) {
  return parse_choices("--loops", text, weft::parse_loop_scheme);
}

std::vector<weft::LoopFrames> parse_loop_frames(std::string_view text) {
  return parse_choices("--frames", text, weft::parse_loop_frames);
}

std::vector<weft::AdaptiveFork> parse_adaptive_forks(std::string_view text) {
  return parse_choices("--adaptive", text, weft::parse_adaptive_fork);
}

std::string LoopSettings::text() const {
  return std::string(weft::loop_scheme_name(scheme)) + "/" + weft::loop_frames_name(frames) +
         "/adapt=" + weft::adaptive_fork_name(adaptive);
}

std::vector<LoopSettings> loop_settings(const Options& o) {
  const weft::Config env = weft::Config::from_env();
  const auto or_env = [](const auto& given, auto from_env) {
    return given.empty() ? std::vector{from_env} : given;
  };
  std::vector<LoopSettings> all;
  for (const weft::LoopScheme scheme : or_env(o.loop_schemes, env.loops))
    for (const weft::LoopFrames frames : or_env(o.loop_frames, env.loop_frames))
      for (const weft::AdaptiveFork adaptive : or_env(o.adaptive_forks, env.adaptive_fork))
        all.push_back({scheme, frames, adaptive});
  return all;
}

namespace {

std::vector<Impl> parse_impls(std::string_view text) {
  std::vector<Impl> impls{Impl::kSeq};  // the baseline always runs, first
  for (std::string_view s : common::split_list("--impl", text)) {
    Impl impl;
    if (s == "seq") {
      continue;
    } else if (s == "weft") {
      impl = Impl::kWeft;
    } else if (s == "threads") {
      impl = Impl::kThreads;
    } else {
      throw UsageError(common::argument("--impl", s),
                       "unknown implementation (known: seq, weft, threads)");
    }
    bool seen = false;
    for (Impl i : impls) seen = seen || i == impl;
    if (!seen) impls.push_back(impl);
  }
  return impls;
}

// Applies the tree flags over the preset's (or the default) parameters. A range error found
// only by validate() is attributed to the first flag that alone makes the base invalid.
void apply_tree_flags(Options& o,
                      const std::vector<std::pair<std::string_view, std::string_view>>& flags) {
  if (flags.empty()) return;
  const uts::TreeParams base = o.tree;
  for (const auto& [flag, value] : flags) {
    const uts::FlagResult r = uts::apply_tree_flag(o.tree, flag, value);
    if (!r.error.empty()) throw UsageError(common::argument(flag, value), r.error);
  }
  const std::string error = uts::validate(o.tree);
  if (!error.empty()) {
    std::string culprit = "tree";
    for (const auto& [flag, value] : flags) {
      uts::TreeParams alone = base;
      (void)uts::apply_tree_flag(alone, flag, value);
      if (!uts::validate(alone).empty()) {
        culprit = common::argument(flag, value);
        break;
      }
    }
    throw UsageError(culprit, error);
  }
  o.tree_name = "custom";
  o.preset = nullptr;
}

std::vector<std::string> parse_workload_specs(std::string_view text) {
  std::vector<std::string> specs;
  for (std::string_view s : common::split_list("--workloads", text)) {
    try {
      specs.push_back(kernels::parse_spec(s).text());
    } catch (const kernels::SizeError& e) {
      throw UsageError("--workloads", e.what());
    }
  }
  return specs;
}

std::vector<std::string> parse_peers(std::string_view text) {
  std::vector<std::string> peers;
  if (text == "none") return peers;
  std::string known;
  for (const std::string& p : known_peers()) known += (known.empty() ? "" : ", ") + p;
  for (std::string_view s : common::split_list("--peers", text)) {
    // "gomp" or "gomp/nested": a peer, or one of its loop variants (the peer checks those).
    const std::string name(s.substr(0, s.find('/')));
    if (std::find(known_peers().begin(), known_peers().end(), name) == known_peers().end())
      throw UsageError(common::argument("--peers", s),
                       "unknown peer (known: " + known + ", or none)");
    if (s.size() == name.size() + 1)
      throw UsageError(common::argument("--peers", s), "empty loop variant after '/'");
    if (std::find(peers.begin(), peers.end(), s) == peers.end()) peers.emplace_back(s);
  }
  return peers;
}

}  // namespace

std::string_view impl_name(Impl impl) {
  switch (impl) {
    case Impl::kSeq: return "seq";
    case Impl::kWeft: return "weft";
    case Impl::kThreads: return "threads";
  }
  return "unknown";
}

std::string Cutoff::spec() const {
  switch (kind) {
    case Kind::kNone: return "none";
    case Kind::kLevel: return "level:" + std::to_string(value);
    case Kind::kTasks: return "tasks:" + std::to_string(value);
  }
  return "unknown";
}

Cutoff parse_cutoff(std::string_view spec) {
  const std::string argument = "--cutoff " + std::string(spec);
  if (spec == "none") return {};
  const std::size_t colon = spec.find(':');
  const std::string_view kind = spec.substr(0, colon);
  if (colon == std::string_view::npos || (kind != "level" && kind != "tasks")) {
    throw UsageError(argument, "expected none, level:L or tasks:K");
  }
  const std::string_view number = spec.substr(colon + 1);
  Cutoff cutoff;
  if (kind == "level") {
    cutoff.kind = Cutoff::Kind::kLevel;
    cutoff.value =
        common::parse_integer(argument, number, 0, std::numeric_limits<std::int32_t>::max());
  } else {
    cutoff.kind = Cutoff::Kind::kTasks;
    cutoff.value = common::parse_integer(argument, number, 1, 1 << 30);
  }
  return cutoff;
}

const char* command_name(Command command) {
  switch (command) {
    case Command::kHelp: return "help";
    case Command::kUts: return "uts";
    case Command::kFib: return "fib";
    case Command::kCompare: return "compare";
    case Command::kThreads: return "threads";
  }
  return "?";
}

namespace {

using common::Flag;

// A row taking a whole number in [lo, hi] into `out` (an int, a size_t or a double).
template <class T>
Flag whole_number(std::string_view name, std::string_view value, std::string_view help,
                  std::int64_t lo, std::int64_t hi, T& out) {
  return {name, value, help, [name, lo, hi, &out](std::string_view v) {
            out = static_cast<T>(common::parse_integer(common::argument(name, v), v, lo, hi));
          }};
}

// A row taking a file or directory name into `out`; an empty one is an error.
Flag path(std::string_view name, std::string_view value, std::string_view help, std::string& out,
          std::string_view empty_error = "empty file name") {
  return {name, value, help, [name, empty_error, &out](std::string_view v) {
            if (v.empty()) throw UsageError(name, empty_error);
            out = v;
          }};
}

// What the command line gave, for the defaults that depend on it and the rules that span
// flags (checked after the table has parsed).
struct Given {
  bool workers = false;
  bool steal = false;
  bool repeat = false;
  bool seed = false;
  bool budget = false;
  bool fib_n = false;
  // The UTS tree flags in order, applied after parsing over --tree wherever it appears.
  std::vector<std::pair<std::string_view, std::string_view>> tree_flags;
};

// Every subcommand's flags.
std::vector<Flag> shared_flags(Options& o, Given& given) {
  return {
      {"--workers", "W,...",
       "worker counts (default: uts and fib 1,2, compare 2,\n"
       "threads each benchmark's own, below)",
       [&o, &given](std::string_view v) {
         o.workers.clear();
         given.workers = true;
         for (std::string_view w : common::split_list("--workers", v)) {
           const std::string item = common::argument("--workers", w);
           o.workers.push_back(static_cast<unsigned>(common::parse_integer(item, w, 1, 4096)));
         }
       }},
      {"--repeat", "R",
       "repetitions (default: uts and fib 5, compare 3, threads 7;\n"
       "with --until-decided the first look's, at least 5, default 10)",
       [&o, &given](std::string_view v) {
         o.repeat =
             static_cast<int>(common::parse_integer(common::argument("--repeat", v), v, 1, 100000));
         given.repeat = true;
       }},
      path("--json", "FILE|-", "everything as JSON (\"-\": standard output)", o.json),
      {"--seed", "N", "the order's and the resamples' seed (default: random, recorded)",
       [&o, &given](std::string_view v) {
         o.seed = common::parse_u64(common::argument("--seed", v), v);
         given.seed = true;
       }},
      whole_number("--resamples", "N", "bootstrap resamples per interval (default 10000)", 2000,
                   10000000, o.resamples),
  };
}

// The flags of the subcommands that run weft: uts, fib and compare.
std::vector<Flag> weft_run_flags(Options& o, Given& given) {
  return {
      {"--steal", "POLICY,...",
       "the steal policies to sweep (default: the runtime's own,\n"
       "WEFT_STEAL, else adaptive)",
       [&o, &given](std::string_view v) {
         parse_steal(v, o);
         given.steal = true;
       }},
      {"--mechanism", "M,...", "the steal mechanisms to sweep (default concurrent)",
       [&o](std::string_view v) { o.mechanisms = parse_mechanisms(v); }},
      {"--profile", "", "each weft run's execution profile",
       [&o](std::string_view) { o.profile = true; }},
      {"--until-decided", "", "add repetitions until every pair is decided",
       [&o](std::string_view) { o.until_decided = true; }},
      {"--budget", "SECONDS", "--until-decided's limit (default 600)",
       [&o, &given](std::string_view v) {
         o.budget_s = static_cast<double>(
             common::parse_integer(common::argument("--budget", v), v, 1, 7 * 24 * 3600));
         given.budget = true;
       }},
  };
}

// uts's and fib's flag beside those: compare's peers leave no timeline.
std::vector<Flag> trace_flags(Options& o) {
  return {path("--trace", "FILE|-",
               "a Chrome/Perfetto timeline of the weft runs (\"-\": standard\noutput)", o.trace)};
}

// The reference's tree flags (workloads/uts/tree_flags.hpp), each over --tree's parameters.
struct TreeFlag {
  std::string_view name, value, help;
};
constexpr TreeFlag kTreeFlags[] = {
    {"-t", "T", "tree type: 0 binomial, 1 geometric, 2 hybrid, 3 balanced"},
    {"-b", "B0", "the root's branching factor"},
    {"-m", "M", "children of a non-leaf node"},
    {"-q", "Q", "probability of a non-leaf node"},
    {"-r", "R", "the root's seed"},
    {"-d", "D", "depth (gen_mx)"},
    {"-a", "A", "shape: 0 linear, 1 exponential, 2 cyclic, 3 fixed"},
    {"-f", "F", "the hybrid's shift depth fraction"},
    {"-g", "G", "compute granularity"},
};

std::vector<Flag> uts_flags(Options& o, Given& given) {
  std::vector<Flag> flags{
      {"--tree", "NAME",
       "a preset tree (default T3); the flags below set its\n"
       "parameters one by one (the tree is then \"custom\")",
       [&o](std::string_view v) {
         o.preset = uts::find_preset(v);
         if (o.preset == nullptr) {
           throw UsageError(common::argument("--tree", v),
                            "unknown tree preset (known: " + known_presets() + ")");
         }
         o.tree_name = o.preset->name;
         o.tree = o.preset->params;
       }},
  };
  for (const TreeFlag& f : kTreeFlags) {
    flags.push_back({f.name, f.value, f.help, [name = f.name, &given](std::string_view v) {
                       given.tree_flags.emplace_back(name, v);
                     }});
  }
  flags.insert(
      flags.end(),
      {{"--impl", "I,...", "seq, weft, threads (default all; seq always runs)",
        [&o](std::string_view v) { o.impls = parse_impls(v); }},
       whole_number("--chunk", "C", "nodes the threads version moves at once (default 64)", 1,
                    1 << 30, o.chunk),
       {"--cutoff", "SPEC", "none, level:L or tasks:K: when weft stops spawning\n(default none)",
        [&o](std::string_view v) { o.cutoff = parse_cutoff(v); }}});
  return flags;
}

std::vector<Flag> compare_flags(Options& o) {
  return {
      {"--workloads", "NAME[:SIZE],...", "the workloads (default: each, below, at its size)",
       [&o](std::string_view v) { o.workload_specs = parse_workload_specs(v); }},
      {"--peers", "P,...|none", "the peer runtimes (default: all)",
       [&o](std::string_view v) { o.peers = parse_peers(v); }},
      path("--peer-dir", "DIR",
           "where the peer programs are (default: $WEFT_PEER_DIR, else\n"
           "../../peers from weft-bench)",
           o.peer_dir, "empty directory name"),
      {"--schedule", "S,...", "weft's loop schedules (default: WEFT_SCHEDULE, else auto)",
       [&o](std::string_view v) { o.schedules = parse_schedules(v); }},
      {"--loops", "L,...", "weft's loop schemes: pcb, dlist, split",
       [&o](std::string_view v) { o.loop_schemes = parse_loop_schemes(v); }},
      {"--frames", "F,...", "weft's loop frame homes: stack, pool",
       [&o](std::string_view v) { o.loop_frames = parse_loop_frames(v); }},
      {"--adaptive", "A,...", "weft's adaptive fork modes: 0, 1, lazy",
       [&o](std::string_view v) { o.adaptive_forks = parse_adaptive_forks(v); }},
  };
}

std::vector<Flag> threads_flags(Options& o) {
  bench_threads::Settings& t = o.threads;
  constexpr std::size_t kMaxBytes = std::size_t{1} << 30;
  return {
      {"--bench", "B,...", "micro, matmul, tree, many, barnes, dtree\n(default: the first four)",
       [&t](std::string_view v) { t.benches = parse_benches(v); }},
      {"--sched", "S,...", "fifo, lifo, df, dfd (default: each benchmark's own)",
       [&t](std::string_view v) {
         t.scheds = parse_choices("--sched", v, weft::parse_thread_sched);
       }},
      {"--n", "N,...", "matmul's orders, powers of two (default 1024)",
       [&t](std::string_view v) { t.orders = parse_orders(v); }},
      {"--quota", "K,...", "df's and dfd's memory quotas (0 = none; default: below)",
       [&t](std::string_view v) { t.quotas = parse_byte_list("--quota", v, 0, kMaxBytes); }},
      {"--stack", "SIZE,...", "thread stacks (default WEFT_THREAD_STACK, else 16K)",
       [&t](std::string_view v) {
         t.stacks = parse_byte_list("--stack", v, std::size_t{4} << 10, kMaxBytes);
       }},
      whole_number("--depth", "D", "tree's depth (default 12)", 0, 20, t.tree_depth),
      whole_number("--count", "N", "many's threads (default 1048576)", 1, std::int64_t{1} << 26,
                   t.many_count),
      whole_number("--iters", "N", "micro's iterations (default 100000)", 1, 1000000000,
                   t.micro_iters),
      whole_number("--bodies", "N", "barnes' bodies (default 100000)", 100, 10000000, t.bh_bodies),
      whole_number("--instances", "N", "dtree's instances (default 133999)", 100, 100000000,
                   t.dt_instances),
  };
}

// The flags of `command`, parsed into `o` and `given`.
common::FlagTable flag_table(Command command, Options& o, Given& given) {
  std::vector<Flag> flags = shared_flags(o, given);
  const auto add = [&flags](std::vector<Flag> more) {
    std::move(more.begin(), more.end(), std::back_inserter(flags));
  };
  if (command != Command::kThreads) add(weft_run_flags(o, given));
  if (command == Command::kUts || command == Command::kFib) add(trace_flags(o));
  if (command == Command::kUts) add(uts_flags(o, given));
  if (command == Command::kCompare) add(compare_flags(o));
  if (command == Command::kThreads) add(threads_flags(o));
  common::FlagTable table(std::move(flags));
  if (command == Command::kFib) {
    table.operands([&o, &given](std::string_view n) {
      if (given.fib_n) throw UsageError(n, "unexpected argument (fib takes one N)");
      o.fib_n = static_cast<int>(common::parse_integer("fib N", n, 1, 50));
      given.fib_n = true;
    });
  }
  return table;
}

// The Options a subcommand starts from: its defaults.
Options start(std::string_view sub) {
  Options o;
  if (sub == "uts") {
    o.command = Command::kUts;
    o.preset = uts::find_preset(o.tree_name);
    o.tree = o.preset->params;
  } else if (sub == "fib") {
    o.command = Command::kFib;
  } else if (sub == "compare") {
    o.command = Command::kCompare;
    o.workers = {2};
    o.repeat = 3;
    o.workload_specs = parse_workload_specs(kernels::default_specs());
    o.peers = known_peers();
  } else if (sub == "threads") {
    o.command = Command::kThreads;
    o.repeat = o.threads.repeat;
  } else {
    throw UsageError(sub, "unknown subcommand (expected uts, fib, compare or threads)");
  }
  return o;
}

// The rules that span flags, and the defaults that depend on what was given.
void finish(Options& o, const Given& given) {
  if (o.command == Command::kFib && !given.fib_n) {
    throw UsageError("fib", "missing N (e.g. fib 35)");
  }
  if (given.budget && !o.until_decided) {
    throw UsageError("--budget", "applies only with --until-decided");
  }
  if (o.until_decided) {
    if (!given.repeat) o.repeat = 10;
    if (o.repeat < 5) {
      throw UsageError("--repeat " + std::to_string(o.repeat),
                       "with --until-decided it is the first look's repetitions: at least 5");
    }
  }
  if (!given.seed) o.seed = (std::uint64_t{std::random_device{}()} << 32) ^ std::random_device{}();
  // One file cannot hold both: the second write would silently replace the first.
  if (!o.json.empty() && !o.trace.empty() && same_file(o.json, o.trace)) {
    throw UsageError("--json " + o.json + " and --trace " + o.trace,
                     "the same file (each needs its own)");
  }
  // uts, fib and compare measure what a user who sets nothing gets.
  if (!given.steal && o.command != Command::kThreads) {
    o.steal_policies = {runtime_steal()};
    o.steal = {o.steal_policies.front().spec()};
  }
  if (o.command == Command::kThreads) {
    o.threads.repeat = o.repeat;
    if (given.workers) o.threads.workers = o.workers;
    o.threads.seed = o.seed;
    o.threads.resamples = o.resamples;
  }
  // Flags apply over --tree wherever it appears; with any flag the tree is no longer a preset.
  apply_tree_flags(o, given.tree_flags);
}

}  // namespace

Options parse_args(std::span<const std::string_view> args) {
  if (args.empty()) {
    throw UsageError("subcommand", "missing (expected uts, fib, compare or threads; see --help)");
  }
  if (args[0] == "--help" || args[0] == "-h") return {};
  Options o = start(args[0]);
  Given given;
  if (!flag_table(o.command, o, given).parse(args.subspan(1))) {
    o.command = Command::kHelp;
    return o;
  }
  finish(o, given);
  return o;
}

namespace {

const char kSynopsis[] =
    "usage:\n"
    "  weft-bench uts [--tree NAME | -t T -b B0 -m M -q Q -r R -d D -a A -f F -g G]\n"
    "                 [--impl seq,weft,threads] [--steal one,fixed:D,half] [--workers 1,2]\n"
    "                 [--mechanism concurrent,request] [--chunk C]\n"
    "                 [--cutoff none|level:L|tasks:K] [--repeat R] [--json FILE|-]\n"
    "                 [--profile] [--trace FILE|-] [--seed N]\n"
    "                 [--until-decided [--budget SECONDS]] [--resamples 10000]\n"
    "  weft-bench fib N [--steal one,fixed:D,half] [--workers 1,2]\n"
    "                 [--mechanism concurrent,request] [--repeat R] [--json FILE|-]\n"
    "                 [--profile] [--trace FILE|-] [--seed N]\n"
    "                 [--until-decided [--budget SECONDS]] [--resamples 10000]\n"
    "  weft-bench compare [--workloads NAME[:SIZE],...] [--steal POLICY,...] [--workers 2]\n"
    "                 [--mechanism concurrent,request] [--peers "
    "gomp,libomp,tbb,rayon,chili,java,go|none]\n"
    "                 [--peer-dir DIR] [--repeat 3] [--json FILE|-] [--profile]\n"
    "                 [--schedule dynamic:1,factoring,...] [--loops pcb,dlist,split]\n"
    "                 [--frames stack,pool] [--adaptive 0,1,lazy] [--seed N]\n"
    "                 [--until-decided [--budget SECONDS]] [--resamples 10000]\n"
    "  weft-bench threads [--bench micro,matmul,tree,many,barnes,dtree] [--workers W,...]\n"
    "                 [--sched fifo,lifo,df,dfd] [--repeat 7] [--n 1024,2048]\n"
    "                 [--quota K,...] [--stack 16K,1M] [--depth 12] [--count 1048576]\n"
    "                 [--iters 100000] [--bodies 100000] [--instances 133999]\n"
    "                 [--json FILE|-] [--seed N] [--resamples 10000]\n"
    "  weft-bench --count-instructions [--json FILE] [--jobs N]\n"
    "  weft-bench --help\n";

// The prose after the option lists, in the pieces between the lists the program fills in.
const char kBodyHead[] =
    "--count-instructions: per-operation costs as instructions counted by valgrind's\n"
    "  callgrind (deterministic, where times on this machine are not): per spawn+join of\n"
    "  each fork-join form and of the C interface, per loop chunk, per thread yield; runs\n"
    "  weft-instructions (tools/bench/instructions), built beside weft-bench.\n"
    "uts: Unbalanced Tree Search. The sequential traversal always runs as the baseline;\n"
    "  every other run is checked against it (and against the preset's published counts).\n"
    "  Trees: ";  // the presets
const char kBodyAfterPresets[] =
    " (default T3), or the reference's flags\n"
    "  (e.g. -t 0 -b 2000 -q 0.124875 -m 8 -r 42). --steal applies to weft, --chunk to\n"
    "  threads, --cutoff to weft (level:L spawns only above depth L; tasks:K only while\n"
    "  fewer than K tasks wait on the worker).\n"
    "fib: serial fib(N) against weft's, checked against fib(N) by iteration.\n"
    "uts and fib: each repetition runs every run once, in an order shuffled by --seed;\n"
    "  each run's time over the baseline's (seq, serial) is given as the median of the\n"
    "  paired repetitions with a bootstrap interval and verdict, and --until-decided,\n"
    "  --budget, --resamples and the host's steadiness work as for compare (below).\n"
    "compare: each workload on the serial elision, on weft and on the peers (separate\n"
    "  programs in --peer-dir, default $WEFT_PEER_DIR or ../../peers from weft-bench; a peer\n"
    "  not built is reported as skipped). Every run is verified. Interrupted (SIGINT,\n"
    "  SIGTERM, SIGHUP), weft-bench passes the signal on to the running peer and dies of\n"
    "  it. Workloads and default sizes: ";  // the workloads
const char kBodyCompare[] =
    ".\n"
    "Loop workloads (matmul-loops N:ORDER[:SEED], gauss-jordan N[:SEED], triangle-loops N,\n"
    "  pareto-loops N[:SEED], narrow-loops OxI, empty-loop N): weft runs one series per\n"
    "  --schedule (default: WEFT_SCHEDULE or auto) and loop settings (below), each peer\n"
    "  one per loop variant (gomp and libomp: taskloop, outer, nested; tbb: auto, simple,\n"
    "  static, affinity) and --schedule,\n"
    "  labelled e.g. \"gomp/outer dynamic:1 w=1\" (without --schedule the peers' own\n"
    "  defaults, labelled \"default\"); --peers gomp/nested picks one variant. OpenMP\n"
    "  outer/nested: `omp for schedule(runtime)`, static, dynamic:K, guided:K as OpenMP's,\n"
    "  factoring and auto as omp_sched_auto (OpenMP has no factoring); taskloop:\n"
    "  grainsize(K) for dynamic:K, num_tasks(workers) for static, else no clause. oneTBB:\n"
    "  grainsize K for dynamic:K and guided:K (simple splits down to K, the others take it\n"
    "  as the minimum), static = static_partitioner (its static variant only), else\n"
    "  grainsize 1. weft/peer then takes weft's runs of the peer's schedule. The table\n"
    "  adds cost = median x workers, ns per innermost iteration (per chunk under\n"
    "  dynamic:1) and the threads a run used (OpenMP nested: the distinct threads its\n"
    "  regions ran on).\n"
    "compare's claims, each a pair of runs timed side by side in every repetition: every\n"
    "  weft series over the serial elision, every peer series under weft's series for it\n"
    "  (the defaults' where one ran, else the first listed; never the fastest after the\n"
    "  fact) and weft's settings over each other (below): the median of the paired ratios\n"
    "  a/b with a 95 % percentile bootstrap interval (--resamples, default 10000) and a\n"
    "  verdict: ahead (upper bound < 1), behind (lower bound > 1), level (the interval\n"
    "  inside [0.97, 1.03]), else undecided; fewer than 5 repetitions decide nothing.\n"
    "  Table: \"0.912 [0.874, 0.950] ahead n=10\". Each repetition runs a workload's runs\n"
    "  in an order shuffled by --seed (default: random, and recorded). --until-decided\n"
    "  adds repetitions until every pair is decided or --budget seconds (default 600)\n"
    "  are spent: it looks after --repeat repetitions (default 10), then x1.5 each time,\n"
    "  look k at confidence 1 - 0.05/(k(k+1)), so that the chance of ever calling a pair\n"
    "  at parity ahead or behind stays under 5 %; a workload whose pairs are decided\n"
    "  stops, each pair keeps the look that decided it, and a line per look goes to\n"
    "  standard error. Between repetitions a fixed calibration kernel times the host: a\n"
    "  coefficient of variation over 0.05 or steal time over 2 % (/proc/stat) marks the\n"
    "  sitting unsteady (\"host_unsteady\" in the JSON). docs/MEASURING.md explains.\n"
    "--loops pcb,dlist,split, --frames stack,pool, --adaptive 0,1,lazy (compare, weft\n"
    "  only; default WEFT_LOOPS, WEFT_LOOP_FRAMES, WEFT_ADAPTIVE_FORK, else pcb, stack, 1):\n"
    "  on a loop workload weft runs one series per combination of loop scheme, frame home\n"
    "  and adaptive fork, labelled e.g. \"weft concurrent/one dynamic:1 pcb/stack/adapt=0\n"
    "  w=2\" (the labels show them only when any of the three is given), with \"loops\",\n"
    "  \"frames\" and \"adaptive_fork\" in its JSON run object (null for the other runs and\n"
    "  on fork-join workloads, which ignore the three, as they do --schedule). Where one of\n"
    "  them (or --mechanism, --steal, or --schedule on a loop workload) has two values or\n"
    "  more, the table adds the paired ratios of the first value's series over each other\n"
    "  value's, all else alike, repetition by repetition, e.g. \"pcb/dlist 0.912 [0.874,\n"
    "  0.950] ahead\", \"stack/pool\", \"adapt=1/0\", \"concurrent/request\", "
    "\"adaptive/one\",\n"
    "  \"auto/static\" (< 1: the first faster; list first the value to judge); the JSON has\n"
    "  them in each workload's \"weft_pairs\" (setting, name, a, b, workers, median, min,\n"
    "  max, ci_low, ci_high, verdict, n) and \"pairs\"; --until-decided waits for them too.\n"
    "--mechanism (weft only, default concurrent): the steal mechanisms to sweep, like\n"
    "  --steal: every weft run is one (mechanism, policy, workers), labelled e.g.\n"
    "  \"weft request/half w=2\", with \"mechanism\":\"request\" in its JSON run object;\n"
    "  runs of seq, serial, threads and the peers have \"mechanism\":null and "
    "\"steal\":null.\n"
    "  concurrent: the thief claims while the victim runs on; request: the thief asks and\n"
    "  the victim hands tasks over at its next spawn, join or poll.\n";
const char kBodyThreads[] =
    "threads: weft's user-level threads (Narlikar & Blelloch, SC '98, Figures 3-7), each\n"
    "  thread run on a fresh Runtime per --sched (fifo, lifo, df, dfd), worker count and\n"
    "  --stack (thread stacks; default WEFT_THREAD_STACK or 16K), every answer checked.\n"
    "  micro: ns per create+join, yield switch, mutex hand-off, condition-variable round\n"
    "    trip and semaphore switch on weft threads (1 worker; yield under fifo only, the\n"
    "    scheduler whose yield hands over) and on OS threads (ping-pongs pinned to one\n"
    "    CPU; std::mutex alternates by a turn variable and yield, having no hand-off),\n"
    "    and a bare jump_fcontext switch; --iters sets the weft iterations (OS threads\n"
    "    run 1/10, std::thread creation 1/50, fcontext 10x).\n"
    "  matmul: Figure 4's divide-and-conquer multiply of n x n doubles (--n, default\n"
    "    1024), a thread per recursive call down to 64 x 64, a weft::allocate'd temporary\n"
    "    per call and a parallel addition down to 128 x 128: the serial elision (S1 = its\n"
    "    heap high-water, T1 its time), the task version (weft::scope) and the thread\n"
    "    version, with speedup, heap high-water and /S1, max live threads, dummies,\n"
    "    preemptions, scheduler-lock acquisitions, user/sys time and page faults. Checked\n"
    "    against dot products (serial) and bit for bit against the serial product.\n"
    "  tree: a binary tree of threads --depth levels deep (default 12), each holding 64 KiB\n"
    "    while its children run; heap high-water against S1 and S1 + 4*p*D*K.\n"
    "  many: --count threads (default 2^20) of about 1 us each, as a binary tree of forks;\n"
    "    time and scheduler-lock acquisitions per thread. Default --sched df,dfd: fifo\n"
    "    keeps about half the threads alive, past vm.max_map_count at 2^20 (try\n"
    "    --sched fifo,df,dfd --count 16384 for a reference).\n"
    "  barnes: Barnes-Hut on --bodies Plummer bodies (default 100000), 4 steps, the last\n"
    "    two timed: serial, coarse (a thread per worker, barriers between phases) and fine\n"
    "    (a thread per subtree, mutexes in the tree build); default --sched fifo,df.\n"
    "  dtree: the decision-tree builder on --instances instances (default 133999), a\n"
    "    thread per recursive call of the builder and of its quicksort (serial below\n"
    "    2000): heap high-water of the build against the serial one (Figure 9(b)).\n"
    "    barnes and dtree run only when --bench names them.\n"
    "  --quota: the memory quota K of the df and dfd runs (0 = none; default 64K for\n"
    "    matmul, 4K,64K for tree; fifo and lifo have none). --workers default: micro 1,\n"
    "    matmul and tree 1,2, many 2,8. Sizes take a K, M or G suffix.\n"
    "  Each repetition runs every series of a benchmark once, in an order shuffled by\n"
    "  --seed; each series' time over its baseline's is the median of the paired\n"
    "  repetitions with a bootstrap interval (--resamples) and verdict, as for compare\n"
    "  (no --until-decided). Baselines: the serial elision; also matmul's task version\n"
    "  for df and dfd, many's df for the other schedulers, barnes' coarse for fine (each\n"
    "  on as many workers). micro's ns per unit stay medians.\n";
const char kBodyOutput[] =
    "Other runtime settings come from WEFT_* (WEFT_PIN, WEFT_TASK_SLOTS, WEFT_SEED,\n"
    "WEFT_REQUEST_TIMEOUT_US, ...); --steal, --mechanism and --workers override WEFT_STEAL,\n"
    "WEFT_MECHANISM and WEFT_WORKERS, and compare's --schedule, --loops, --frames and\n"
    "--adaptive WEFT_SCHEDULE, WEFT_LOOPS, WEFT_LOOP_FRAMES and WEFT_ADAPTIVE_FORK.\n"
    "uts, fib, compare and threads run in randomized blocks; the tables give\n"
    "medians, ranges and the paired claims; --json writes everything, raw times, the\n"
    "claims, the host's steadiness and the sitting (commit, compiler, flags, CPU, kernel,\n"
    "date, seed, command line) included. --profile adds each weft run's execution\n"
    "profile (R_busy, R_steal, R_idle, R_switch, R_frame; tasks per steal; load-balancing\n"
    "operations = tasks stolen). --trace FILE writes a Chrome/Perfetto timeline of the\n"
    "weft runs (ui.perfetto.dev or chrome://tracing), at most ";  // the events per worker
const char kBodyFiles[] =
    " events per worker.\n"
    "--json and --trace must name different files; \"-\" is standard output, and the\n"
    "table then goes to standard error. Each file is written when the run is done,\n"
    "to a temporary file beside it that is then renamed over it, so an interrupted or\n"
    "failed run leaves the old file, or none.\n"
    "Steal specs: ";  // StealPolicy's

// One group of flags' option list under its heading.
std::string option_list(const char* heading, std::vector<common::Flag> flags) {
  return std::string(heading) + common::FlagTable(std::move(flags)).options_help();
}

}  // namespace

std::string usage() {
  // The tables write into these only when they parse; --help only reads their rows.
  Options scratch;
  Given given;
  return std::string(kSynopsis) + "\n" +
         option_list("Options of every subcommand:\n", shared_flags(scratch, given)) +
         option_list("Options of uts, fib and compare (weft's runs):\n",
                     weft_run_flags(scratch, given)) +
         option_list("Options of uts and fib:\n", trace_flags(scratch)) +
         option_list("Options of uts:\n", uts_flags(scratch, given)) +
         option_list("Options of compare:\n", compare_flags(scratch)) +
         option_list("Options of threads:\n", threads_flags(scratch)) + "\n" + kBodyHead +
         known_presets() + kBodyAfterPresets + workload_names() + kBodyCompare + kBodyThreads +
         kBodyOutput + std::to_string(kTraceEventsPerWorker) + kBodyFiles +
         weft::StealPolicy::allowed_specs() + ".\nMechanisms: concurrent, request.\n";
}

weft::Config weft_run_config(const Options& o, weft::StealMechanism mechanism,
                             const weft::StealPolicy& steal, unsigned workers,
                             const LoopSettings* loops) {
  weft::Config c = weft::Config::from_env();
  c.mechanism = mechanism;
  c.steal = steal;
  c.workers = workers;
  if (loops != nullptr) {
    c.loops = loops->scheme;
    c.loop_frames = loops->frames;
    c.adaptive_fork = loops->adaptive;
  }
  if (o.profile) c.profile = true;
  return c;
}

}  // namespace bench_cli
