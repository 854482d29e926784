package weft.peer;

import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;

/**
 * UTS as a compare workload, as workloads/kernels/uts_tasks.hpp: every node is a task. It draws
 * its number of children, makes one child task per child and runs them with invokeAll (which
 * forks all but the first and runs the first at once, as weft's scope spawns them), then adds
 * the children's counts. A child hashes its own state from its parent's, so a thief that takes
 * one of the binomial root's 2000 children also takes its hashing. The size is a preset name;
 * the counts are checked against the published ones, and what a source does not publish (B's
 * leaves and depth) against a sequential traversal (untimed).
 *
 * <p>The recursion follows the tree: T3L is 17,844 levels deep, so the worker threads need the
 * large stacks the wrapper gives them with -Xss (README.md).
 */
final class Uts extends Work {
  static final String DEFAULT = "T3";

  private final UtsPresets.Preset preset;
  private final UtsTree tree;
  private UtsCounts counts = new UtsCounts(); // all zero until compute: no tree has zero nodes

  Uts(UtsPresets.Preset preset) {
    this.preset = preset;
    this.tree = new UtsTree(preset.params());
  }

  /** One node's subtree; the root task has no parent state. */
  static final class Visit extends RecursiveTask<UtsCounts> {
    private final UtsTree tree;
    private final byte[] parentState;
    private final int index;
    private final int height;

    Visit(UtsTree tree, byte[] parentState, int index, int height) {
      this.tree = tree;
      this.parentState = parentState;
      this.index = index;
      this.height = height;
    }

    @Override
    protected UtsCounts compute() {
      byte[] state = parentState == null ? tree.rootState() : tree.childState(parentState, index);
      int children = tree.numChildren(state, height);
      UtsCounts c = new UtsCounts();
      c.countNode(height, children);
      if (children == 0) return c; // a leaf, most of the nodes: no task made
      Visit[] kids = new Visit[children];
      for (int i = 0; i < children; ++i) kids[i] = new Visit(tree, state, i, height + 1);
      invokeAll(kids);
      for (Visit k : kids) c.add(k.getRawResult()); // invokeAll has completed every one
      return c;
    }
  }

  /** The whole tree inside the pool. */
  static UtsCounts traverse(ForkJoinPool pool, UtsTree tree) {
    return pool.invoke(new Visit(tree, null, 0, 0));
  }

  private record Node(byte[] state, int height) {}

  /** Depth-first with an explicit stack, on the calling thread: workloads/uts/uts_seq.cpp. */
  static UtsCounts traverseSequential(UtsTree tree) {
    UtsCounts c = new UtsCounts();
    ArrayDeque<Node> stack = new ArrayDeque<>();
    stack.push(new Node(tree.rootState(), 0));
    while (!stack.isEmpty()) {
      Node node = stack.pop();
      int children = tree.numChildren(node.state(), node.height());
      c.countNode(node.height(), children);
      for (int i = 0; i < children; ++i) {
        stack.push(new Node(tree.childState(node.state(), i), node.height() + 1));
      }
    }
    return c;
  }

  // The sequential counts of a preset whose source leaves some out: the tree is fixed, so one
  // traversal per process serves every repetition (B's takes seconds; the C++ side repeats it).
  private static final ConcurrentHashMap<String, UtsCounts> SEQUENTIAL = new ConcurrentHashMap<>();

  @Override
  void compute(ForkJoinPool pool) {
    counts = traverse(pool, tree);
  }

  @Override
  String verify() {
    UtsCounts reference =
        preset.publishesEverything()
            ? new UtsCounts()
            : SEQUENTIAL.computeIfAbsent(preset.name(), n -> traverseSequential(tree));
    UtsCounts expected =
        new UtsCounts(
            preset.nodes(),
            preset.leaves() != null ? preset.leaves() : reference.leaves,
            preset.maxDepth() != null ? preset.maxDepth() : reference.maxDepth);
    if (counts.sameAs(expected)) return null;
    return "uts " + preset.name() + ": counted " + counts + ", expected " + expected
        + (preset.publishesEverything() ? " (published)" : " (published or sequential)");
  }

  @Override
  String result() {
    return counts.toString();
  }

  /** Test-only: replaces the computed counts, so that a test can show verify() rejects them. */
  void setCountsForTesting(UtsCounts c) {
    counts = c;
  }
}
