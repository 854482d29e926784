package weft.peer;

/**
 * What a UTS traversal reports (workloads/uts/counts.hpp): the tree's size, its leaves and its
 * depth. Every traversal of one tree must report the same counts, in any order, on any thread.
 */
final class UtsCounts {
  long nodes;
  long leaves; // nodes with no children
  int maxDepth; // the deepest node's height; the root is at height 0

  UtsCounts() {}

  UtsCounts(long nodes, long leaves, int maxDepth) {
    this.nodes = nodes;
    this.leaves = leaves;
    this.maxDepth = maxDepth;
  }

  /** Records one node at `height` that has `children` children. */
  void countNode(int height, int children) {
    ++nodes;
    if (children == 0) ++leaves;
    maxDepth = Math.max(maxDepth, height);
  }

  /** Adds the counts of a disjoint part of the tree. */
  void add(UtsCounts other) {
    nodes += other.nodes;
    leaves += other.leaves;
    maxDepth = Math.max(maxDepth, other.maxDepth);
  }

  boolean sameAs(UtsCounts o) {
    return nodes == o.nodes && leaves == o.leaves && maxDepth == o.maxDepth;
  }

  /** The C++ workload's result() text. */
  @Override
  public String toString() {
    return "nodes=" + nodes + " leaves=" + leaves + " depth=" + maxDepth;
  }
}
