// A whole distributed search on the in-process network: one thread per rank, each running
// search_rank on its endpoint with its own copy of expand and combine. For tests and for
// trying the protocol without mpirun.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

#include "tools/dist/transport.hpp"
#include "tools/dist/tree_search.hpp"

namespace dist {

struct FakeRunOptions {
  int ranks = 2;
  std::uint64_t network_seed = 1;
  std::uint64_t max_delay_ns = 0;
  // A run not over by then is aborted and reported as a hang (std::runtime_error).
  std::chrono::milliseconds deadline{60'000};
};

// Runs `rank_main(endpoint)` on a thread per rank. Rethrows the first rank's exception,
// after ending the other ranks; throws std::invalid_argument for fewer than 1 rank.
void run_ranks_on_fake_network(const FakeRunOptions& run,
                               const std::function<void(Transport&)>& rank_main);

// Every rank's outcome, rank 0 first.
template <class Node, class Expand, class Combine>
std::vector<RankOutcome<ExpandResult<Node, Expand>>> run_on_fake_network(
    const Node& root, const Expand& expand, const Combine& combine, const SearchOptions& search,
    const FakeRunOptions& run) {
  std::vector<RankOutcome<ExpandResult<Node, Expand>>> outcomes(
      static_cast<std::size_t>(run.ranks > 0 ? run.ranks : 0));
  run_ranks_on_fake_network(run, [&](Transport& t) {
    Expand e = expand;  // each rank its own, as each process has under MPI
    Combine c = combine;
    outcomes[static_cast<std::size_t>(t.rank())] = search_rank(t, root, e, c, search);
  });
  return outcomes;
}

}  // namespace dist
