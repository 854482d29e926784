// The user-level-thread applications at small sizes: Barnes-Hut's fine and coarse versions
// against the serial one, and the decision-tree builder against its serial build, under the
// df, dfd and fifo schedulers on one and two workers; and their verification catching a
// corrupted tree or input.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "thread_test_config.hpp"
#include "weft/detail/sanitizers.hpp"
#include "weft/weft.hpp"
#include "workloads/thread_apps/barnes_hut.hpp"
#include "workloads/thread_apps/bh_verify.hpp"
#include "workloads/thread_apps/centre_of_mass.hpp"
#include "workloads/thread_apps/decision_tree.hpp"
#include "workloads/thread_apps/dt_sort.hpp"
#include "workloads/thread_apps/force_walk.hpp"
#include "workloads/thread_apps/octree.hpp"
#include "workloads/thread_apps/plummer.hpp"

namespace {

using thread_apps::BhVersion;
using thread_apps::DtVersion;
using weft::ThreadSched;

weft::Config config(ThreadSched sched, unsigned workers) {
  return weft_test::thread_config(sched, workers);
}

thread_apps::BarnesHutParams small_bh() {
  thread_apps::BarnesHutParams p;
  p.bodies = 2000;
  p.steps = 1;
  p.keep_final_bodies = true;
  return p;
}

const thread_apps::BarnesHutResult& serial_bh() {
  static const thread_apps::BarnesHutResult result =
      thread_apps::barnes_hut(small_bh(), BhVersion::kSerial);
  return result;
}

using SchedAndWorkers = std::tuple<ThreadSched, unsigned>;

std::string case_name(const ::testing::TestParamInfo<SchedAndWorkers>& info) {
  return std::string(weft::thread_sched_name(std::get<0>(info.param))) + "_w" +
         std::to_string(std::get<1>(info.param));
}

class ThreadApps : public ::testing::TestWithParam<SchedAndWorkers> {
 protected:
  weft::Config runtime_config() const {
    return config(std::get<0>(GetParam()), std::get<1>(GetParam()));
  }
};

INSTANTIATE_TEST_SUITE_P(Schedulers, ThreadApps,
                         ::testing::Combine(::testing::Values(ThreadSched::kDf, ThreadSched::kDfd,
                                                              ThreadSched::kFifo),
                                            ::testing::Values(1u, 2u)),
                         case_name);

void expect_same_bodies(const std::vector<thread_apps::Body>& got,
                        const std::vector<thread_apps::Body>& want) {
  ASSERT_EQ(got.size(), want.size());
  double worst = 0.0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    worst = std::max(worst, thread_apps::norm(got[i].pos - want[i].pos));
    worst = std::max(worst, thread_apps::norm(got[i].vel - want[i].vel));
  }
  EXPECT_LE(worst, 1e-12);
}

TEST(BarnesHutSerial, VerifiesAndBuildsADeepTree) {
  const thread_apps::BarnesHutResult& r = serial_bh();
  EXPECT_TRUE(r.verified) << r.failure;
  ASSERT_EQ(r.step_seconds.size(), 1u);
  EXPECT_EQ(r.bodies, 2000u);
  EXPECT_GT(r.last_tree.depth, 3u);
  EXPECT_GT(r.worst_force_error, 0.0);  // an approximation, not the direct sum
}

TEST_P(ThreadApps, BarnesHutFineMatchesSerial) {
  const thread_apps::BarnesHutRun run =
      thread_apps::run_barnes_hut(small_bh(), BhVersion::kFine, runtime_config());
  EXPECT_TRUE(run.result.verified) << run.result.failure;
  expect_same_bodies(run.result.final_bodies, serial_bh().final_bodies);
  EXPECT_GT(run.threads.made, 30u);
  EXPECT_GT(run.threads.heap_high_water, 0u);  // the octree's cells are accounted
}

