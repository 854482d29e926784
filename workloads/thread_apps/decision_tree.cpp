#include "workloads/thread_apps/decision_tree.hpp"

#include <chrono>
#include <unordered_map>

#include "weft/memory.hpp"
#include "weft/runtime.hpp"
#include "weft/thread.hpp"

namespace thread_apps {
namespace {

struct Reached {
  std::uint32_t count = 0;
  std::uint32_t positives = 0;
};

// Checks `node` against what the routed instances say reached its leaves; returns what reached
// the node.
Reached check_node(const TreeNode& node,
                   const std::unordered_map<const TreeNode*, Reached>& at_leaves,
                   std::string& problem) {
  Reached reached;
  if (node.attribute < 0) {
    const auto it = at_leaves.find(&node);
    if (it != at_leaves.end()) reached = it->second;
  } else {
    if (node.left == nullptr || node.right == nullptr) {
      if (problem.empty()) problem = "a split node lacks a child";
      return reached;
    }
    const Reached left = check_node(*node.left, at_leaves, problem);
    const Reached right = check_node(*node.right, at_leaves, problem);
    reached = {left.count + right.count, left.positives + right.positives};
  }
  if (problem.empty() && (reached.count != node.count || reached.positives != node.positives)) {
    problem = "a node's counts differ from the instances that reach it";
  }
  const std::uint32_t majority = 2 * reached.positives >= reached.count ? 1u : 0u;
  if (problem.empty() && node.label != majority) problem = "a node's label is not its majority";
  return reached;
}

std::size_t correct_count(const TreeNode& root, std::span<const Instance> instances) {
  std::size_t correct = 0;
  for (const Instance& inst : instances) correct += classify(root, inst) == inst.label ? 1 : 0;
  return correct;
}

}  // namespace

const char* dt_version_name(DtVersion version) noexcept {
  switch (version) {
    case DtVersion::kSerial: return "serial";
    case DtVersion::kFine: return "fine";
  }
  return "?";
}

std::string check_decision_tree(const TreeNode& root, std::span<const Instance> instances,
                                std::size_t& correct) {
  std::unordered_map<const TreeNode*, Reached> at_leaves;
  correct = 0;
  for (const Instance& inst : instances) {
    const TreeNode* node = &root;
    while (node->attribute >= 0 && node->left != nullptr && node->right != nullptr) {
      node = inst.attr[static_cast<std::size_t>(node->attribute)] <= node->threshold ? node->left
                                                                                     : node->right;
    }
    Reached& leaf = at_leaves[node];
    ++leaf.count;
    leaf.positives += inst.label;
    correct += node->label == inst.label ? 1 : 0;
  }
  std::string problem;
  check_node(root, at_leaves, problem);
  return problem;
}

std::string compare_decision_trees(const TreeNode& root, std::size_t correct,
                                   const std::vector<FlatNode>& reference,
                                   std::size_t reference_correct) {
  const std::vector<FlatNode> nodes = flatten(root);
  if (nodes.size() != reference.size()) {
    return "the tree has " + std::to_string(nodes.size()) + " nodes, the serial one " +
           std::to_string(reference.size());
  }
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (!(nodes[i] == reference[i])) {
      return "node " + std::to_string(i) + " (preorder) differs from the serial tree's";
    }
  }
  if (correct != reference_correct) {
    return "training accuracy " + std::to_string(correct) + " differs from the serial " +
           std::to_string(reference_correct);
  }
  return {};
}

DecisionTreeResult decision_tree(const DecisionTreeParams& params, DtVersion version) {
  const std::vector<Instance> instances =
      make_instances(params.instances, params.seed, params.noise);
  BuildOptions options;
  options.fork = version == DtVersion::kFine;
  options.fork_cutoff = params.fork_cutoff;
  options.limits = params.limits;

  // The reference is kept as plain values (not accounted), so the timed build's heap peak
  // is its own.
  std::vector<FlatNode> reference;
  std::size_t reference_correct = 0;
  if (version == DtVersion::kFine && params.verify_against_serial) {
    BuildOptions serial = options;
    serial.fork = false;
    const DecisionTreePtr tree = build_decision_tree(instances, serial);
    reference = flatten(*tree);
    reference_correct = correct_count(*tree, instances);
  }

  DecisionTreeResult result;
  result.instances = instances.size();
  weft::reset_heap_high_water();
  const auto start = std::chrono::steady_clock::now();
  DecisionTreePtr tree;
  if (options.fork) {
    // The whole build runs in a thread, so that every piece of it is scheduled as a thread
    // (the caller's root is a task).
    weft::thread main([&] { tree = build_decision_tree(instances, options); });
    main.join();
  } else {
    tree = build_decision_tree(instances, options);
  }
  result.build_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  result.shape = decision_tree_shape(*tree);
  result.failure = check_decision_tree(*tree, instances, result.training_correct);
  if (result.failure.empty() && !reference.empty()) {
    result.failure =
        compare_decision_trees(*tree, result.training_correct, reference, reference_correct);
  }
  result.training_accuracy = instances.empty() ? 1.0
                                               : static_cast<double>(result.training_correct) /
                                                     static_cast<double>(instances.size());
  result.verified = result.failure.empty();
  return result;
}

DecisionTreeRun run_decision_tree(const DecisionTreeParams& params, DtVersion version,
                                  const weft::Config& config) {
  DecisionTreeRun run;
  if (version == DtVersion::kSerial) {
    run.result = decision_tree(params, version);
    const weft::HeapUsage heap = weft::heap_usage();
    run.threads.heap_in_use = heap.in_use;
    run.threads.heap_high_water = heap.high_water;
    return run;
  }
  weft::Runtime rt(config);
  rt.reset_stats();
  run.result = rt.run([&] { return decision_tree(params, version); });
  run.threads = rt.stats().threads;
  return run;
}

}  // namespace thread_apps
