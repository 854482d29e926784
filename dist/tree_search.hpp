// One rank of a distributed Unbalanced Tree Search with work stealing between ranks, after
// Olivier & Prins's chunked explicit stacks and the UTS reference's MPI version: each rank
// traverses from its own stack of nodes; nodes below its working chunk are releasable in
// whole chunks of `chunk` nodes; an idle rank asks a random other rank for work (one request
// outstanding) and the victim answers when it next polls, with as many of its oldest chunks
// as the steal policy gives for the releasable ones, or with nothing. Termination is
// detected by termination.hpp's token ring. Only rank 0 starts with the root.
#pragma once

#include <cstdint>

#include "dist/transport.hpp"
#include "uts/counts.hpp"
#include "uts/tree.hpp"
#include "weft/config.hpp"

namespace weft::dist {

struct SearchOptions {
  std::size_t chunk = 32;  // nodes a chunk, >= 1
  // Nodes expanded between two polls; 0: adaptive, as the UTS reference's MPI version
  // (from 1, +4 after each poll that found no request, up to 1024; back to 1 when one was).
  unsigned poll_interval = 0;
  weft::StealPolicy policy = weft::StealPolicy::one();  // chunks given for n releasable
  std::uint64_t seed = 1;                               // the victims' random stream
};

struct RankResult {
  uts::Counts counts;  // this rank's nodes
  std::uint64_t requests_sent = 0;
  std::uint64_t failed_steals = 0;  // requests answered with nothing
  std::uint64_t requests_served = 0;
  std::uint64_t chunks_sent = 0;
  std::uint64_t chunks_received = 0;
  std::uint64_t polls = 0;
  std::uint64_t token_rounds = 0;  // rank 0: termination rounds started
};

// Runs this rank's part until termination; throws std::invalid_argument for a bad option.
RankResult search_rank(const uts::Tree& tree, Transport& transport, const SearchOptions& options);

}  // namespace weft::dist
