// weft::dist's interface for user trees (tree_search.hpp) on the in-process network: a node
// type of the user's (N-Queens, a skewed tree) searched exactly on any number of ranks, the
// result combined across ranks, the node stack's bookkeeping, and each rank's profile adding
// up (its four times partition its search; every answer it got is timed).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <numeric>
#include <string>

#include "dist_skewed_tree.hpp"
#include "test_support.hpp"
#include "tools/dist/fake_run.hpp"
#include "tools/dist/node_stack.hpp"
#include "tools/dist/nqueens_tree.hpp"
#include "tools/dist/profile_report.hpp"
#include "tools/dist/uts_search.hpp"
#include "workloads/uts/uts_seq.hpp"

namespace {

using dist::FakeRunOptions;
using dist::Placement;
using dist::SearchOptions;

// OEIS A000170 for n = 1..10, written out here rather than read from the code under test.
constexpr std::uint64_t kQueens[] = {1, 0, 0, 2, 10, 4, 40, 92, 352, 724};

template <class Outcomes>
std::uint64_t total(const Outcomes& outcomes) {
  std::uint64_t sum = 0;
  for (const auto& o : outcomes) sum += o.value;
  return sum;
}

TEST(DistUserTree, NQueensIsCountedExactlyOnAnyNumberOfRanks) {
  const std::int64_t runs = weft_test::scaled(300, 40);
  for (std::int64_t i = 0; i < runs; ++i) {
    const auto u = static_cast<std::uint64_t>(i);
    const int n = 1 + static_cast<int>(u % 10);
    SearchOptions s;
    s.chunk = 1 + u % 6;
    s.policy = weft::StealPolicy::parse(u % 2 ? "half" : "one");
    s.seed = u;
    FakeRunOptions r;
    r.ranks = 1 + static_cast<int>(u % 8);
    r.network_seed = u + 1;
    r.max_delay_ns = (u % 3) * 3'000;
    const auto outcomes = dist::run_on_fake_network(
        Placement::empty_board(n), dist::ExpandPlacement{}, std::plus<std::uint64_t>{}, s, r);
    ASSERT_EQ(total(outcomes), kQueens[n - 1])
        << "n " << n << " on " << r.ranks << " ranks, chunk " << s.chunk;
  }
}

// A root with 20 children, one a UTS tree of 347,217 nodes and 19 leaves: on 2 ranks each
// must expand at least a fifth of it. Whether the second rank gets its share depends on the
// OS running its thread, so one of 5 runs, each checked in full, must share.
TEST(DistUserTree, ASkewedTreeIsSharedByStealing) {
  uts::TreeParams params;
  params.seed = 1;
  params.gen_mx = 16;
  const uts::Tree tree(params);
  SearchOptions s;
  s.chunk = 8;
  s.policy = weft::StealPolicy::parse("half");
  bool shared = false;
  for (int attempt = 1; attempt <= 5 && !shared; ++attempt) {
    FakeRunOptions r;
    r.ranks = 2;
    r.network_seed = static_cast<std::uint64_t>(attempt);
    const auto outcomes = dist::run_on_fake_network(
        weft_test::SkewedNode{}, weft_test::ExpandSkewed{&tree}, std::plus<std::uint64_t>{}, s, r);
    const std::uint64_t nodes = total(outcomes);
    ASSERT_EQ(nodes, 347'217u + 20);
    shared = 5 * outcomes[0].value >= nodes && 5 * outcomes[1].value >= nodes;
  }
  EXPECT_TRUE(shared);
}

// The profile's books balance on every rank of many runs.
TEST(DistUserTree, EveryRanksProfileAddsUp) {
  const uts::Tree tree(uts::TreeParams{});
  for (int ranks = 1; ranks <= 6; ++ranks) {
    SearchOptions s;
    s.chunk = 2;
    s.policy = weft::StealPolicy::parse("half");
    FakeRunOptions r;
    r.ranks = ranks;
    r.max_delay_ns = 5'000;
    const auto outcomes = dist::run_uts_on_fake_network(tree, s, r);
    std::uint64_t nodes = 0, requests = 0, served = 0;
    for (const auto& o : outcomes) {
      const dist::RankProfile& p = o.profile;
      SCOPED_TRACE("rank of " + std::to_string(ranks));
      const double parts = p.busy_s + p.serve_s + p.steal_s + p.idle_s;
      EXPECT_NEAR(parts, p.seconds, 1e-6 + 1e-9 * p.seconds);
      EXPECT_GT(p.seconds, 0.0);
      EXPECT_EQ(p.nodes, o.value.nodes);
      // Every answer is timed: nothing, or work whose transfer is timed too; at most one
      // request is still out at the end.
      EXPECT_EQ(p.round_trips_s.size(), p.failed_steals + p.transfers_s.size());
      EXPECT_LE(p.requests_sent - p.round_trips_s.size(), 1u);
      for (double t : p.round_trips_s) EXPECT_GE(t, 0.0);
      for (double t : p.transfers_s) EXPECT_GE(t, 0.0);
      EXPECT_GE(p.bytes_sent, p.requests_sent * dist::kWireHeaderBytes);
      nodes += p.nodes;
      requests += p.requests_sent;
      served += p.requests_served;
    }
    EXPECT_EQ(nodes, uts::traverse_sequential(tree).nodes);
    EXPECT_LE(served, requests);
    const std::string table = dist::profile_table({outcomes[0].profile});
    EXPECT_NE(table.find("busy%"), std::string::npos);
  }
}

TEST(DistNodeStack, TakesTheOldestAndKeepsTheRestInOrder) {
  dist::NodeStack stack(sizeof(std::uint32_t));
  for (std::uint32_t i = 0; i < 1000; ++i) stack.push(i);
  std::vector<std::byte> taken;
  stack.take_oldest(300, taken);
  ASSERT_EQ(taken.size(), 300 * sizeof(std::uint32_t));
  std::uint32_t first = 7;
  std::memcpy(&first, taken.data(), sizeof first);
  EXPECT_EQ(first, 0u);
  // Pushing past the end slides the remaining 700 down over the 300 taken.
  for (std::uint32_t i = 1000; i < 1300; ++i) stack.push(i);
  ASSERT_EQ(stack.size(), 1000u);
  for (std::uint32_t i = 1299; i >= 300; --i) ASSERT_EQ(stack.pop<std::uint32_t>(), i);
  EXPECT_TRUE(stack.empty());
  stack.push_bytes(taken.data(), taken.size());
  EXPECT_EQ(stack.pop<std::uint32_t>(), 299u);
}

TEST(DistQuantile, NearestRankOfTheSamples) {
  EXPECT_EQ(dist::quantile({}, 0.5), 0.0);
  EXPECT_EQ(dist::quantile({3, 1, 2}, 0.5), 2.0);
  std::vector<double> hundred(100);
  std::iota(hundred.begin(), hundred.end(), 1.0);
  EXPECT_EQ(dist::quantile(hundred, 0.9), 90.0);
  EXPECT_EQ(dist::quantile(hundred, 1.0), 100.0);
}

}  // namespace
