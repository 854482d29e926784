// weft-dist-skewed: searches tests/dist_skewed_tree.hpp's skewed tree (over a UTS preset)
// with dist::tree_search under MPI, and prints on rank 0 the size it found, whether it
// is exact, and each rank's share of the nodes, for tests/dist_mpi_test.sh.
//   usage: weft-dist-skewed PRESET STEAL CHUNK
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>

#include "dist_skewed_tree.hpp"
#include "tools/dist/mpi_search.hpp"
#include "workloads/uts/presets.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const uts::Preset* preset = argc == 4 ? uts::find_preset(argv[1]) : nullptr;
  if (preset == nullptr) {
    if (rank == 0) std::fprintf(stderr, "usage: weft-dist-skewed PRESET STEAL CHUNK\n");
    MPI_Finalize();
    return 2;
  }
  const uts::Tree tree(preset->params);
  dist::SearchOptions options;
  options.policy = weft::StealPolicy::parse(argv[2]);
  options.chunk = std::strtoull(argv[3], nullptr, 10);
  dist::RankProfile mine;
  const std::uint64_t nodes =
      dist::tree_search(weft_test::SkewedNode{}, weft_test::ExpandSkewed{&tree},
                        std::plus<std::uint64_t>{}, options, &mine);
  const auto ranks = dist::gather_profiles(MPI_COMM_WORLD, mine);
  const std::uint64_t expected = preset->nodes + 20;
  if (rank == 0) {
    std::printf("%llu nodes (%s)\n", static_cast<unsigned long long>(nodes),
                nodes == expected ? "exact" : "WRONG");
    for (int q = 0; q < size; ++q) {
      std::printf("rank %d share %.4f\n", q,
                  static_cast<double>(ranks[static_cast<std::size_t>(q)].nodes) /
                      static_cast<double>(nodes));
    }
  }
  MPI_Finalize();
  return nodes == expected ? 0 : 1;
}
