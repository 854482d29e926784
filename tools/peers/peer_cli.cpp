#include "tools/peers/peer_cli.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <utility>

#include "workloads/common/flags.hpp"
#include "workloads/common/text_format.hpp"

namespace peers {
namespace {

using common::quote;

// The same bounds as the Rayon peer and weft-bench --workers.
constexpr std::int64_t kMaxWorkers = 4096;
constexpr std::int64_t kMaxRepeat = 1000000;

// "a, b, c": the variants a message lists.
std::string joined(std::span<const std::string_view> variants) {
  std::string text;
  for (const std::string_view v : variants) text += (text.empty() ? "" : ", ") + std::string(v);
  return text;
}

// Which flags were given, for the checks that span flags after the table's parse.
struct Given {
  bool workload = false;
  bool schedule = false;
};

// The protocol's flags, parsed into `o`; --loops must name one of `variants`. The table also
// writes --help's option list.
common::FlagTable flag_table(PeerOptions& o, Given& given,
                             std::span<const std::string_view> variants) {
  return common::FlagTable({
      {"--workload", "NAME[:SIZE]", "the workload to run, at its default size or SIZE (required)",
       [&o, &given](std::string_view v) {
         o.spec = kernels::parse_spec(v);
         given.workload = true;
       }},
      {"--workers", "W", "worker threads, 1 to 4096 (required)",
       [&o](std::string_view v) {
         o.workers = static_cast<int>(kernels::parse_count(v, "--workers", 1, kMaxWorkers));
       }},
      {"--repeat", "R", "timed runs, a line each, 1 to 1000000 (default 1)",
       [&o](std::string_view v) {
         o.repeat = static_cast<int>(kernels::parse_count(v, "--repeat", 1, kMaxRepeat));
       }},
      {"--loops", "V",
       "a loop workload's variant, one --list-loops prints (default: the first\nthat runs under "
       "--schedule)",
       [&o, variants](std::string_view v) {
         if (std::find(variants.begin(), variants.end(), v) == variants.end()) {
           throw kernels::SizeError(common::argument("--loops", v) +
                                    ": unknown loop variant (known: " + joined(variants) + ")");
         }
         o.loops = v;
       }},
      {"--schedule", "S",
       "a loop workload's schedule: default (the backend's own; the default),\nstatic, "
       "dynamic[:K], guided[:K], factoring or auto",
       [&o, &given](std::string_view v) {
         o.schedule = LoopSchedule::parse(v);
         given.schedule = true;
       }},
      {"--list", "", "print each workload and its default size, one a line",
       [&o](std::string_view) { o.list = true; }},
      {"--list-loops", "", "print the loop variants that run under --schedule, one a line",
       [&o](std::string_view) { o.list_loops = true; }},
  });
}

// The checks that span flags, once the table has parsed them all.
void check_combination(PeerOptions& o, const Given& given,
                       std::span<const std::string_view> variants, RunsUnder runs_under) {
  if (!given.workload) throw kernels::SizeError("--workload: is required");
  for (const auto& [set, name] :
       {std::pair{!o.loops.empty(), "--loops"}, std::pair{given.schedule, "--schedule"}}) {
    if (set && !kernels::is_loop_workload(o.spec.name)) {
      throw kernels::SizeError(std::string(name) + ": applies to the loop workloads only, not " +
                               o.spec.name);
    }
  }
  if (o.workers == 0) throw kernels::SizeError("--workers: is required");
  const auto runs = [&](std::string_view v) {
    return runs_under == nullptr || runs_under(v, o.schedule);
  };
  if (!o.loops.empty() && !runs(o.loops)) {
    std::string under;
    for (const std::string_view v : variants)
      if (runs(v)) under += (under.empty() ? "" : ", ") + std::string(v);
    throw kernels::SizeError("--loops " + o.loops + ": does not run under --schedule " +
                             o.schedule.spec() + " (these do: " + under + ")");
  }
  if (o.loops.empty() && !variants.empty() && kernels::is_loop_workload(o.spec.name)) {
    const auto first = std::find_if(variants.begin(), variants.end(), runs);
    if (first != variants.end()) o.loops = *first;
  }
}

}  // namespace

PeerOptions parse_peer_args(std::span<const std::string_view> args,
                            std::span<const std::string_view> variants, RunsUnder runs_under) {
  PeerOptions options;
  Given given;
  try {
    options.help = !flag_table(options, given, variants).parse(args);
  } catch (const common::UsageError& e) {
    throw kernels::SizeError(e.what());  // one exception type for every bad argument
  }
  if (options.help || options.list || options.list_loops) return options;
  check_combination(options, given, variants, runs_under);
  return options;
}

std::string peer_help(std::string_view peer) {
  PeerOptions scratch;
  Given given;
  const std::string name = "weft-peer-" + std::string(peer);
  const std::string pad(name.size(), ' ');
  return "usage: " + name + " --workload NAME[:SIZE] --workers W [--repeat R] [--loops V]\n" +
         "       " + pad + " [--schedule S]\n" +  //
         "       " + name + " --list\n" +         //
         "       " + name + " --list-loops [--schedule S]\n\n" +
         flag_table(scratch, given, {}).options_help() +
         "\nA peer of weft-bench compare (tools/peers/peer_cli.hpp). Each repetition builds the\n"
         "input, times the computation alone, verifies it and prints one JSON line; a wrong\n"
         "result prints its line with \"verified\":false and exits 1. A bad argument prints\n"
         "\"" +
         name + ": <argument>: <what is wrong>\" and exits 2.\n";
}

std::string outcome_line(std::string_view peer, const PeerOptions& options,
                         const kernels::Outcome& outcome) {
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.9f", outcome.seconds);
  std::string line = "{\"peer\":" + quote(std::string(peer)) +
                     ",\"workload\":" + quote(options.spec.text()) +
                     ",\"workers\":" + std::to_string(options.workers) + ",\"seconds\":" + seconds +
                     ",\"result\":" + quote(outcome.result) +
                     ",\"verified\":" + (outcome.error.empty() ? "true" : "false");
  if (outcome.threads != 0) line += ",\"threads\":" + std::to_string(outcome.threads);
  if (!options.schedule.is_default()) line += ",\"schedule\":" + quote(options.schedule.spec());
  if (!outcome.error.empty()) line += ",\"error\":" + quote(outcome.error);
  return line + "}";
}

void print_workloads() {
  for (const kernels::WorkloadInfo& info : kernels::workload_list())
    std::printf("%.*s %.*s\n", static_cast<int>(info.name.size()), info.name.data(),
                static_cast<int>(info.default_size.size()), info.default_size.data());
}

}  // namespace peers
