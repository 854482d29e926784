// The distributed tree search on the in-process network (tools/dist/): exact counts on every rank
// count, policy, chunk size, poll interval and seeded delay; work reaching the ranks that
// start with none; the termination token's rules; bad options.
#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>
#include <string>

#include "test_support.hpp"
#include "tools/dist/fake_run.hpp"
#include "tools/dist/termination.hpp"
#include "tools/dist/uts_search.hpp"
#include "workloads/uts/uts_seq.hpp"

namespace {

using dist::FakeRunOptions;
using dist::SearchOptions;

uts::TreeParams geometric(std::int32_t seed, std::int32_t depth) {
  uts::TreeParams t;  // the reference's defaults: geometric, b0 = 4, linear shape
  t.seed = seed;
  t.gen_mx = depth;
  return t;
}

uts::TreeParams binomial(std::int32_t seed, double b0, double q) {
  uts::TreeParams t;
  t.type = uts::TreeType::kBinomial;
  t.seed = seed;
  t.b0 = b0;
  t.m = 4;
  t.q = q;
  return t;
}

// Thousands of short runs across the whole grid of options: every one must count the tree
// exactly, and end (a run that does not within its deadline fails as a hang).
TEST(DistFake, EveryRunCountsTheTreeExactly) {
  const std::int64_t runs = weft_test::scaled(2000, 200);
  const char* policies[] = {"one", "half", "fixed:2"};
  for (std::int64_t i = 0; i < runs; ++i) {
    const auto u = static_cast<std::uint64_t>(i);
    const uts::TreeParams params = (i % 2 == 0)
                                       ? geometric(static_cast<std::int32_t>(i % 97), 4 + i % 3)
                                       : binomial(static_cast<std::int32_t>(i % 89), 8, 0.2);
    const uts::Tree tree(params);
    SearchOptions s;
    s.chunk = 1 + u % 5;
    s.poll_interval = static_cast<unsigned>(u % 3 == 0 ? 0 : u % 7);
    s.policy = weft::StealPolicy::parse(policies[u % 3]);
    s.seed = u;
    FakeRunOptions r;
    r.ranks = 2 + static_cast<int>(u % 15);
    r.network_seed = u * 31 + 7;
    r.max_delay_ns = (u % 4) * 5'000;
    r.deadline = std::chrono::milliseconds(30'000);
    const auto ranks = dist::run_uts_on_fake_network(tree, s, r);
    ASSERT_EQ(dist::combined_counts(ranks), uts::traverse_sequential(tree))
        << "run " << i << ": " << r.ranks << " ranks, chunk " << s.chunk << ", " << policies[u % 3];
  }
}

// Only rank 0 starts with the root: a count that comes out right with every other rank
// idle would prove nothing about stealing. On a tree of 347,217 nodes work leaves rank 0 in
// every run, and the chunks that left some rank arrived at another. Whether every rank gets
// some depends on when the OS runs each rank's thread: under half it does in 40 runs of 40
// at 8 ranks on an idle machine, but with 8 ranks on 2 cores beside another test a rank can
// find the tree done before it was scheduled. So each (ranks, policy) runs up to 5 times,
// every run checked in full, and under half one of them must give every rank work; under
// one, where a rank asking only ranks with a chunk or less gets nothing in about one run of
// 13 even on an idle machine, only the total away from rank 0 is checked.
TEST(DistFake, EveryRankReceivesWork) {
  const uts::Tree tree(geometric(1, 16));
  const uts::Counts expected = uts::traverse_sequential(tree);
  ASSERT_EQ(expected.nodes, 347'217u);
  constexpr int kAttempts = 5;
  for (int ranks = 2; ranks <= 8; ++ranks) {
    for (const char* policy : {"one", "half"}) {
      SearchOptions s;
      s.chunk = 4;
      s.policy = weft::StealPolicy::parse(policy);
      FakeRunOptions r;
      r.ranks = ranks;
      r.max_delay_ns = 2'000;
      bool every_rank_worked = false;
      for (int attempt = 0; attempt < kAttempts && !every_rank_worked; ++attempt) {
        r.network_seed = static_cast<std::uint64_t>(attempt + 1);
        const auto results = dist::run_uts_on_fake_network(tree, s, r);
        EXPECT_EQ(dist::combined_counts(results), expected);
        std::uint64_t sent = 0, received = 0, away_from_rank_0 = 0;
        every_rank_worked = true;
        for (std::size_t i = 0; i < results.size(); ++i) {
          const dist::RankProfile& p = results[i].profile;
          sent += p.chunks_sent;
          received += p.chunks_received;
          if (i > 0) {
            away_from_rank_0 += results[i].value.nodes;
            every_rank_worked = every_rank_worked && p.chunks_received >= 1 && p.nodes > 0;
          }
        }
        EXPECT_GT(away_from_rank_0, 0u) << ranks << " ranks, " << policy;
        EXPECT_EQ(sent, received);
        EXPECT_GE(results[0].profile.token_rounds, 1u);
        if (std::string(policy) == "one") break;
      }
      if (std::string(policy) == "half") {
        EXPECT_TRUE(every_rank_worked)
            << "at " << ranks << " ranks under half, some rank got no work in " << kAttempts
            << " runs";
      }
    }
  }
}

TEST(DistFake, OneRankSendsNothing) {
  const uts::Tree tree(geometric(3, 5));
  const auto results = dist::run_uts_on_fake_network(tree, SearchOptions{}, FakeRunOptions{1});
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].value, uts::traverse_sequential(tree));
  EXPECT_EQ(results[0].profile.requests_sent, 0u);
  EXPECT_EQ(results[0].profile.token_rounds, 0u);
}

// More ranks than nodes: the root alone (a binomial root has floor(b0) children), on 8 ranks.
TEST(DistFake, MoreRanksThanNodes) {
  uts::TreeParams p = binomial(1, 0.5, 0.2);
  const uts::Tree tree(p);
  FakeRunOptions r;
  r.ranks = 8;
  r.max_delay_ns = 10'000;
  const auto results = dist::run_uts_on_fake_network(tree, SearchOptions{}, r);
  EXPECT_EQ(dist::combined_counts(results).nodes, 1u);
  EXPECT_EQ(results[0].value.nodes, 1u);
}

TEST(DistFake, AChunkOfZeroIsRefusedByName) {
  const uts::Tree tree(geometric(3, 4));
  SearchOptions s;
  s.chunk = 0;
  try {
    dist::run_uts_on_fake_network(tree, s, FakeRunOptions{2});
    FAIL() << "chunk 0 was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "--chunk 0: expected >= 1");
  }
}

// The token's rules, step by step on three ranks: a round over passive, white ranks whose
// counts sum to zero ends the search; a rank that received work since it passed the token
// on, or counts that do not cancel (work in flight), make rank 0 start another round.
TEST(DistTermination, OnlyAWhiteRoundWithCountsCancellingEnds) {
  using dist::Termination;
  Termination r0(0, 3), r1(1, 3), r2(2, 3);
  // Rank 0 sent work to rank 2, which has not received it yet.
  r0.work_sent();
  Termination::Action a = r0.on_passive();
  ASSERT_EQ(a.step, Termination::Step::kPassToken);
  EXPECT_FALSE(a.token.black);
  EXPECT_EQ(r0.on_passive().step, Termination::Step::kNothing);  // the token is out
  r1.token_arrived(a.token);
  a = r1.on_passive();
  ASSERT_EQ(a.step, Termination::Step::kPassToken);
  EXPECT_EQ(r1.on_passive().step, Termination::Step::kNothing);  // passed on already
  r2.token_arrived(a.token);
  a = r2.on_passive();
  ASSERT_EQ(a.step, Termination::Step::kPassToken);
  r0.token_arrived(a.token);
  // Count 1 in flight: not over; a new round starts.
  a = r0.on_passive();
  ASSERT_EQ(a.step, Termination::Step::kPassToken);
  // The work arrives at rank 2 (which turns black), after the token passed rank 1.
  r1.token_arrived(a.token);
  a = r1.on_passive();
  r2.work_received();
  r2.token_arrived(a.token);
  a = r2.on_passive();
  EXPECT_TRUE(a.token.black);
  r0.token_arrived(a.token);
  a = r0.on_passive();
  ASSERT_EQ(a.step, Termination::Step::kPassToken);  // black: once more
  EXPECT_EQ(r0.rounds(), 3u);
  r1.token_arrived(a.token);
  a = r1.on_passive();
  r2.token_arrived(a.token);
  a = r2.on_passive();
  EXPECT_FALSE(a.token.black);
  r0.token_arrived(a.token);
  EXPECT_EQ(r0.on_passive().step, Termination::Step::kTerminate);
}

}  // namespace
