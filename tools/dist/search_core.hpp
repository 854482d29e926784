// One rank of a distributed tree search with work stealing between ranks, after Olivier &
// Prins's chunked explicit stacks and the UTS reference's MPI version, for nodes of any
// trivially copyable type (tree_search.hpp gives the typed interface over this one).
//
// Each rank traverses from its own stack of nodes; the nodes below its working chunk (the top
// `chunk` nodes) are releasable in whole chunks of `chunk` nodes; an idle rank asks a random
// other rank for work (one request outstanding) and the victim answers when it next polls,
// with as many of its oldest chunks as the steal policy gives for the releasable ones, or
// with nothing. Termination is detected by termination.hpp's token ring. Only rank 0 starts
// with the root.
#pragma once

#include <cstddef>
#include <cstdint>

#include "tools/dist/node_stack.hpp"
#include "tools/dist/profile.hpp"
#include "tools/dist/transport.hpp"
#include "weft/config.hpp"

namespace dist {

struct SearchOptions {
  std::size_t chunk = 32;  // nodes a chunk, >= 1
  // Nodes expanded between two polls; 0: adaptive, as the UTS reference's MPI version
  // (from 1, +4 after each poll that found no request, up to 1024; back to 1 when one was).
  unsigned poll_interval = 0;
  weft::StealPolicy policy = weft::StealPolicy::one();  // chunks given for n releasable
  std::uint64_t seed = 1;                               // the victims' random stream
};

// The node type as the protocol sees it: its size, and a function that expands up to `limit`
// nodes from the top of the stack (pushing their children there) and says how many it
// expanded; it stops early only when the stack runs empty. `context` is the caller's.
struct ErasedTree {
  std::size_t node_bytes = 0;
  void* context = nullptr;
  std::size_t (*expand_some)(void* context, NodeStack& stack, std::size_t limit) = nullptr;
};

// Runs this rank's part until termination; `root` (node_bytes bytes) is read on rank 0
// only. Throws std::invalid_argument for a bad option, and whatever expand_some throws.
RankProfile search_rank_erased(const ErasedTree& tree, const std::byte* root, Transport& transport,
                               const SearchOptions& options);

}  // namespace dist
