// weft-uts-dist: Unbalanced Tree Search over MPI ranks with work stealing between them
// (docs/DISTRIBUTED.md). Every rank parses the same command line; rank 0 alone speaks. Each
// repetition's counts are reduced to rank 0 and checked against the preset's published size
// (or a serial count of a custom tree); a wrong count exits 1 on every rank, bad input 2.
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "cli/output_file.hpp"
#include "common/text_format.hpp"
#include "dist/mpi_transport.hpp"
#include "dist/uts_dist_args.hpp"
#include "uts/uts_seq.hpp"

namespace {

using weft::dist::RankResult;

// One rank's figures as MPI gathers them.
constexpr int kFields = 12;
std::array<double, kFields> flatten(const RankResult& r, double seconds, std::uint64_t sent,
                                    std::uint64_t received) {
  return {static_cast<double>(r.counts.nodes),
          static_cast<double>(r.counts.leaves),
          static_cast<double>(r.counts.max_depth),
          static_cast<double>(r.requests_sent),
          static_cast<double>(r.failed_steals),
          static_cast<double>(r.requests_served),
          static_cast<double>(r.chunks_sent),
          static_cast<double>(r.chunks_received),
          static_cast<double>(r.polls),
          static_cast<double>(r.token_rounds),
          static_cast<double>(sent + received),
          seconds};
}
constexpr const char* kFieldNames[kFields] = {"nodes",         "leaves",          "max_depth",
                                              "requests_sent", "failed_steals",   "requests_served",
                                              "chunks_sent",   "chunks_received", "polls",
                                              "token_rounds",  "bytes",           "seconds"};

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
  // A test hook; anything but this rank's number in decimal leaves the rank alone.
  if (const char* fail = std::getenv("WEFT_DIST_FAIL_RANK");
      fail != nullptr && std::string(fail) == std::to_string(rank)) {
    std::fprintf(stderr, "weft-uts-dist: rank %d: failing as WEFT_DIST_FAIL_RANK asks\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  std::vector<double> times;
  std::vector<std::vector<double>> per_rank;  // rank 0: the median repetition's, row per rank
  std::vector<std::vector<std::vector<double>>> all;
  uts::Counts total;
  bool exact = true;
  for (int rep = 0; rep < args.repeat; ++rep) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    weft::dist::MpiTransport transport(MPI_COMM_WORLD, rep + 1);
    const RankResult r = weft::dist::search_rank(tree, transport, args.search);
    const double seconds = MPI_Wtime() - start;
    transport.finish();
    const auto mine = flatten(r, seconds, transport.bytes_sent(), transport.bytes_received());
    std::vector<double> gathered(rank == 0 ? static_cast<std::size_t>(size * kFields) : 0);
    MPI_Gather(mine.data(), kFields, MPI_DOUBLE, gathered.data(), kFields, MPI_DOUBLE, 0,
               MPI_COMM_WORLD);
    if (rank != 0) continue;
    uts::Counts counts;
    double slowest = 0;
    std::vector<std::vector<double>> rows;
    for (int q = 0; q < size; ++q) {
      const double* f = &gathered[static_cast<std::size_t>(q * kFields)];
      counts.nodes += static_cast<std::uint64_t>(f[0]);
      counts.leaves += static_cast<std::uint64_t>(f[1]);
      counts.max_depth = std::max(counts.max_depth, static_cast<std::int32_t>(f[2]));
      slowest = std::max(slowest, f[kFields - 1]);
      rows.emplace_back(f, f + kFields);
    }
    const bool ok = matches(counts);
    if (!ok) {
      std::fprintf(stderr, "weft-uts-dist: repetition %d counted %llu nodes, expected %llu\n",
                   rep + 1, static_cast<unsigned long long>(counts.nodes),
                   static_cast<unsigned long long>(expected.nodes));
    }
    exact = exact && ok;
    total = counts;
    times.push_back(slowest);
    all.push_back(std::move(rows));
  }
  MPI_Barrier(MPI_COMM_WORLD);
  for (int rep = 0; rep < args.repeat; ++rep) weft::dist::drain_strays(MPI_COMM_WORLD, rep + 1);
  int status = exact ? 0 : 1;
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank != 0) return status;

  std::vector<double> sorted = times;
  std::sort(sorted.begin(), sorted.end());
  const double median = sorted[sorted.size() / 2];
  const auto median_rep =
      static_cast<std::size_t>(std::find(times.begin(), times.end(), median) - times.begin());
  per_rank = all[median_rep];
  std::printf(
      "UTS %s on %d ranks, steal %s, chunk %zu, poll %s: %llu nodes, %llu leaves, depth "
      "%d (%s)\n",
      args.tree_name.c_str(), size, args.steal.c_str(), args.search.chunk,
      args.search.poll_interval == 0 ? "adaptive"
                                     : std::to_string(args.search.poll_interval).c_str(),
      static_cast<unsigned long long>(total.nodes), static_cast<unsigned long long>(total.leaves),
      total.max_depth, exact ? "exact" : "WRONG");
  std::printf("median of %d: %.4f s, %.2f Mnodes/s\n", args.repeat, median,
              static_cast<double>(total.nodes) / median / 1e6);
  std::printf("%5s %12s %9s %9s %9s %9s %9s %10s\n", "rank", "nodes", "requests", "failed",
              "served", "chunks>", "chunks<", "bytes");
  for (std::size_t q = 0; q < per_rank.size(); ++q) {
    const auto& f = per_rank[q];
    std::printf("%5zu %12.0f %9.0f %9.0f %9.0f %9.0f %9.0f %10.0f\n", q, f[0], f[3], f[4], f[5],
                f[6], f[7], f[10]);
  }
  if (!args.json.empty()) {
    using bench_text::number;
    using bench_text::quote;
    std::string j = "{\"bench\":\"uts-dist\",\"tree\":" + quote(args.tree_name) +
                    ",\"ranks_count\":" + std::to_string(size) + ",\"steal\":" + quote(args.steal) +
                    ",\"chunk\":" + std::to_string(args.search.chunk) +
                    ",\"poll\":" + std::to_string(args.search.poll_interval) +
                    ",\"repeat\":" + std::to_string(args.repeat) +
                    ",\"nodes\":" + std::to_string(total.nodes) +
                    ",\"leaves\":" + std::to_string(total.leaves) +
                    ",\"max_depth\":" + std::to_string(total.max_depth) +
                    ",\"verified\":" + (exact ? "true" : "false") +
                    ",\"median_s\":" + number(median) + ",\"times_s\":[";
    for (std::size_t i = 0; i < times.size(); ++i) j += (i ? "," : "") + number(times[i]);
    j += "],\"ranks\":[";
    for (std::size_t q = 0; q < per_rank.size(); ++q) {
      j += q ? ",{" : "{";
      for (int f = 0; f < kFields; ++f) {
        j += std::string(f ? "," : "") + "\"" + kFieldNames[f] + "\":" + number(per_rank[q][f]);
      }
      j += "}";
    }
    j += "]}\n";
    if (const std::string e = weft_bench::replace_file(args.json, j); !e.empty()) {
      std::fprintf(stderr, "weft-uts-dist: --json %s: %s\n", args.json.c_str(), e.c_str());
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
  if (error.empty() && !args.json.empty()) {
    error = weft_bench::check_replaceable(args.json);
    if (!error.empty()) error = "--json " + args.json + ": " + error;
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
