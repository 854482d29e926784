// weft::dist's search interface for a user's tree: nodes of any trivially copyable type, an
// `expand` that pushes a node's children and returns the node's own contribution to the
// result, and a `combine` that merges two results. The protocol (search_core.hpp) moves
// nodes between ranks as bytes; nothing else of a node is shared.
//
//   struct Queen { std::uint32_t cols, left, right; std::uint8_t row, n; };
//   auto expand = [](const Queen& q, dist::Children<Queen>& out) -> std::uint64_t {
//     if (q.row == q.n) return 1;  // a solution
//     ... out.push(child) for each safe column ...
//     return 0;
//   };
//   dist::RankOutcome<std::uint64_t> mine =
//       dist::search_rank(transport, root, expand, std::plus<>{}, options);
//
// `Result{}` must be combine's identity, and combine associative and commutative: each rank
// folds its nodes' contributions in the order it expands them, and the ranks' results are
// folded in rank order (mpi_search.hpp). For the whole search over MPI, see mpi_search.hpp;
// on threads, fake_run.hpp.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include "tools/dist/search_core.hpp"

namespace dist {

// Where expand puts a node's children; the last pushed is expanded first.
template <class Node>
class Children {
 public:
  explicit Children(NodeStack& stack) : stack_(stack) {}
  void push(const Node& child) { stack_.push(child); }

 private:
  NodeStack& stack_;
};

template <class Result>
struct RankOutcome {
  Result value{};       // this rank's nodes' contributions, combined
  RankProfile profile;  // where its time went, what it exchanged
};

template <class Node, class Expand>
using ExpandResult = std::invoke_result_t<Expand&, const Node&, Children<Node>&>;

// Runs this rank's part of the search of the tree under `root` (read on rank 0 only) until
// the whole search has ended.
template <class Node, class Expand, class Combine>
RankOutcome<ExpandResult<Node, Expand>> search_rank(Transport& transport, const Node& root,
                                                    Expand&& expand, Combine&& combine,
                                                    const SearchOptions& options) {
  static_assert(std::is_trivially_copyable_v<Node>, "nodes travel between ranks as bytes");
  using Result = ExpandResult<Node, Expand>;
  struct Context {
    Expand& expand;
    Combine& combine;
    Result value{};
  } context{expand, combine};
  ErasedTree erased;
  erased.node_bytes = sizeof(Node);
  erased.context = &context;
  erased.expand_some = [](void* c, NodeStack& stack, std::size_t limit) -> std::size_t {
    auto& ctx = *static_cast<Context*>(c);
    Children<Node> children(stack);
    std::size_t expanded = 0;
    while (expanded < limit && !stack.empty()) {
      const Node node = stack.template pop<Node>();
      ctx.value = ctx.combine(std::move(ctx.value), ctx.expand(node, children));
      ++expanded;
    }
    return expanded;
  };
  RankOutcome<Result> outcome;
  outcome.profile =
      search_rank_erased(erased, reinterpret_cast<const std::byte*>(&root), transport, options);
  outcome.value = std::move(context.value);
  return outcome;
}

}  // namespace dist
