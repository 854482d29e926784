// What weft::dist's programs (weft-uts-dist, weft-nqueens-dist) share: main's frame under
// MPI, and each repetition's time and rank profiles gathered, reported and written as JSON.
#pragma once

#include <mpi.h>

#include <functional>
#include <string>
#include <vector>

#include "tools/dist/profile.hpp"
#include "tools/dist/search_args.hpp"

namespace dist {

// Every repetition of a search: its time (the slowest rank's search, from each rank's start
// to its end: MPI's start-up and the gathering after are not in it) and every rank's
// profile, on rank 0.
class Repetitions {
 public:
  // Collective: gathers each rank's profile of the search just ended.
  void record(MPI_Comm comm, const RankProfile& mine);

  // Rank 0 only, after at least one record.
  double median_s() const;
  // "median of 3: 0.2035 s[, 20.21 Mnodes/s]; the median repetition's ranks:", its table and
  // its latency line; `nodes` 0 leaves out the rate.
  std::string text(std::uint64_t nodes) const;
  // `"median_s":...,"times_s":[...],"ranks":[...],...`: JSON members.
  std::string json_members() const;

 private:
  std::vector<double> times_;
  std::vector<std::vector<RankProfile>> ranks_;
};

// "steal half, chunk 8, poll adaptive".
std::string describe_search(const SearchArgs& args);

// `"ranks_count":2,"steal":"half","chunk":8,"poll":0,"repeat":3`: JSON members.
std::string search_json_members(const SearchArgs& args, int ranks);

// A weft::dist program's main: initializes MPI, parses the command line on every rank
// (`parse(argc, argv, help)` returns "" or what is wrong), lets rank 0 alone print the
// usage (exit 0) or "PROGRAM: what is wrong" (exit 2), on every rank after MPI_Finalize;
// otherwise returns run(rank, size), and ends the job with MPI_Abort if it throws (the
// other ranks would wait for this one forever).
int dist_program_main(int argc, char** argv, const char* program,
                      const std::function<std::string(int, char**, bool&)>& parse,
                      const std::function<std::string()>& usage,
                      const std::function<int(int rank, int size)>& run);

}  // namespace dist
