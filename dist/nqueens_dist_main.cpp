// weft-nqueens-dist: N-Queens (dist/nqueens_tree.hpp) as a user tree of
// weft::dist::tree_search, counted over MPI ranks with work stealing between them. Every
// repetition's count is checked against the published counts (OEIS A000170).
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <functional>
#include <string>
#include <vector>

#include "cli/output_file.hpp"
#include "common/text_format.hpp"
#include "dist/mpi_search.hpp"
#include "dist/nqueens_tree.hpp"
#include "dist/profile_report.hpp"
#include "dist/search_args.hpp"
#include "workloads/nqueens.hpp"

namespace {

constexpr int kMaxN = 20;  // the largest board the published table covers

struct Args {
  int n = 13;
  weft::dist::SearchArgs common;
  bool help = false;
};

std::string usage() {
  return "usage: weft-nqueens-dist [--n N] [--steal one|half|fixed:D] [--chunk C] [--poll K]\n"
         "                         [--repeat R] [--seed S] [--json FILE]\n"
         "  Counts the solutions of N-Queens over MPI ranks with work stealing between them\n"
         "  (weft::dist::tree_search); every count is checked against the published ones.\n"
         "  --n      the board's side, 1 to 20 (default 13)\n" +
         weft::dist::search_args_usage();
}

std::string parse(int argc, char** argv, Args& a) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view flag = argv[i];
    if (flag == "-h" || flag == "--help") {
      a.help = true;
      return "";
    }
    if (i + 1 >= argc) return std::string(flag) + ": expected a value after it";
    const std::string_view value = argv[++i];
    std::uint64_t n = 0;
    if (flag == "--n") {
      if (!weft::dist::parse_u64_in(value, 1, kMaxN, n)) {
        return "--n " + std::string(value) + ": expected 1 to " + std::to_string(kMaxN);
      }
      a.n = static_cast<int>(n);
    } else if (auto error = weft::dist::parse_search_arg(flag, value, a.common)) {
      if (!error->empty()) return *error;
    } else {
      return std::string(flag) + ": unknown option (--help lists them)";
    }
  }
  if (!a.common.json.empty()) {
    if (std::string e = weft_bench::check_replaceable(a.common.json); !e.empty()) {
      return "--json " + a.common.json + ": " + e;
    }
  }
  return "";
}

int run(int rank, int size, const Args& args) {
  const weft::dist::Placement root = weft::dist::Placement::empty_board(args.n);
  const std::int64_t expected = workloads::NQueens::known_solutions(args.n);
  std::vector<double> times;
  std::vector<std::vector<weft::dist::RankProfile>> profiles;
  std::uint64_t solutions = 0;
  bool exact = true;
  for (int rep = 0; rep < args.common.repeat; ++rep) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    weft::dist::RankProfile mine;
    solutions = weft::dist::tree_search(root, weft::dist::ExpandPlacement{},
                                        std::plus<std::uint64_t>{}, args.common.search, &mine);
    const double seconds = MPI_Wtime() - start;
    double slowest = 0;
    MPI_Reduce(&seconds, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    auto ranks = weft::dist::gather_profiles(MPI_COMM_WORLD, mine);
    if (rank != 0) continue;
    if (static_cast<std::int64_t>(solutions) != expected) {
      std::fprintf(
          stderr, "weft-nqueens-dist: repetition %d counted %llu solutions, expected %lld\n",
          rep + 1, static_cast<unsigned long long>(solutions), static_cast<long long>(expected));
      exact = false;
    }
    times.push_back(slowest);
    profiles.push_back(std::move(ranks));
  }
  int status = exact ? 0 : 1;
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank != 0) return status;
  std::vector<double> sorted = times;
  std::sort(sorted.begin(), sorted.end());
  const double median = sorted[sorted.size() / 2];
  const auto& per_rank = profiles[static_cast<std::size_t>(
      std::find(times.begin(), times.end(), median) - times.begin())];
  const auto& s = args.common.search;
  std::printf("N-Queens %d on %d ranks, steal %s, chunk %zu, poll %s: %llu solutions (%s)\n",
              args.n, size, args.common.steal.c_str(), s.chunk,
              s.poll_interval == 0 ? "adaptive" : std::to_string(s.poll_interval).c_str(),
              static_cast<unsigned long long>(solutions), exact ? "exact" : "WRONG");
  std::printf("median of %d: %.4f s; the median repetition's ranks:\n", args.common.repeat, median);
  std::fputs(weft::dist::profile_table(per_rank).c_str(), stdout);
  std::fputs(weft::dist::latency_line(per_rank).c_str(), stdout);
  if (!args.common.json.empty()) {
    using bench_text::number;
    using bench_text::quote;
    std::string j =
        "{\"bench\":\"nqueens-dist\",\"n\":" + std::to_string(args.n) +
        ",\"ranks_count\":" + std::to_string(size) + ",\"steal\":" + quote(args.common.steal) +
        ",\"chunk\":" + std::to_string(s.chunk) + ",\"poll\":" + std::to_string(s.poll_interval) +
        ",\"repeat\":" + std::to_string(args.common.repeat) +
        ",\"solutions\":" + std::to_string(solutions) +
        ",\"verified\":" + (exact ? "true" : "false") + ",\"median_s\":" + number(median) +
        ",\"times_s\":[";
    for (std::size_t i = 0; i < times.size(); ++i) j += (i ? "," : "") + number(times[i]);
    j += "]," + weft::dist::profile_json_members(per_rank) + "}\n";
    if (const std::string e = weft_bench::replace_file(args.common.json, j); !e.empty()) {
      std::fprintf(stderr, "weft-nqueens-dist: --json %s: %s\n", args.common.json.c_str(),
                   e.c_str());
      return 1;
    }
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Args args;
  const std::string error = parse(argc, argv, args);
  if (!error.empty() || args.help) {
    if (rank == 0) {
      if (args.help) {
        std::fputs(usage().c_str(), stdout);
      } else {
        std::fprintf(stderr, "weft-nqueens-dist: %s\n", error.c_str());
      }
    }
    MPI_Finalize();
    return args.help ? 0 : 2;
  }
  int status = 1;
  try {
    status = run(rank, size, args);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "weft-nqueens-dist: rank %d: %s\n", rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return status;
}
