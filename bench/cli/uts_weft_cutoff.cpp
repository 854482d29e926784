#include "cli/uts_weft_cutoff.hpp"

#include <array>
#include <cstddef>
#include <exception>
#include <vector>

namespace weft_bench {
namespace {

using uts::Counts;
using uts::Node;
using uts::Tree;

// Children in a fixed array in the parent's frame, as in uts_weft.cpp: most nodes allocate
// nothing.
constexpr int kInlineChildren = 8;

struct Context {
  const Tree* tree;
  Cutoff cutoff;
};

Counts visit(const Context& ctx, const Node& node);

// Three words, so the closure lives in the task slot.
struct ChildTask {
  const Context* ctx;
  const Node* parent;  // in the parent's frame, which outlives the join
  std::int32_t index;

  Counts operator()() const { return visit(*ctx, ctx->tree->child(*parent, index)); }
};

using ChildFuture = weft::SpawnedFuture<ChildTask>;

bool should_spawn(const Context& ctx, const Node& parent) {
  switch (ctx.cutoff.kind) {
    case Cutoff::Kind::kNone: return true;
    case Cutoff::Kind::kLevel: return parent.height < ctx.cutoff.value;
    case Cutoff::Kind::kTasks: return weft::pending_tasks() < ctx.cutoff.value;
  }
  return true;
}

template <class Futures>
Counts spawn_and_join(const Context& ctx, const Node& node, int n, Futures& futures) {
  for (int i = 0; i < n; ++i) {
    // Re-evaluated per child: with tasks:K the stack fills and drains as the loop goes.
    futures[static_cast<std::size_t>(i)] =
        weft::spawn_if(should_spawn(ctx, node), ChildTask{&ctx, &node, i});
  }
  Counts sum;
  std::exception_ptr first_error;
  for (int i = n - 1; i >= 0; --i) {  // newest first: weft's LIFO join rule
    try {
      sum += futures[static_cast<std::size_t>(i)].join();
    } catch (...) {
      if (!first_error) first_error = std::current_exception();
    }
  }
  if (first_error) std::rethrow_exception(first_error);
  return sum;
}

Counts visit(const Context& ctx, const Node& node) {
  const int n = ctx.tree->num_children(node);
  Counts counts;
  counts.count_node(node.height, n);
  if (n == 0) return counts;
  if (n <= kInlineChildren) {
    std::array<ChildFuture, kInlineChildren> futures;
    counts += spawn_and_join(ctx, node, n, futures);
  } else {
    std::vector<ChildFuture> futures(static_cast<std::size_t>(n));
    counts += spawn_and_join(ctx, node, n, futures);
  }
  return counts;
}

}  // namespace

Counts traverse_weft_cutoff(weft::Runtime& rt, const Tree& tree, const Cutoff& cutoff) {
  const Context ctx{&tree, cutoff};
  return rt.run([&ctx, &tree] {
    const Node root = tree.root();
    return visit(ctx, root);
  });
}

}  // namespace weft_bench
