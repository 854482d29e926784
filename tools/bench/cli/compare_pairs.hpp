// The claims a compare sitting makes, each a paired comparison of two of a workload's runs
// (tools/bench/stats/paired.hpp): the ratio a / b repetition by repetition, its median, a bootstrap
// interval and a verdict. Which pairs a workload has is fixed before it runs, from its plan
// alone, never from the times (choosing weft's fastest series after the fact and then
// testing it would favour weft):
//   weft/serial  every weft series against the serial elision (< 1: weft faster);
//   weft/peer    every peer series against weft's series for it: the one with the defaults'
//                mechanism, policy, schedule and loop settings where one ran at the peer's
//                worker count (of the peer's schedule on a loop workload, where weft ran it),
//                else the first weft series there in the runs' order;
//   setting      the series of one setting's first value (mechanism, policy, and on a loop
//                workload schedule and loop settings) against each other value's, all else
//                alike (weft_pairs).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tools/bench/stats/paired.hpp"

namespace bench_cli {

struct CompareWorkload;
struct CompareRun;

struct ComparePair {
  std::string kind;          // "weft/serial", "weft/peer" or "setting"
  std::string name;          // "weft/serial", "weft/gomp", "pcb/dlist"
  std::string context;       // a setting pair's shared series ("concurrent/one dynamic:1 w=2")
  std::size_t a = 0, b = 0;  // indices into the workload's runs: the ratio is a / b
  bench_stats::PairedSummary summary;
  int look = 0;          // the look whose data the summary holds (0: a fixed --repeat run)
  bool decided = false;  // an --until-decided look gave it a verdict, which it keeps
};

// The pairs of a planned workload (runs set up, none run yet): skipped runs take no part.
std::vector<ComparePair> plan_pairs(const CompareWorkload& w);

// The weft run a peer's run is compared with (see above); nullptr where weft has none at
// the peer's worker count.
const CompareRun* weft_run_for_peer(const CompareWorkload& w, const CompareRun& peer);

// Summarises every pair not yet decided from the times so far, its bootstrap seeded by
// `seed` and the pair's index. With `look` > 0, a pair given a verdict other than undecided
// is marked decided and keeps that summary from then on.
void summarize_pairs(CompareWorkload& w, double confidence, int resamples, std::uint64_t seed,
                     int look);

// Whether every pair of `w` is decided (a workload without pairs is).
bool all_decided(const CompareWorkload& w);

}  // namespace bench_cli
