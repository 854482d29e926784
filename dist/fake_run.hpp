// A whole distributed search on the in-process network: one thread per rank, each running
// search_rank on its endpoint. For tests and for trying the protocol without mpirun.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

#include "dist/tree_search.hpp"

namespace weft::dist {

struct FakeRunOptions {
  int ranks = 2;
  std::uint64_t network_seed = 1;
  std::uint64_t max_delay_ns = 0;
  // A run not over by then is aborted and reported as a hang (std::runtime_error).
  std::chrono::milliseconds deadline{60'000};
};

// Every rank's result, rank 0 first. Rethrows the first rank's exception, after ending the
// other ranks.
std::vector<RankResult> run_on_fake_network(const uts::Tree& tree, const SearchOptions& search,
                                            const FakeRunOptions& run);

// The counts of the whole tree: the ranks' counts combined.
uts::Counts combined_counts(const std::vector<RankResult>& ranks);

}  // namespace weft::dist
