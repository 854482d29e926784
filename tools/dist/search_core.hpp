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
//
// Invariants (with DT1-DT4 in termination.hpp; docs/DISTRIBUTED.md, "Invariants"):
//   DT5 Every node is, at any moment, on exactly one rank's stack or in exactly one kWork
//       message in flight, until it is expanded, once, by the rank whose stack it is on: a
//       victim moves the nodes it gives out of its stack into the message (take_oldest), the
//       thief pushes every node of a kWork it receives, and a transport delivers each message
//       once (DT8). So with DT4 every stack is empty when kTerminate is sent, and every node
//       of the tree has been expanded exactly once; a rank told to stop with nodes left
//       throws, which a broken DT4 would show.
//   DT6 A victim gives only whole chunks from below its working chunk: holding n nodes, it
//       gives the k * chunk oldest, k = steal_amount(policy, (n - chunk) / chunk) (0 when n
//       <= chunk), so it keeps at least `chunk` nodes and a kWork carries at least `chunk`
//       >= 1 nodes (a receiver throws on one that is empty or not whole nodes). A rank with
//       nothing to release, an empty one included, answers kNoWork.
//   DT7 A rank has at most one request out: it asks only with its stack empty, with no
//       request of its own unanswered and other ranks to ask, never itself, and it counts
//       the request answered when a kWork or kNoWork arrives. A victim answers every request
//       it reads, once, at the poll that reads it; a request unread when its victim stops is
//       never answered (under MPI, drained as a stray after the search). So a rank receives
//       at most one answer per request, and none while it has no request out.
// Each rank's state (its stack, termination, random stream, profile) is touched by its own
// thread only; ranks share no memory, so the protocol has no atomics.
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