TEST_P(ThreadApps, BarnesHutCoarseMatchesSerial) {
  thread_apps::BarnesHutParams params = small_bh();
  params.steps = 2;
  const thread_apps::BarnesHutRun run =
      thread_apps::run_barnes_hut(params, BhVersion::kCoarse, runtime_config());
  EXPECT_TRUE(run.result.verified) << run.result.failure;
  ASSERT_EQ(run.result.step_seconds.size(), 2u);
  EXPECT_EQ(run.threads.made, 1u + std::get<1>(GetParam()));  // main + one per worker
  params.steps = 2;
  const thread_apps::BarnesHutResult serial = thread_apps::barnes_hut(params, BhVersion::kSerial);
  expect_same_bodies(run.result.final_bodies, serial.final_bodies);
}

// A summarised tree of a small Plummer sphere, with accelerations from the walk, to corrupt.
struct BuiltTree {
  std::vector<thread_apps::Body> bodies = thread_apps::plummer_bodies(1000, 7);
  thread_apps::TreePtr root = thread_apps::make_root(thread_apps::bounding_box(bodies));

  BuiltTree() {
    for (std::uint32_t i = 0; i < bodies.size(); ++i)
      thread_apps::insert_body(root.get(), bodies, i);
    thread_apps::summarize_subtree(*root, bodies);
    thread_apps::accelerate_subtree(*root, *root, bodies, thread_apps::ForceLaw{});
  }

  thread_apps::OctCell& first_child_cell() {
    for (auto& slot : root->child) {
      thread_apps::OctNode* node = slot.load();
      if (node != nullptr && !node->is_leaf) return static_cast<thread_apps::OctCell&>(*node);
    }
    throw std::logic_error("no child cell");
  }
};

TEST(BarnesHutVerification, PassesAnIntactTree) {
  BuiltTree tree;
  EXPECT_EQ(thread_apps::check_tree(*tree.root, tree.bodies), "");
  const thread_apps::ForceErrors errors = thread_apps::force_errors(tree.bodies, 64, 0.05);
  EXPECT_LT(errors.max_relative, thread_apps::BarnesHutParams{}.max_force_error);
  EXPECT_LT(errors.mean_relative, thread_apps::BarnesHutParams{}.mean_force_error);
}

TEST(BarnesHutVerification, CatchesAMovedCentreOfMass) {
  BuiltTree tree;
  tree.first_child_cell().com.x += 0.1;
  EXPECT_NE(thread_apps::check_tree(*tree.root, tree.bodies), "");
}

TEST(BarnesHutVerification, CatchesALostBody) {
  BuiltTree tree;
  tree.bodies.push_back(tree.bodies.back());  // a body no leaf holds
  EXPECT_NE(thread_apps::check_tree(*tree.root, tree.bodies), "");
}

TEST(BarnesHutVerification, CatchesForcesFromATreeMissingASubtree) {
  BuiltTree tree;
  // Detach the root's most populous child cell, as a lost update in the parallel build
  // would: the walk misses its mass, and the sampled bodies' forces the direct sum.
  std::atomic<thread_apps::OctNode*>* biggest = nullptr;
  std::uint32_t most = 0;
  for (auto& slot : tree.root->child) {
    thread_apps::OctNode* node = slot.load();
    if (node == nullptr || node->is_leaf) continue;
    const auto& cell = static_cast<thread_apps::OctCell&>(*node);
    if (cell.body_count > most) {
      most = cell.body_count;
      biggest = &slot;
    }
  }
  ASSERT_NE(biggest, nullptr);
  thread_apps::free_tree(static_cast<thread_apps::OctCell*>(biggest->exchange(nullptr)));
  thread_apps::accelerate_subtree(*tree.root, *tree.root, tree.bodies, thread_apps::ForceLaw{});
  const thread_apps::ForceErrors errors = thread_apps::force_errors(tree.bodies, 64, 0.05);
  EXPECT_GT(errors.max_relative, thread_apps::BarnesHutParams{}.max_force_error);
  EXPECT_GT(errors.mean_relative, thread_apps::BarnesHutParams{}.mean_force_error);
}

thread_apps::DecisionTreeParams small_dt() {
  thread_apps::DecisionTreeParams p;
  p.instances = 5000;
  // Below the paper's 2,000 so that this small input still makes a few hundred threads.
  p.fork_cutoff = 200;
  return p;
}

