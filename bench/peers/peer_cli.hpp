// The peer protocol, shared by every peer executable (weft-peer-gomp, -libomp, -tbb here,
// and the Rust weft-peer-rayon, which implements the same protocol on its own):
//
//   weft-peer-<name> --workload <name>[:<size>] --workers <W> [--repeat <R>] [--loops <V>]
//   weft-peer-<name> --list
//   weft-peer-<name> --list-loops
//
// Each repetition builds the input, times the computation alone, verifies it, and prints one
// JSON line on stdout:
//   {"peer":"gomp","workload":"fib:35","workers":2,"seconds":0.1234,
//    "result":"fib(35) = 9227465","verified":true}
// A run whose threads can outnumber its workers (OpenMP's nested variant) adds "threads":N.
// A wrong result prints the line with "verified":false and "error":"<reason>", then exits 1.
// A bad argument prints "weft-peer-<name>: <argument>: <what is wrong>" on stderr and exits 2.
// --list prints "<workload> <default size>" per line. --loops picks how the peer runs the loop
// workloads (suite.hpp's LoopWorkloads; a loop workload only): --list-loops prints its
// variants, one per line, in the order compare runs them as series. weft-bench compare is
// the client.
#pragma once

#include <cstdio>
#include <exception>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "workloads/suite.hpp"

namespace peers {

struct PeerOptions {
  bool list = false;
  bool list_loops = false;
  std::string loops;  // "" = the backend's default
  workloads::Spec spec;
  int workers = 0;
  int repeat = 1;
};

// Throws workloads::SizeError "<argument>: <what is wrong>". `variants` are the backend's loop
// variants, which --loops must name.
PeerOptions parse_peer_args(std::span<const std::string_view> args,
                            std::span<const std::string_view> variants = {});

// The protocol's line for one run.
std::string outcome_line(std::string_view peer, const PeerOptions& options,
                         const workloads::Outcome& outcome);

// Prints --list's lines.
void print_workloads();

// The whole executable: parse, then run every repetition on a backend made once by
// make_par(workers, loops). Returns the exit status.
template <class MakePar>
int peer_main(std::string_view peer, int argc, char** argv, MakePar make_par) {
  using Par = decltype(make_par(1, std::string_view()));
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  PeerOptions options;
  try {
    options = parse_peer_args(args, Par::kLoopVariants);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "weft-peer-%.*s: %s\n", static_cast<int>(peer.size()), peer.data(),
                 e.what());
    return 2;
  }
  if (options.list) {
    print_workloads();
    return 0;
  }
  if (options.list_loops) {
    for (const std::string_view v : Par::kLoopVariants)
      std::printf("%.*s\n", static_cast<int>(v.size()), v.data());
    return 0;
  }
  auto par = make_par(options.workers, options.loops);
  // Start the backend's threads before the first timed run (weft-bench keeps its weft
  // runtimes across repetitions too, so neither side times thread start-up).
  (void)workloads::run_spec(workloads::Spec{"fib", "20"}, par);
  for (int rep = 0; rep < options.repeat; ++rep) {
    const workloads::Outcome outcome = workloads::run_spec(options.spec, par);
    std::printf("%s\n", outcome_line(peer, options, outcome).c_str());
    std::fflush(stdout);
    if (!outcome.error.empty()) return 1;
  }
  return 0;
}

}  // namespace peers
