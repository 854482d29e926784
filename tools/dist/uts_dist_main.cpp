// weft-uts-dist: Unbalanced Tree Search over MPI ranks with work stealing between them
// (docs/DISTRIBUTED.md), UTS as a user tree of dist::tree_search. Every rank parses the
// same command line; rank 0 alone speaks. Each repetition's counts are checked against the
// preset's published size (or a serial count of a custom tree); a wrong count exits 1 on
// every rank, bad input 2.
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tools/dist/dist_program.hpp"
#include "tools/dist/mpi_search.hpp"
#include "tools/dist/uts_dist_args.hpp"
#include "tools/dist/uts_search.hpp"
#include "workloads/common/output_file.hpp"
#include "workloads/common/text_format.hpp"
#include "workloads/uts/uts_seq.hpp"

namespace {

// WEFT_DIST_FAIL_RANK and WEFT_DIST_SLOW_RANK name a rank in decimal; anything else names none.
bool names_rank(const char* variable, int rank) {
  const char* value = std::getenv(variable);
  return value != nullptr && std::string(value) == std::to_string(rank);
}

// A slow rank's extra time per node: WEFT_DIST_SLOW_US microseconds (default 5).
std::chrono::nanoseconds slowdown(int rank) {
  if (!names_rank("WEFT_DIST_SLOW_RANK", rank)) return {};
  const char* us = std::getenv("WEFT_DIST_SLOW_US");
  const long n = us != nullptr ? std::strtol(us, nullptr, 10) : 5;
  return std::chrono::microseconds(n > 0 ? n : 5);
}

int run(int rank, int size, const dist::UtsDistArgs& args) {
  const uts::Tree tree(args.tree);
  const uts::Preset* const published = args.published;
  uts::Counts expected;
  if (rank == 0) {
    if (published != nullptr) {
      expected.nodes = published->nodes;
    } else {
      expected = uts::traverse_sequential(tree);  // a custom tree: counted serially first
    }
  }
  // A count matches what the preset publishes (its leaves and depth where it gives them), or
  // the serial count of a custom tree.
  const auto matches = [&](const uts::Counts& c) {
    if (published == nullptr) return c == expected;
    return c.nodes == published->nodes && (!published->leaves || c.leaves == *published->leaves) &&
           (!published->max_depth || c.max_depth == *published->max_depth);
  };
  if (names_rank("WEFT_DIST_FAIL_RANK", rank)) {  // a test hook
    std::fprintf(stderr, "weft-uts-dist: rank %d: failing as WEFT_DIST_FAIL_RANK asks\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  const dist::UtsExpand expand{&tree, slowdown(rank)};
  dist::Repetitions repetitions;
  uts::Counts total;
  bool exact = true;
  for (int rep = 0; rep < args.common.repeat; ++rep) {
    MPI_Barrier(MPI_COMM_WORLD);
    dist::RankProfile mine;
    total =
        dist::tree_search(tree.root(), expand, dist::CombineCounts{}, args.common.search, &mine);
    repetitions.record(MPI_COMM_WORLD, mine);
    if (rank == 0 && !matches(total)) {
      std::fprintf(stderr, "weft-uts-dist: repetition %d counted %llu nodes, expected %llu\n",
                   rep + 1, static_cast<unsigned long long>(total.nodes),
                   static_cast<unsigned long long>(expected.nodes));
      exact = false;
    }
  }
  int status = exact ? 0 : 1;  // rank 0 knows; the others learn
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank != 0) return status;
  std::printf("UTS %s on %d ranks, %s: %llu nodes, %llu leaves, depth %d (%s)\n",
              args.tree_name.c_str(), size, dist::describe_search(args.common).c_str(),
              static_cast<unsigned long long>(total.nodes),
              static_cast<unsigned long long>(total.leaves), total.max_depth,
              exact ? "exact" : "WRONG");
  std::fputs(repetitions.text(total.nodes).c_str(), stdout);
  if (args.common.json.empty()) return status;
  const std::string json =
      "{\"bench\":\"uts-dist\",\"tree\":" + common::quote(args.tree_name) + "," +
      dist::search_json_members(args.common, size) + ",\"nodes\":" + std::to_string(total.nodes) +
      ",\"leaves\":" + std::to_string(total.leaves) +
      ",\"max_depth\":" + std::to_string(total.max_depth) +
      ",\"verified\":" + (exact ? "true" : "false") + "," + repetitions.json_members() + "}\n";
  if (const std::string e = bench_cli::replace_file(args.common.json, json); !e.empty()) {
    std::fprintf(stderr, "weft-uts-dist: --json %s: %s\n", args.common.json.c_str(), e.c_str());
    return 1;
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  dist::UtsDistArgs args;
  return dist::dist_program_main(
      argc, argv, "weft-uts-dist",
      [&](int c, char** v, bool& help) {
        const std::string error = dist::parse_uts_dist_args(c, v, args);
        help = args.help;
        return error;
      },
      dist::uts_dist_usage, [&](int rank, int size) { return run(rank, size, args); });
}