TEST(DecisionTreeSerial, LearnsTheConceptThroughTheNoise) {
  const thread_apps::DecisionTreeRun run =
      thread_apps::run_decision_tree(small_dt(), DtVersion::kSerial, weft::Config{});
  EXPECT_TRUE(run.result.verified) << run.result.failure;
  EXPECT_EQ(run.result.instances, 5000u);
  EXPECT_GT(run.result.shape.depth, 4u);
  // 10% of the labels are flipped: a tree that learnt the concept gets about 90% right, and
  // overfits some of the noise on top.
  EXPECT_GT(run.result.training_accuracy, 0.88);
  EXPECT_GT(run.threads.heap_high_water, 5000u * sizeof(thread_apps::Instance));
}

TEST_P(ThreadApps, DecisionTreeFineEqualsSerial) {
  // verify_against_serial (the default) builds the serial tree too and requires the same.
  const thread_apps::DecisionTreeRun run =
      thread_apps::run_decision_tree(small_dt(), DtVersion::kFine, runtime_config());
  EXPECT_TRUE(run.result.verified) << run.result.failure;
  EXPECT_GT(run.threads.made, 100u);
  EXPECT_GT(run.threads.heap_high_water, 0u);
}

TEST(DecisionTreeSort, ForkingQuicksortSortsWithManyEqualKeys) {
  std::vector<thread_apps::Instance> items = thread_apps::make_instances(3000, 3, 0.0);
  for (std::size_t i = 0; i < items.size(); i += 3) items[i].attr[1] = 0.5f;
  weft::Runtime rt(config(ThreadSched::kDf, 2));
  rt.run([&] {
    weft::thread t([&] { thread_apps::sort_by_attribute(items, 1, true, 64); });
    t.join();
  });
  for (std::size_t i = 1; i < items.size(); ++i) {
    ASSERT_LE(items[i - 1].attr[1], items[i].attr[1]) << "at " << i;
  }
}

// A serial tree of small_dt()'s instances, its flattened form and accuracy, to corrupt.
struct BuiltDecisionTree {
  std::vector<thread_apps::Instance> instances = thread_apps::make_instances(5000, 1, 0.1);
  thread_apps::DecisionTreePtr tree = thread_apps::build_decision_tree(instances, {});
  std::vector<thread_apps::FlatNode> reference = thread_apps::flatten(*tree);
  std::size_t correct = 0;

  BuiltDecisionTree() {
    EXPECT_EQ(thread_apps::check_decision_tree(*tree, instances, correct), "");
  }

  // The first split node whose left child is a split node too.
  thread_apps::TreeNode& inner_split() {
    thread_apps::TreeNode* node = tree.get();
    while (node->left->attribute < 0) node = node->right;
    return *node;
  }
};

TEST(DecisionTreeVerification, PassesTheSameTree) {
  BuiltDecisionTree built;
  EXPECT_EQ(thread_apps::compare_decision_trees(*built.tree, built.correct, built.reference,
                                                built.correct),
            "");
}

TEST(DecisionTreeVerification, CatchesAMovedThreshold) {
  BuiltDecisionTree built;
  built.inner_split().threshold += 0.01f;
  std::size_t correct = 0;
  EXPECT_NE(thread_apps::check_decision_tree(*built.tree, built.instances, correct), "");
  EXPECT_NE(
      thread_apps::compare_decision_trees(*built.tree, correct, built.reference, built.correct),
      "");
}

TEST(DecisionTreeVerification, CatchesAFlippedLeafLabel) {
  BuiltDecisionTree built;
  thread_apps::TreeNode* leaf = built.tree.get();
  while (leaf->attribute >= 0) leaf = leaf->left;
  leaf->label ^= 1u;
  std::size_t correct = 0;
  EXPECT_NE(thread_apps::check_decision_tree(*built.tree, built.instances, correct), "");
  EXPECT_NE(correct, built.correct);
}

TEST(DecisionTreeVerification, CatchesCorruptedInput) {
  BuiltDecisionTree built;
  built.instances[17].label ^= 1u;  // the tree no longer describes these instances
  std::size_t correct = 0;
  EXPECT_NE(thread_apps::check_decision_tree(*built.tree, built.instances, correct), "");
}

}  // namespace
