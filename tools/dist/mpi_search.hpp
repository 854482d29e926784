// The whole distributed search over MPI: every rank of a communicator calls tree_search with
// the same root and options (it is collective), the ranks steal from each other until the
// tree is done, and every rank returns the combined result. MPI must be initialized, with at
// least MPI_THREAD_FUNNELED's support: only the calling thread uses MPI.
//
//   MPI_Init(&argc, &argv);
//   const std::uint64_t solutions = dist::tree_search(root, expand, std::plus<>{});
//   MPI_Finalize();
//
// Each search uses a tag of its own (next_search_tag), so messages of an earlier search can
// never be read as the next one's.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <type_traits>
#include <vector>

#include "tools/dist/mpi_transport.hpp"
#include "tools/dist/tree_search.hpp"

namespace dist {

// The next tag for a search on `comm`; every rank gets the same sequence because every rank
// makes the same collective calls. Cycles within [1, MPI_TAG_UB].
int next_search_tag(MPI_Comm comm);

// Every rank's profile on rank 0 (rank order), an empty vector elsewhere. Collective.
std::vector<RankProfile> gather_profiles(MPI_Comm comm, const RankProfile& mine);

// The search itself; `profile`, when given, receives this rank's. Rethrows what expand or
// combine throw (the other ranks then wait: the caller aborts the job, as uncaught
// exceptions under MPI must).
template <class Node, class Expand, class Combine>
ExpandResult<Node, Expand> tree_search(const Node& root, Expand&& expand, Combine&& combine,
                                       const SearchOptions& options = {},
                                       RankProfile* profile = nullptr,
                                       MPI_Comm comm = MPI_COMM_WORLD) {
  using Result = ExpandResult<Node, Expand>;
  static_assert(std::is_trivially_copyable_v<Result>, "results are gathered as bytes");
  const int tag = next_search_tag(comm);
  RankOutcome<Result> mine;
  {
    MpiTransport transport(comm, tag);
    mine = search_rank(transport, root, expand, combine, options);
    transport.finish();
  }
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  std::vector<Result> all(rank == 0 ? static_cast<std::size_t>(size) : 0);
  MPI_Gather(&mine.value, sizeof(Result), MPI_BYTE, all.data(), sizeof(Result), MPI_BYTE, 0, comm);
  Result total{};
  for (const Result& r : all) total = combine(std::move(total), r);
  MPI_Bcast(&total, sizeof(Result), MPI_BYTE, 0, comm);
  MPI_Barrier(comm);
  drain_strays(comm, tag);
  if (profile != nullptr) *profile = std::move(mine.profile);
  return total;
}

}  // namespace dist
