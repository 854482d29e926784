#include "workloads/uts/uts_seq.hpp"

#include <vector>

namespace uts {

Counts traverse_sequential(const Tree& tree) {
  Counts counts;
  std::vector<Node> stack;
  stack.reserve(4096);  // enough for most trees; deep binomial ones grow it a few times
  stack.push_back(tree.root());
  while (!stack.empty()) {
    const Node node = stack.back();
    stack.pop_back();
    const int children = tree.num_children(node);
    counts.count_node(node.height, children);
    for (int i = 0; i < children; ++i) stack.push_back(tree.child(node, i));
  }
  return counts;
}

}  // namespace uts
