#include "tools/peers/peer_cli.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <utility>

#include "workloads/common/text_format.hpp"

namespace peers {
namespace {

using common::quote;

// The same bounds as the Rayon peer and weft-bench --workers.
constexpr std::int64_t kMaxWorkers = 4096;
constexpr std::int64_t kMaxRepeat = 1000000;

}  // namespace

PeerOptions parse_peer_args(std::span<const std::string_view> args,
                            std::span<const std::string_view> variants, RunsUnder runs_under) {
  PeerOptions options;
  bool have_workload = false;
  bool have_schedule = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view flag = args[i];
    if (flag == "--list" || flag == "--list-loops") {
      (flag == "--list" ? options.list : options.list_loops) = true;
      continue;
    }
    if (flag != "--workload" && flag != "--workers" && flag != "--repeat" && flag != "--loops" &&
        flag != "--schedule")
      throw kernels::SizeError(std::string(flag) + ": unknown option");
    if (i + 1 == args.size()) throw kernels::SizeError(std::string(flag) + ": needs a value");
    const std::string_view value = args[++i];
    if (flag == "--workload") {
      options.spec = kernels::parse_spec(value);
      have_workload = true;
    } else if (flag == "--loops") {
      if (std::find(variants.begin(), variants.end(), value) == variants.end()) {
        std::string known;
        for (const std::string_view v : variants)
          known += (known.empty() ? "" : ", ") + std::string(v);
        throw kernels::SizeError(std::string(flag) + " " + std::string(value) +
                                 ": unknown loop variant (known: " + known + ")");
      }
      options.loops = value;
    } else if (flag == "--schedule") {
      options.schedule = LoopSchedule::parse(value);
      have_schedule = true;
    } else if (flag == "--workers") {
      options.workers = static_cast<int>(kernels::parse_count(value, flag, 1, kMaxWorkers));
    } else {
      options.repeat = static_cast<int>(kernels::parse_count(value, flag, 1, kMaxRepeat));
    }
  }
  if (options.list || options.list_loops) return options;
  if (!have_workload) throw kernels::SizeError("--workload: is required");
  for (const auto& [given, name] :
       {std::pair{!options.loops.empty(), "--loops"}, std::pair{have_schedule, "--schedule"}}) {
    if (given && !kernels::is_loop_workload(options.spec.name)) {
      throw kernels::SizeError(std::string(name) + ": applies to the loop workloads only, not " +
                               options.spec.name);
    }
  }
  if (options.workers == 0) throw kernels::SizeError("--workers: is required");
  const auto runs = [&](std::string_view v) {
    return runs_under == nullptr || runs_under(v, options.schedule);
  };
  if (!options.loops.empty() && !runs(options.loops)) {
    std::string under;
    for (const std::string_view v : variants)
      if (runs(v)) under += (under.empty() ? "" : ", ") + std::string(v);
    throw kernels::SizeError("--loops " + options.loops + ": does not run under --schedule " +
                             options.schedule.spec() + " (these do: " + under + ")");
  }
  if (options.loops.empty() && !variants.empty() && kernels::is_loop_workload(options.spec.name)) {
    const auto first = std::find_if(variants.begin(), variants.end(), runs);
    if (first != variants.end()) options.loops = *first;
  }
  return options;
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
