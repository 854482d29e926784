// weft-nqueens-dist: N-Queens (tools/dist/nqueens_tree.hpp) as a user tree of
// dist::tree_search, counted over MPI ranks with work stealing between them. Every
// repetition's count is checked against the published counts (OEIS A000170); a wrong count
// exits 1 on every rank, bad input 2.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tools/dist/dist_program.hpp"
#include "tools/dist/mpi_search.hpp"
#include "tools/dist/nqueens_tree.hpp"
#include "tools/dist/search_args.hpp"
#include "workloads/common/flags.hpp"
#include "workloads/common/output_file.hpp"
#include "workloads/kernels/nqueens.hpp"

namespace {

constexpr int kMaxN = 20;  // the largest board the published table covers

struct Args {
  int n = 13;
  dist::SearchArgs common;
};

// The flags, parsed into `a`; the table also writes --help's option list.
common::FlagTable flag_table(Args& a) {
  std::vector<common::Flag> flags{
      {"--n", "N", "the board's side, 1 to 20 (default 13)",
       [&a](std::string_view v) {
         a.n = static_cast<int>(common::parse_integer(common::argument("--n", v), v, 1, kMaxN));
       }},
  };
  for (common::Flag& f : dist::search_flags(a.common)) flags.push_back(std::move(f));
  return common::FlagTable(std::move(flags));
}

std::string usage() {
  Args scratch;
  return "usage: weft-nqueens-dist [--n N] [--steal one|half|fixed:D] [--chunk C] [--poll K]\n"
         "                         [--repeat R] [--seed S] [--json FILE]\n"
         "  Counts the solutions of N-Queens over MPI ranks with work stealing between them\n"
         "  (dist::tree_search); every count is checked against the published ones.\n" +
         flag_table(scratch).options_help();
}

int run(int rank, int size, const Args& args) {
  const dist::Placement root = dist::Placement::empty_board(args.n);
  const std::int64_t expected = kernels::NQueens::known_solutions(args.n);
  dist::Repetitions repetitions;
  std::uint64_t solutions = 0;
  bool exact = true;
  for (int rep = 0; rep < args.common.repeat; ++rep) {
    MPI_Barrier(MPI_COMM_WORLD);
    dist::RankProfile mine;
    solutions = dist::tree_search(root, dist::ExpandPlacement{}, std::plus<std::uint64_t>{},
                                  args.common.search, &mine);
    repetitions.record(MPI_COMM_WORLD, mine);
    if (static_cast<std::int64_t>(solutions) != expected) {
      if (rank == 0) {
        std::fprintf(
            stderr, "weft-nqueens-dist: repetition %d counted %llu solutions, expected %lld\n",
            rep + 1, static_cast<unsigned long long>(solutions), static_cast<long long>(expected));
      }
      exact = false;  // on every rank: each has the combined count
    }
  }
  const int status = exact ? 0 : 1;
  if (rank != 0) return status;
  std::printf("N-Queens %d on %d ranks, %s: %llu solutions (%s)\n", args.n, size,
              dist::describe_search(args.common).c_str(),
              static_cast<unsigned long long>(solutions), exact ? "exact" : "WRONG");
  std::fputs(repetitions.text(0).c_str(), stdout);
  if (args.common.json.empty()) return status;
  const std::string json =
      "{\"bench\":\"nqueens-dist\",\"n\":" + std::to_string(args.n) + "," +
      dist::search_json_members(args.common, size) + ",\"solutions\":" + std::to_string(solutions) +
      ",\"verified\":" + (exact ? "true" : "false") + "," + repetitions.json_members() + "}\n";
  if (const std::string e = bench_cli::replace_file(args.common.json, json); !e.empty()) {
    std::fprintf(stderr, "weft-nqueens-dist: --json %s: %s\n", args.common.json.c_str(), e.c_str());
    return 1;
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  return dist::dist_program_main(
      argc, argv, "weft-nqueens-dist",
      [&](int c, char** v, bool& help) { return dist::parse_flags(flag_table(args), c, v, help); },
      usage, [&](int rank, int size) { return run(rank, size, args); });
}
