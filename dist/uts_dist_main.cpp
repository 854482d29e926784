// weft-uts-dist: Unbalanced Tree Search over MPI ranks with work stealing between them
// (docs/DISTRIBUTED.md). Every rank parses the same command line; rank 0 alone speaks. Each
// repetition's counts are reduced to rank 0 and checked against the preset's published size
// (or a serial count of a custom tree); a wrong count exits 1 on every rank, bad input 2.
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "cli/output_file.hpp"
#include "common/text_format.hpp"
#include "dist/mpi_search.hpp"
#include "dist/profile_report.hpp"
#include "dist/uts_dist_args.hpp"
#include "dist/uts_search.hpp"
#include "uts/uts_seq.hpp"

namespace {

using weft::dist::RankProfile;

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

int run(int rank, int size, const weft::dist::UtsDistArgs& args) {
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
  const std::chrono::nanoseconds extra = slowdown(rank);
  std::vector<double> times;
  std::vector<std::vector<RankProfile>> profiles;  // rank 0: each repetition's, rank order
  uts::Counts total;
  bool exact = true;
  for (int rep = 0; rep < args.common.repeat; ++rep) {
    const int tag = weft::dist::next_search_tag(MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    weft::dist::MpiTransport transport(MPI_COMM_WORLD, tag);
    const auto mine = weft::dist::search_uts_rank(tree, transport, args.common.search, extra);
    const double seconds = MPI_Wtime() - start;
    transport.finish();
    double slowest = 0;
    MPI_Reduce(&seconds, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    std::vector<uts::Counts> counts(rank == 0 ? static_cast<std::size_t>(size) : 0);
    MPI_Gather(&mine.value, sizeof(uts::Counts), MPI_BYTE, counts.data(), sizeof(uts::Counts),
               MPI_BYTE, 0, MPI_COMM_WORLD);
    std::vector<RankProfile> ranks = weft::dist::gather_profiles(MPI_COMM_WORLD, mine.profile);
    MPI_Barrier(MPI_COMM_WORLD);
    weft::dist::drain_strays(MPI_COMM_WORLD, tag);
    if (rank != 0) continue;
    uts::Counts sum;
    for (const uts::Counts& c : counts) sum += c;
    const bool ok = matches(sum);
    if (!ok) {
      std::fprintf(stderr, "weft-uts-dist: repetition %d counted %llu nodes, expected %llu\n",
                   rep + 1, static_cast<unsigned long long>(sum.nodes),
                   static_cast<unsigned long long>(expected.nodes));
    }
    exact = exact && ok;
    total = sum;
    times.push_back(slowest);
    profiles.push_back(std::move(ranks));
  }
  int status = exact ? 0 : 1;
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank != 0) return status;

  std::vector<double> sorted = times;
  std::sort(sorted.begin(), sorted.end());
  const double median = sorted[sorted.size() / 2];
  const auto median_rep =
      static_cast<std::size_t>(std::find(times.begin(), times.end(), median) - times.begin());
  const std::vector<RankProfile>& per_rank = profiles[median_rep];
  std::printf(
      "UTS %s on %d ranks, steal %s, chunk %zu, poll %s: %llu nodes, %llu leaves, depth "
      "%d (%s)\n",
      args.tree_name.c_str(), size, args.common.steal.c_str(), args.common.search.chunk,
      args.common.search.poll_interval == 0
          ? "adaptive"
          : std::to_string(args.common.search.poll_interval).c_str(),
      static_cast<unsigned long long>(total.nodes), static_cast<unsigned long long>(total.leaves),
      total.max_depth, exact ? "exact" : "WRONG");
  std::printf("median of %d: %.4f s, %.2f Mnodes/s; the median repetition's ranks:\n",
              args.common.repeat, median, static_cast<double>(total.nodes) / median / 1e6);
  std::fputs(weft::dist::profile_table(per_rank).c_str(), stdout);
  std::fputs(weft::dist::latency_line(per_rank).c_str(), stdout);
  if (!args.common.json.empty()) {
    using bench_text::number;
    using bench_text::quote;
    std::string j = "{\"bench\":\"uts-dist\",\"tree\":" + quote(args.tree_name) +
                    ",\"ranks_count\":" + std::to_string(size) +
                    ",\"steal\":" + quote(args.common.steal) +
                    ",\"chunk\":" + std::to_string(args.common.search.chunk) +
                    ",\"poll\":" + std::to_string(args.common.search.poll_interval) +
                    ",\"repeat\":" + std::to_string(args.common.repeat) +
                    ",\"nodes\":" + std::to_string(total.nodes) +
                    ",\"leaves\":" + std::to_string(total.leaves) +
                    ",\"max_depth\":" + std::to_string(total.max_depth) +
                    ",\"verified\":" + (exact ? "true" : "false") +
                    ",\"median_s\":" + number(median) + ",\"times_s\":[";
    for (std::size_t i = 0; i < times.size(); ++i) j += (i ? "," : "") + number(times[i]);
    j += "]," + weft::dist::profile_json_members(per_rank) + "}\n";
    if (const std::string e = weft_bench::replace_file(args.common.json, j); !e.empty()) {
      std::fprintf(stderr, "weft-uts-dist: --json %s: %s\n", args.common.json.c_str(), e.c_str());
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
  weft::dist::UtsDistArgs args;
  std::string error = weft::dist::parse_uts_dist_args(argc, argv, args);
  if (error.empty() && !args.common.json.empty()) {
    error = weft_bench::check_replaceable(args.common.json);
    if (!error.empty()) error = "--json " + args.common.json + ": " + error;
  }
  if (!error.empty() || args.help) {
    if (rank == 0) {
      if (args.help) {
        std::fputs(weft::dist::uts_dist_usage().c_str(), stdout);
      } else {
        std::fprintf(stderr, "weft-uts-dist: %s\n", error.c_str());
      }
    }
    MPI_Finalize();
    return args.help ? 0 : 2;
  }
  int status = 1;
  try {
    status = run(rank, size, args);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "weft-uts-dist: rank %d: %s\n", rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return status;
}
