#include "tools/dist/mpi_search.hpp"

#include <array>
#include <map>
#include <stdexcept>

namespace dist {
namespace {

// The counters of a profile, as doubles for one MPI_Gather (exact below 2^53).
constexpr int kScalars = 16;
std::array<double, kScalars> scalars(const RankProfile& p) {
  return {p.seconds,
          p.busy_s,
          p.serve_s,
          p.steal_s,
          p.idle_s,
          static_cast<double>(p.nodes),
          static_cast<double>(p.requests_sent),
          static_cast<double>(p.failed_steals),
          static_cast<double>(p.requests_served),
          static_cast<double>(p.chunks_sent),
          static_cast<double>(p.chunks_received),
          static_cast<double>(p.bytes_sent),
          static_cast<double>(p.bytes_received),
          static_cast<double>(p.polls),
          static_cast<double>(p.token_rounds),
          p.last_token_round_s};
}
RankProfile from_scalars(const double* f) {
  RankProfile p;
  const auto u = [](double d) { return static_cast<std::uint64_t>(d); };
  p.seconds = f[0];
  p.busy_s = f[1];
  p.serve_s = f[2];
  p.steal_s = f[3];
  p.idle_s = f[4];
  p.nodes = u(f[5]);
  p.requests_sent = u(f[6]);
  p.failed_steals = u(f[7]);
  p.requests_served = u(f[8]);
  p.chunks_sent = u(f[9]);
  p.chunks_received = u(f[10]);
  p.bytes_sent = u(f[11]);
  p.bytes_received = u(f[12]);
  p.polls = u(f[13]);
  p.token_rounds = u(f[14]);
  p.last_token_round_s = f[15];
  return p;
}

void check(int rc, const char* what) {
  if (rc != MPI_SUCCESS) throw std::runtime_error(std::string("weft::dist: ") + what + " failed");
}

// Every rank's samples, concatenated in rank order on rank 0.
std::vector<double> gather_samples(MPI_Comm comm, int rank, int size,
                                   const std::vector<double>& mine, std::vector<int>& counts) {
  const int n = static_cast<int>(mine.size());
  counts.assign(rank == 0 ? static_cast<std::size_t>(size) : 0, 0);
  check(MPI_Gather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm), "MPI_Gather");
  std::vector<int> offsets(counts.size(), 0);
  int total = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    offsets[i] = total;
    total += counts[i];
  }
  std::vector<double> all(static_cast<std::size_t>(total));
  check(MPI_Gatherv(mine.data(), n, MPI_DOUBLE, all.data(), counts.data(), offsets.data(),
                    MPI_DOUBLE, 0, comm),
        "MPI_Gatherv");
  return all;
}

void split_samples(const std::vector<double>& all, const std::vector<int>& counts,
                   std::vector<RankProfile>& out, std::vector<double> RankProfile::*field) {
  std::size_t at = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    const auto n = static_cast<std::size_t>(counts[i]);
    (out[i].*field)
        .assign(all.begin() + static_cast<std::ptrdiff_t>(at),
                all.begin() + static_cast<std::ptrdiff_t>(at + n));
    at += n;
  }
}

}  // namespace

int next_search_tag(MPI_Comm comm) {
  static std::map<MPI_Comm, int> last;  // per communicator; one thread uses MPI
  int* ub = nullptr;
  int found = 0;
  check(MPI_Comm_get_attr(comm, MPI_TAG_UB, &ub, &found), "MPI_Comm_get_attr");
  const int limit = (found && ub != nullptr) ? *ub : 32767;  // the standard's least
  int& tag = last[comm];
  tag = tag >= limit ? 1 : tag + 1;
  return tag;
}

std::vector<RankProfile> gather_profiles(MPI_Comm comm, const RankProfile& mine) {
  int rank = 0, size = 1;
  check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  check(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  const std::array<double, kScalars> s = scalars(mine);
  std::vector<double> all(rank == 0 ? static_cast<std::size_t>(size * kScalars) : 0);
  check(MPI_Gather(s.data(), kScalars, MPI_DOUBLE, all.data(), kScalars, MPI_DOUBLE, 0, comm),
        "MPI_Gather");
  std::vector<RankProfile> out;
  for (int q = 0; rank == 0 && q < size; ++q) {
    out.push_back(from_scalars(&all[static_cast<std::size_t>(q * kScalars)]));
  }
  std::vector<int> counts;
  split_samples(gather_samples(comm, rank, size, mine.round_trips_s, counts), counts, out,
                &RankProfile::round_trips_s);
  split_samples(gather_samples(comm, rank, size, mine.transfers_s, counts), counts, out,
                &RankProfile::transfers_s);
  return out;
}

}  // namespace dist
