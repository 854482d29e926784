// The decision-tree builder of Narlikar & Blelloch's section 5.1.3, in two versions:
//   kSerial  plain recursion and a serial quicksort: the reference;
//   kFine    a weft::thread per recursive call of the builder and of its quicksort, both
//            serial below params.fork_cutoff instances.
// (The paper has no coarse version: one would need explicit load balancing.)
// Every run is verified outside the time measured: the tree's counts against the instances
// routed through it, and for kFine the tree and its training accuracy against a serial build.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "weft/config.hpp"
#include "weft/stats.hpp"
#include "workloads/thread_apps/dt_instances.hpp"
#include "workloads/thread_apps/dt_tree.hpp"

namespace thread_apps {

enum class DtVersion { kSerial, kFine };
const char* dt_version_name(DtVersion version) noexcept;

struct DecisionTreeParams {
  std::size_t instances = 133999;
  std::uint64_t seed = 1;
  double noise = 0.1;  // the fraction of labels flipped
  std::size_t fork_cutoff = 2000;
  TreeLimits limits;
  // kFine: build a serial tree first (untimed) and require the same tree.
  bool verify_against_serial = true;
};

struct DecisionTreeResult {
  double build_seconds = 0.0;
  bool verified = false;
  std::string failure;  // the first check that failed; empty when verified
  std::size_t instances = 0;
  DecisionTreeShape shape;
  std::size_t training_correct = 0;  // training instances the tree classifies correctly
  double training_accuracy = 0.0;
};

// Generates the instances, builds the tree (timed) and verifies it. The process's heap
// high-water mark is reset just before the timed build, so that weft::heap_usage() or the
// Runtime's ThreadStats read after it give the build's peak. kFine must run under a Runtime.
DecisionTreeResult decision_tree(const DecisionTreeParams& params, DtVersion version);

struct DecisionTreeRun {
  DecisionTreeResult result;
  weft::ThreadStats threads;  // of the run's Runtime (kSerial: only the heap figures)
};
// Runs `version` under a Runtime made from `config` (kSerial: without one).
DecisionTreeRun run_decision_tree(const DecisionTreeParams& params, DtVersion version,
                                  const weft::Config& config);

// The checks, for tests to hand a corrupted tree. Each returns an empty string when it passes.
// Routes every instance through the tree: each node's count and positives must be those of the
// instances that reach it, and each label their majority. `correct` receives how many
// instances the tree classifies correctly.
std::string check_decision_tree(const TreeNode& root, std::span<const Instance> instances,
                                std::size_t& correct);
// The same tree (every split and count) and the same training accuracy as a reference.
std::string compare_decision_trees(const TreeNode& root, std::size_t correct,
                                   const std::vector<FlatNode>& reference,
                                   std::size_t reference_correct);

}  // namespace thread_apps
