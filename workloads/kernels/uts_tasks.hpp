// UTS as a compare workload: the task-parallel traversal of an Unbalanced Tree Search tree
// (workloads/uts) written once against the fork-join interface, so that weft and every peer run
// the same Generate_and_Traverse (Olivier & Prins Sect. 3.1, docs/REFERENCES.md). It differs
// from uts::traverse_weft only in being generic: no weft futures, no cutoff, no per-worker
// counts.
//
// Every node is a task: it draws its own number of children, spawns one child task per
// child in one par.scope, and adds the children's counts after the scope. A child computes
// its own SHA-1 state from its parent's (so a thief that takes one of the binomial root's
// 2000 children also takes its hashing) and writes its subtree's uts::Counts into its own
// slot of the parent's array. Leaves, most of the nodes, open no scope at all.
//
// The size is a preset name (presets.hpp); the counts are checked against the preset's
// published ones, and any the source does not publish (B's leaves and depth) against the
// sequential traversal (untimed).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "workloads/kernels/workload.hpp"
#include "workloads/uts/counts.hpp"
#include "workloads/uts/tree.hpp"

namespace kernels {

class Uts {
 public:
  static constexpr std::string_view kName = "uts";
  static constexpr std::string_view kDefault = "T3";

  // What a source publishes about a tree; empty fields are computed by verify().
  struct KnownCounts {
    std::optional<std::uint64_t> nodes;
    std::optional<std::uint64_t> leaves;
    std::optional<std::int32_t> max_depth;
  };
  // parse() fills these from a preset. A test may build them directly for a tree smaller
  // than any preset; Params{} is the reference's default tree with nothing known, which
  // verify() checks against the sequential traversal.
  struct Params {
    std::string name;
    uts::TreeParams tree;
    KnownCounts known;
  };
  static Params parse(std::string_view size);

  // Throws std::invalid_argument if params.tree is not a valid tree.
  explicit Uts(const Params& params);

  template <class Par>
  void compute(Par& par) {
    const Context<Par> ctx{&par, &tree_};
    const uts::Node root = tree_.root();
    counts_ = visit(ctx, root);
  }
  std::string verify() const;
  std::string result() const;

  const uts::Counts& counts() const { return counts_; }
  // Test-only: replaces the computed counts, so that a test can show verify() rejects
  // wrong ones.
  void set_counts_for_testing(const uts::Counts& counts) { counts_ = counts; }

 private:
  // Children counted into a fixed array in the parent's frame: every binomial node of the
  // presets has m <= 8 children, and most geometric ones too, so most nodes allocate
  // nothing. Bigger fan-outs (the binomial root's 2000, geometric nodes up to 100) use a
  // vector.
  static constexpr int kInlineChildren = 8;

  template <class Par>
  struct Context {
    Par* par;
    const uts::Tree* tree;
  };

  // One child's subtree. Three pointers and an index: 32 bytes, inside weft's task slot.
  template <class Par>
  struct Child {
    const Context<Par>* ctx;
    const uts::Node* parent;  // in the parent's frame, which outlives the scope
    uts::Counts* out;
    std::int32_t index;
    void operator()() const { *out = visit(*ctx, ctx->tree->child(*parent, index)); }
  };

  template <class Par>
  static uts::Counts visit(const Context<Par>& ctx, const uts::Node& node) {
    static_assert(sizeof(Child<Par>) <= 48, "keep the child closure in weft's task slot");
    const int children = ctx.tree->num_children(node);
    uts::Counts counts;
    counts.count_node(node.height, children);
    if (children == 0) return counts;
    if (children <= kInlineChildren) {
      std::array<uts::Counts, kInlineChildren> child_counts;
      counts += visit_children(ctx, node, children, child_counts.data());
    } else {
      std::vector<uts::Counts> child_counts(static_cast<std::size_t>(children));
      counts += visit_children(ctx, node, children, child_counts.data());
    }
    return counts;
  }

  // Spawns the node's children into one scope; returns the sum of their subtrees' counts.
  template <class Par>
  static uts::Counts visit_children(const Context<Par>& ctx, const uts::Node& node, int children,
                                    uts::Counts* child_counts) {
    ctx.par->scope([&](auto& s) {
      for (std::int32_t i = 0; i < children; ++i) {
        s.spawn(Child<Par>{&ctx, &node, &child_counts[i], i});
      }
    });
    uts::Counts sum;
    for (int i = 0; i < children; ++i) sum += child_counts[i];
    return sum;
  }

  std::string name_;
  uts::Tree tree_;
  KnownCounts known_;
  uts::Counts counts_;  // all zero until compute: no tree has zero nodes
};

}  // namespace kernels
