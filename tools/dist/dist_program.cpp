#include "tools/dist/dist_program.hpp"

#include <algorithm>
#include <cstdio>
#include <exception>

#include "tools/dist/mpi_search.hpp"
#include "tools/dist/profile_report.hpp"
#include "workloads/common/text_format.hpp"

namespace dist {
namespace {

std::size_t median_index(const std::vector<double>& times) {
  std::vector<double> sorted = times;
  std::sort(sorted.begin(), sorted.end());
  const double median = sorted[sorted.size() / 2];
  return static_cast<std::size_t>(std::find(times.begin(), times.end(), median) - times.begin());
}

}  // namespace

void Repetitions::record(MPI_Comm comm, const RankProfile& mine) {
  std::vector<RankProfile> ranks = gather_profiles(comm, mine);
  if (ranks.empty()) return;  // not rank 0
  double slowest = 0;
  for (const RankProfile& r : ranks) slowest = std::max(slowest, r.seconds);
  times_.push_back(slowest);
  ranks_.push_back(std::move(ranks));
}

double Repetitions::median_s() const { return times_[median_index(times_)]; }

std::string Repetitions::text(std::uint64_t nodes) const {
  const double median = median_s();
  std::string t = common::format("median of %zu: %.4f s", times_.size(), median);
  if (nodes > 0) {
    t += common::format(", %.2f Mnodes/s", static_cast<double>(nodes) / median / 1e6);
  }
  const std::vector<RankProfile>& ranks = ranks_[median_index(times_)];
  return t + "; the median repetition's ranks:\n" + profile_table(ranks) + latency_line(ranks);
}

std::string Repetitions::json_members() const {
  std::string j = "\"median_s\":" + common::number(median_s()) + ",\"times_s\":[";
  for (std::size_t i = 0; i < times_.size(); ++i) {
    if (i > 0) j += ',';
    j += common::number(times_[i]);
  }
  return j + "]," + profile_json_members(ranks_[median_index(times_)]);
}

std::string describe_search(const SearchArgs& args) {
  const SearchOptions& s = args.search;
  const std::string poll = s.poll_interval == 0 ? "adaptive" : std::to_string(s.poll_interval);
  return common::format("steal %s, chunk %zu, poll %s", args.steal.c_str(), s.chunk, poll.c_str());
}

std::string search_json_members(const SearchArgs& args, int ranks) {
  return "\"ranks_count\":" + std::to_string(ranks) + ",\"steal\":" + common::quote(args.steal) +
         ",\"chunk\":" + std::to_string(args.search.chunk) +
         ",\"poll\":" + std::to_string(args.search.poll_interval) +
         ",\"repeat\":" + std::to_string(args.repeat);
}

int dist_program_main(int argc, char** argv, const char* program,
                      const std::function<std::string(int, char**, bool&)>& parse,
                      const std::function<std::string()>& usage,
                      const std::function<int(int rank, int size)>& run) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  bool help = false;
  const std::string error = parse(argc, argv, help);
  if (!error.empty() || help) {
    if (rank == 0) {
      if (help) {
        std::fputs(usage().c_str(), stdout);
      } else {
        std::fprintf(stderr, "%s: %s\n", program, error.c_str());
      }
    }
    MPI_Finalize();
    return help ? 0 : 2;
  }
  int status = 1;
  try {
    status = run(rank, size);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: rank %d: %s\n", program, rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return status;
}

}  // namespace dist
