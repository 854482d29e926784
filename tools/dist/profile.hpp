// What one rank of a distributed search did: where its time went and what it exchanged.
//
// The four times partition the rank's search, from its start to its end, so they sum to
// `seconds` (each switch from one to the next reads the clock once):
//   busy   expanding nodes, polling included
//   serve  answering requests: choosing the chunks, packing and sending them
//   steal  passive (no nodes) with a request of its own unanswered
//   idle   passive with no request out: between an answer of nothing and the next request,
//          and waiting for the end
// A rank that has nodes never asks, so while it works `steal` does not grow; a request it
// answers stops `busy` and starts `serve`.
#pragma once

#include <cstdint>
#include <vector>

namespace dist {

struct RankProfile {
  double seconds = 0;
  double busy_s = 0;
  double serve_s = 0;
  double steal_s = 0;
  double idle_s = 0;

  std::uint64_t nodes = 0;  // nodes this rank expanded
  std::uint64_t requests_sent = 0;
  std::uint64_t failed_steals = 0;  // requests answered with nothing
  std::uint64_t requests_served = 0;
  std::uint64_t chunks_sent = 0;
  std::uint64_t chunks_received = 0;
  std::uint64_t bytes_sent = 0;  // every message's bytes on the wire, requests and tokens too
  std::uint64_t bytes_received = 0;
  std::uint64_t polls = 0;
  std::uint64_t token_rounds = 0;  // rank 0: termination rounds started

  // Seconds from sending a request to its answer (work or nothing), one per request answered.
  std::vector<double> round_trips_s;
  // Seconds from a victim taking up the request (packing included) to this rank receiving
  // its work, one per chunk message: the two ranks' steady clocks compared, which is exact
  // for ranks on one host and meaningless across hosts (whose clocks are not one).
  std::vector<double> transfers_s;
  // Rank 0: seconds from sending the termination token out to its return, in the last round
  // (the one that found every rank passive): the ring's cost once the work is done, a hop per
  // rank, each a message and a passive rank's poll. Earlier rounds wait at busy ranks.
  double last_token_round_s = 0;
};

// The q-quantile (0..1) of `samples` by the nearest rank; 0 for none.
double quantile(std::vector<double> samples, double q);

}  // namespace dist
