// The peer protocol, shared by every peer executable (weft-peer-gomp, -libomp, -tbb here,
// and the Rust weft-peer-rayon, which implements the same protocol on its own):
//
//   weft-peer-<name> --workload <name>[:<size>] --workers <W> [--repeat <R>] [--loops <V>]
//                    [--schedule <S>]
//   weft-peer-<name> --list
//   weft-peer-<name> --list-loops [--schedule <S>]
//   weft-peer-<name> --help
//
// Each repetition builds the input, times the computation alone, verifies it, and prints one
// JSON line on stdout:
//   {"peer":"gomp","workload":"fib:35","workers":2,"seconds":0.1234,
//    "result":"fib(35) = 9227465","verified":true}
// A run whose threads can outnumber its workers (OpenMP's nested variant) adds "threads":N;
// a run given --schedule adds "schedule":"<S>" as loop_schedule.hpp's spec() writes it.
// A wrong result prints the line with "verified":false and "error":"<reason>", then exits 1.
// A bad argument prints "weft-peer-<name>: <argument>: <what is wrong>" on stderr and exits 2
// (the C++ peers parse with workloads/common/flags.hpp's table, so an unknown flag's is
// "unknown option (see --help)" and a flag without its value's "missing value").
// --list prints "<workload> <default size>" per line. --loops picks how the peer runs the loop
// workloads (suite.hpp's LoopWorkloads; a loop workload only): --list-loops prints its
// variants, one per line, in the order compare runs them as series. --schedule (a loop
// workload only) runs the loops under one of weft's schedules (loop_schedule.hpp; "default",
// the same as leaving it out, keeps the backend's own); with --list-loops it lists the
// variants that run under that schedule (oneTBB's static schedule is its static_partitioner,
// so it lists only "static"), and without --loops the first of those runs. weft-bench compare
// is the client. The Rayon peer has no loop workloads, so it is never given --loops or
// --schedule.
#pragma once

#include <cstdio>
#include <exception>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tools/peers/loop_schedule.hpp"
#include "workloads/kernels/suite.hpp"

namespace peers {

struct PeerOptions {
  bool help = false;  // --help or -h: print peer_help() and nothing else
  bool list = false;
  bool list_loops = false;
  std::string loops;      // "" = the backend's default, the first variant running `schedule`
  LoopSchedule schedule;  // --schedule; the default when not given
  kernels::Spec spec;
  int workers = 0;
  int repeat = 1;
};

// Whether a backend's loop variant runs under a schedule (its runs_under()).
using RunsUnder = bool (*)(std::string_view variant, const LoopSchedule& schedule);

// Throws kernels::SizeError "<argument>: <what is wrong>" (the flag table's errors too).
// `variants` are the backend's loop variants, which --loops must name; `runs_under` (none:
// every variant runs every schedule) says which run under --schedule. An empty --loops
// becomes the first variant that does. Stops at --help or -h, setting `help`.
PeerOptions parse_peer_args(std::span<const std::string_view> args,
                            std::span<const std::string_view> variants = {},
                            RunsUnder runs_under = nullptr);

// --help's text for weft-peer-<peer>: the usage, the table's option list and the protocol.
std::string peer_help(std::string_view peer);

// The protocol's line for one run.
std::string outcome_line(std::string_view peer, const PeerOptions& options,
                         const kernels::Outcome& outcome);

// Prints --list's lines.
void print_workloads();

// The whole executable: parse, then run every repetition on a backend made once by
// make_par(workers, loops, schedule). Returns the exit status.
template <class MakePar>
int peer_main(std::string_view peer, int argc, char** argv, MakePar make_par) {
  using Par = decltype(make_par(1, std::string_view(), LoopSchedule()));
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  PeerOptions options;
  try {
    options = parse_peer_args(args, Par::kLoopVariants, &Par::runs_under);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "weft-peer-%.*s: %s\n", static_cast<int>(peer.size()), peer.data(),
                 e.what());
    return 2;
  }
  if (options.help) {
    std::fputs(peer_help(peer).c_str(), stdout);
    return 0;
  }
  if (options.list) {
    print_workloads();
    return 0;
  }
  if (options.list_loops) {
    for (const std::string_view v : Par::kLoopVariants)
      if (Par::runs_under(v, options.schedule))
        std::printf("%.*s\n", static_cast<int>(v.size()), v.data());
    return 0;
  }
  auto par = make_par(options.workers, options.loops, options.schedule);
  // No timed run pays for the backend's thread start-up or wake-up (weft-bench warms its
  // weft runtimes up the same way before each of their runs).
  for (int rep = 0; rep < options.repeat; ++rep) {
    kernels::warm_up(par);
    const kernels::Outcome outcome = kernels::run_spec(options.spec, par);
    std::printf("%s\n", outcome_line(peer, options, outcome).c_str());
    std::fflush(stdout);
    if (!outcome.error.empty()) return 1;
  }
  return 0;
}

}  // namespace peers
