// A skewed user tree for weft::dist's tests: a root with 20 children, the first a UTS tree's
// root and the other 19 leaves. Under a static split of the root's children one rank would
// get nearly all of it, so a balanced count per rank shows the ranks stole from each other.
#pragma once

#include <cstdint>

#include "tools/dist/tree_search.hpp"
#include "workloads/uts/tree.hpp"

namespace weft_test {

struct SkewedNode {
  enum Kind : std::uint8_t { kTop, kUts, kLeaf };
  uts::Node node{};  // kUts: the UTS node
  Kind kind = kTop;
  std::uint8_t unused[7] = {};
};

// Each node contributes 1: the result is the tree's size, the UTS tree's plus 20.
struct ExpandSkewed {
  const uts::Tree* tree;
  std::uint64_t operator()(const SkewedNode& n, dist::Children<SkewedNode>& children) const {
    if (n.kind == SkewedNode::kTop) {
      for (int i = 0; i < 19; ++i) children.push(SkewedNode{{}, SkewedNode::kLeaf, {}});
      children.push(SkewedNode{tree->root(), SkewedNode::kUts, {}});  // on top: expanded first
    } else if (n.kind == SkewedNode::kUts) {
      const int k = tree->num_children(n.node);
      for (int i = 0; i < k; ++i)
        children.push(SkewedNode{tree->child(n.node, i), SkewedNode::kUts, {}});
    }
    return 1;
  }
};

}  // namespace weft_test
