#include "tools/bench/cli/compare_pairs.hpp"

#include <algorithm>

#include "tools/bench/cli/compare.hpp"
#include "tools/bench/stats/randomized_blocks.hpp"

namespace bench_cli {

const CompareRun* weft_run_for_peer(const CompareWorkload& w, const CompareRun& peer) {
  const auto candidate = [&peer](const CompareRun& r) {
    return r.impl == "weft" && r.workers == peer.workers && r.skipped.empty();
  };
  // Like for like: weft's runs of the peer's schedule, where there are any.
  const bool same_schedule = std::any_of(w.runs.begin(), w.runs.end(), [&](const CompareRun& r) {
    return candidate(r) && !r.schedule.empty() && r.schedule == peer.schedule;
  });
  const CompareRun* first = nullptr;
  for (const CompareRun& r : w.runs) {
    if (!candidate(r) || (same_schedule && r.schedule != peer.schedule)) continue;
    if (r.defaults) return &r;
    if (first == nullptr) first = &r;
  }
  return first;
}

std::vector<ComparePair> plan_pairs(const CompareWorkload& w) {
  std::vector<ComparePair> pairs;
  const auto index = [&w](const CompareRun* r) {
    return static_cast<std::size_t>(r - w.runs.data());
  };
  const bool serial_runs = !w.runs.empty() && w.runs.front().skipped.empty();
  for (const CompareRun& r : w.runs) {
    if (r.impl != "weft" || !r.skipped.empty() || !serial_runs) continue;
    pairs.push_back({"weft/serial", "weft/serial", "", index(&r), 0, {}, 0, false});
  }
  for (const CompareRun& peer : w.runs) {
    if (!peer.is_peer() || !peer.skipped.empty()) continue;
    const CompareRun* weft = weft_run_for_peer(w, peer);
    if (weft == nullptr) continue;
    pairs.push_back({"weft/peer",
                     "weft/" + peer.impl + (peer.variant.empty() ? "" : "/" + peer.variant),
                     "",
                     index(weft),
                     index(&peer),
                     {},
                     0,
                     false});
  }
  for (const WeftPair& p : weft_pairs(w))
    pairs.push_back({"setting", p.name, p.context, index(p.a), index(p.b), {}, 0, false});
  return pairs;
}

void summarize_pairs(CompareWorkload& w, double confidence, int resamples, std::uint64_t seed,
                     int look) {
  for (std::size_t k = 0; k < w.pairs.size(); ++k) {
    ComparePair& p = w.pairs[k];
    if (p.decided) continue;
    const bench_stats::BootstrapOptions options{resamples, confidence,
                                                bench_stats::derive_seed(seed, k)};
    p.summary = bench_stats::compare_paired(w.runs[p.a].times, w.runs[p.b].times, options);
    p.look = look;
    p.decided = look > 0 && p.summary.verdict != bench_stats::Verdict::kUndecided;
  }
}

bool all_decided(const CompareWorkload& w) {
  return std::all_of(w.pairs.begin(), w.pairs.end(),
                     [](const ComparePair& p) { return p.decided; });
}

}  // namespace bench_cli
