#include "workloads/uts/uts_weft.hpp"

#include <array>
#include <cstddef>
#include <exception>
#include <vector>

namespace uts {
namespace {

// Children kept in a fixed array in the parent's frame: covers every binomial node of the
// sample trees (m <= 8) and most geometric ones, so that most nodes allocate nothing. Larger
// fan-outs (the binomial root's 2000, geometric nodes up to 100) use a vector.
constexpr int kInlineChildren = 8;

// One worker's node count, alone on its cache lines: each worker writes only its own.
struct alignas(128) WorkerNodes {
  std::uint64_t nodes = 0;
};

struct Context {
  const Tree* tree;
  SpawnCutoff cutoff;
  WorkerNodes* per_worker = nullptr;  // indexed by weft::this_worker_id(); may be null
};

Counts visit(const Context& ctx, const Node& node);

// One child's subtree as a task. The child hashes its own state (as in the paper's
// Generate_and_Traverse), so a thief that takes one of the root's 2000 children also takes
// its hashing. Three words: the closure lives in the task slot, not on the heap.
struct ChildTask {
  const Context* ctx;
  const Node* parent;  // in the parent's frame, which outlives the join
  std::int32_t index;

  Counts operator()() const { return visit(*ctx, ctx->tree->child(*parent, index)); }
};

bool should_spawn(const SpawnCutoff& cutoff, const Node& parent) {
  switch (cutoff.kind) {
    case SpawnCutoff::Kind::kNone: return true;
    case SpawnCutoff::Kind::kLevel: return parent.height < cutoff.value;
    case SpawnCutoff::Kind::kTasks: return weft::pending_tasks() < cutoff.value;
  }
  return true;
}

using ChildFuture = weft::SpawnedIfFuture<ChildTask>;

// Spawns children 0..n-1 into futures[0..n-1], then joins them newest first (weft's LIFO
// rule). A child's exception (only bad_alloc can occur) is rethrown once all are joined.
template <class Futures>
Counts spawn_and_join(const Context& ctx, const Node& node, int n, Futures& futures) {
  for (int i = 0; i < n; ++i) {
    // Re-evaluated per child: with a tasks cutoff the stack fills and drains as we go.
    futures[static_cast<std::size_t>(i)] =
        weft::spawn_if(should_spawn(ctx.cutoff, node), ChildTask{&ctx, &node, i});
  }
  Counts sum;
  std::exception_ptr first_error;
  for (int i = n - 1; i >= 0; --i) {
    try {
      sum += futures[static_cast<std::size_t>(i)].join();
    } catch (...) {
      if (!first_error) first_error = std::current_exception();
    }
  }
  if (first_error) std::rethrow_exception(first_error);
  return sum;
}

// A node with children: spawn them and sum their counts. Kept out of line so that visit()
// stays small enough to be inlined where a task starts and where a join runs a task
// inline: most nodes are leaves (7 of 8 in T3), and a leaf then costs no call and none of
// the frame that spawning needs.
[[gnu::noinline]] Counts visit_children(const Context& ctx, const Node& node, int n) {
  if (n <= kInlineChildren) {
    std::array<ChildFuture, kInlineChildren> futures;
    return spawn_and_join(ctx, node, n, futures);
  }
  std::vector<ChildFuture> futures(static_cast<std::size_t>(n));
  return spawn_and_join(ctx, node, n, futures);
}

inline Counts visit(const Context& ctx, const Node& node) {
  const int n = ctx.tree->num_children(node);
  Counts counts;
  counts.count_node(node.height, n);
  if (ctx.per_worker != nullptr) {
    // Plain writes: each worker owns its entry, and the joins order them before the
    // root's return, which the caller reads after.
    const int id = weft::this_worker_id();
    if (id >= 0) ++ctx.per_worker[id].nodes;
  }
  if (n == 0) return counts;  // most nodes: no futures constructed at all
  counts += visit_children(ctx, node, n);
  return counts;
}

Counts visit_root(const Context& ctx) {
  const Node root = ctx.tree->root();
  return visit(ctx, root);
}

}  // namespace

Counts traverse_weft_task(const Tree& tree, SpawnCutoff cutoff) {
  return visit_root(Context{&tree, cutoff});
}

Counts traverse_weft(weft::Runtime& rt, const Tree& tree, SpawnCutoff cutoff,
                     std::vector<std::uint64_t>* nodes_per_worker) {
  std::vector<WorkerNodes> per_worker(nodes_per_worker != nullptr ? rt.workers() : 0);
  const Context ctx{&tree, cutoff, nodes_per_worker != nullptr ? per_worker.data() : nullptr};
  const Counts counts = rt.run([&ctx] { return visit_root(ctx); });
  if (nodes_per_worker != nullptr) {
    nodes_per_worker->clear();
    for (const WorkerNodes& w : per_worker) nodes_per_worker->push_back(w.nodes);
  }
  return counts;
}

}  // namespace uts
