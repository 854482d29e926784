// The simulator's engine (tools/sim/engine/engine.hpp): hand-computed runs on 1 and 2 workers,
// every task run once, the shares adding up to P x T_P exactly, reproducibility, weft's own counts
// on 1 worker, and the errors a bad program or configuration gets.
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include "tools/sim/engine/costs.hpp"
#include "tools/sim/engine/engine.hpp"
#include "tools/sim/engine/fib_program.hpp"
#include "tools/sim/engine/uts_program.hpp"
#include "weft/weft.hpp"
#include "workloads/uts/uts_seq.hpp"
#include "workloads/uts/uts_weft.hpp"

namespace {

using sim::EngineConfig;
using sim::EngineCosts;
using sim::Op;
using sim::SimResult;
using sim::Strand;

// Distinct costs, so that a sum that counts one action as another comes out wrong.
EngineCosts test_costs() {
  return EngineCosts{.spawn_ps = 5,
                     .join_inline_ps = 17,
                     .join_stolen_ps = 100,
                     .attempt_ps = 150,
                     .claim_ps = 1000,
                     .proxy_ps = 20,
                     .poll_ps = 100,
                     .spin_ps = 30,
                     .yield_ps = 1000,
                     .wake_ps = 50000,
                     .post_ps = 7,
                     .answer_ps = 11,
                     .fence_claim_ps = 3,
                     .fenced_join_ps = 13};
}

EngineConfig config(unsigned workers, weft::StealPolicy policy = weft::StealPolicy::one(),
                    std::uint64_t seed = 1,
                    weft::StealMechanism mechanism = weft::StealMechanism::kConcurrent) {
  return EngineConfig{.workers = workers,
                      .policy = policy,
                      .mechanism = mechanism,
                      .seed = seed,
                      .costs = test_costs()};
}

// A task given as a list: work(ps), a spawn of the next script for a kSpawn
// entry, joins; then the end.
struct Step {
  Op::Kind kind;
  std::uint64_t ps = 0;
  std::vector<Step> child = {};
};

class ScriptStrand final : public Strand {
 public:
  explicit ScriptStrand(std::vector<Step> script) : script_(std::move(script)) {}
  Op next() override {
    if (at_ == script_.size()) return Op::end();
    const Step& s = script_[at_++];
    switch (s.kind) {
      case Op::Kind::kWork: return Op::work(s.ps);
      case Op::Kind::kSpawn: return Op::spawn(std::make_unique<ScriptStrand>(s.child));
      case Op::Kind::kJoin: return Op::join();
      case Op::Kind::kEnd: return Op::end();
    }
    return Op::end();
  }

 private:
  std::vector<Step> script_;
  std::size_t at_ = 0;
};

std::unique_ptr<Strand> script(std::vector<Step> steps) {
  return std::make_unique<ScriptStrand>(std::move(steps));
}

void expect_shares_add_up(const SimResult& r, unsigned workers) {
  const auto& s = r.shares;
  EXPECT_EQ(s.busy_ps + s.frame_ps + s.steal_ps + s.idle_ps + s.switch_ps,
            static_cast<std::uint64_t>(workers) * r.makespan_ps);
}

// The two-worker logs below: one spawn, stolen and joined as such, and these figures.
struct Log {
  std::uint64_t makespan, attempts, failed, busy, frame, steal, idle;
  std::uint64_t switch_ = 0, served = 0;
};

void expect_log(const SimResult& r, const Log& e) {
  EXPECT_EQ(r.makespan_ps, e.makespan);
  EXPECT_EQ(r.counters.spawns, 1u);
  EXPECT_EQ(r.counters.steals, 1u);
  EXPECT_EQ(r.counters.tasks_stolen, 1u);
  EXPECT_EQ(r.counters.stolen_joins, 1u);
  EXPECT_EQ(r.counters.steal_attempts, e.attempts);
  EXPECT_EQ(r.counters.failed_steals, e.failed);
  EXPECT_EQ(r.counters.requests_served, e.served);
  EXPECT_EQ(r.shares.busy_ps, e.busy);
  EXPECT_EQ(r.shares.frame_ps, e.frame);
  EXPECT_EQ(r.shares.steal_ps, e.steal);
  EXPECT_EQ(r.shares.idle_ps, e.idle);
  EXPECT_EQ(r.shares.switch_ps, e.switch_);
  expect_shares_add_up(r, 2);
}

TEST(SimEngine, FibFourOnOneWorkerCostsWhatItsCallsAndSpawnsCost) {
  const sim::FibCosts fib{.leaf_ps = 11, .node_ps = 7};
  const SimResult r = sim::simulate(sim::fib_program(4, fib), config(1));
  // fib(4): 4 calls with n >= 2 (each one spawn and one inline join), 5 leaves.
  EXPECT_EQ(r.makespan_ps, 4 * 7 + 5 * 11 + 4 * 5 + 4 * 17);
  EXPECT_EQ(r.counters.spawns, 4u);
  EXPECT_EQ(r.counters.inline_joins, 4u);
  EXPECT_EQ(r.counters.steal_attempts, 0u);
  EXPECT_EQ(r.tasks, 5u);
  EXPECT_EQ(r.shares.busy_ps, 4u * 7 + 5 * 11);
  EXPECT_EQ(r.shares.frame_ps, 4u * 5 + 4 * 17);
  EXPECT_EQ(r.work_ps, r.makespan_ps);  // one worker takes T1
  // T∞: S(n) = 7 + 5 + S(n-1) + 17 (the spawned fib(n-1) is the longer branch), S(1) = 11.
  EXPECT_EQ(r.span_ps, 11u + 3 * 29);
  // Burdened, the continuation after each spawn costs a claim (1000) more:
  // Sb(n) = max(12 + Sb(n-1), 1012 + Sb(n-2)) + 17, Sb(0) = Sb(1) = 11: 1040, 1069, 2069.
  EXPECT_EQ(r.burdened_span_ps, 2069u);
}

// Worker 1 steals the root's only child at once and runs it while the root works on; the
// root's join finds it stolen and already done, and ends. Every time below is worked by hand
// from the engine's rule (smallest clock first, ties to the lower id).
TEST(SimEngine, OneStealOnTwoWorkersFollowsTheHandComputedLog) {
  const SimResult r = sim::simulate(script({{Op::Kind::kSpawn, 0, {{Op::Kind::kWork, 100}}},
                                            {Op::Kind::kWork, 2000},
                                            {Op::Kind::kJoin}}),
                                    config(2));
  // w0: spawn [0,5), work [5,2005), the stolen join that finds the child done [2005,2105),
  // end at 2105. w1: the claim's look [0,150) and barrier [150,1150), the child's work
  // [1150,1250), then failed attempts (150) each followed by a spin (30): at 1250, 1430,
  // 1610, 1790 and 1970, the last cut at 2105.
  expect_log(r, {.makespan = 2105,
                 .attempts = 6,
                 .failed = 5,
                 .busy = 2100,
                 .frame = 105,
                 .steal = 1150 + 4 * 150 + 135,
                 .idle = 4 * 30});
  EXPECT_EQ(r.counters.inline_joins, 0u);
  // The dag: the child's 100 from 5, the root's 2000 from 5, a join at the inline cost (17);
  // burdened, the root's continuation after the spawn carries a claim (1000).
  EXPECT_EQ(r.span_ps, 2022u);
  EXPECT_EQ(r.burdened_span_ps, 3022u);
}

// The same program with a shorter root: its join pops the child while worker 1's claim of it
// is under barrier (a crossed claim). The owner waits on the port until the claim settles;
// the thief, re-reading T, backs off, finds nothing else to claim, and fails; the owner then
// runs the child inline.
TEST(SimEngine, AClaimCrossedByTheOwnersPopBacksOffAndHoldsTheOwner) {
  const SimResult r = sim::simulate(script({{Op::Kind::kSpawn, 0, {{Op::Kind::kWork, 100}}},
                                            {Op::Kind::kWork, 1000},
                                            {Op::Kind::kJoin}}),
                                    config(2));
  // w0: spawn [0,5), work [5,1005), the pop of the claimed child [1005,1022), on the port
  // [1022,1150), the child's work [1150,1250), end at 1250. w1: look [0,150), mark, barrier
  // [150,1150), retry: n = 0, so nothing; a spin [1150,1180), an attempt [1180,1330) cut.
  EXPECT_EQ(r.makespan_ps, 1250u);
  EXPECT_EQ(r.counters.steals, 0u);
  EXPECT_EQ(r.counters.inline_joins, 1u);
  EXPECT_EQ(r.counters.steal_attempts, 2u);
  EXPECT_EQ(r.counters.failed_steals, 2u);
  EXPECT_EQ(r.shares.busy_ps, 1000u + 128u + 100u);  // the owner's wait is its join's: busy
  EXPECT_EQ(r.shares.frame_ps, 22u);
  EXPECT_EQ(r.shares.steal_ps, 1150u + 70u);
  EXPECT_EQ(r.shares.idle_ps, 30u);
  expect_shares_add_up(r, 2);
}

// The same run under the request mechanism: worker 1 posts at once; worker 0 answers at
// its join, having worked, and hands the child over; its join then finds it stolen.
TEST(SimEngine, ARequestAnsweredAtTheVictimsJoinFollowsTheHandComputedLog) {
  const SimResult r =
      sim::simulate(script({{Op::Kind::kSpawn, 0, {{Op::Kind::kWork, 100}}},
                            {Op::Kind::kWork, 1000},
                            {Op::Kind::kJoin}}),
                    config(2, weft::StealPolicy::one(), 1, weft::StealMechanism::kRequest));
  // w0: spawn [0,5), work [5,1005), answer [1005,1016), stolen join [1016,1116), a failed
  // help [1116,1266), the poll that sees the child done [1266,1366), end at 1366.
  // w1: post [0,7), waits to 1016, the child's work [1016,1116), a failed attempt
  // [1116,1266), a spin [1266,1296), a failed attempt [1296,1446) cut at 1366.
  expect_log(r, {.makespan = 1366,
                 .attempts = 4,
                 .failed = 3,
                 .busy = 1100,
                 .frame = 105,
                 .steal = 150 + 7 + 1009 + 150 + 70,
                 .idle = 100 + 30,
                 .switch_ = 11,
                 .served = 1});
  EXPECT_EQ(r.counters.request_timeouts, 0u);
}

// A victim in a long stretch without spawns or joins cannot answer: the thief withdraws
// after the timeout, and tries again.
TEST(SimEngine, ARequestToAVictimInALongLeafTimesOut) {
  const SimResult r =
      sim::simulate(script({{Op::Kind::kSpawn, 0, {{Op::Kind::kWork, 100}}},
                            {Op::Kind::kWork, 1'000'000'000},  // 1 ms; the timeout is 50 us
                            {Op::Kind::kJoin}}),
                    config(2, weft::StealPolicy::one(), 1, weft::StealMechanism::kRequest));
  EXPECT_GE(r.counters.request_timeouts, 1u);
  EXPECT_EQ(r.counters.steal_attempts, r.counters.steals + r.counters.failed_steals);
  EXPECT_EQ(r.tasks, 2u);
  expect_shares_add_up(r, 2);
}

TEST(SimEngine, EveryTaskRunsOnceAndTheSharesAddUpAtAnyWorkerCount) {
  const sim::Costs costs = sim::uncalibrated_costs();
  for (auto mechanism : {weft::StealMechanism::kConcurrent, weft::StealMechanism::kRequest})
    for (unsigned p : {1u, 2u, 3u, 8u, 64u}) {
      for (const char* policy : {"one", "half", "fixed:2", "adaptive"}) {
        const SimResult r =
            sim::simulate(sim::fib_program(20, costs.fib),
                          config(p, weft::StealPolicy::parse(policy), 1, mechanism));
        EXPECT_EQ(r.tasks, sim::fib_spawns(20) + 1) << p << " " << policy;
        EXPECT_EQ(r.counters.spawns, sim::fib_spawns(20));
        // Each spawned task is joined once: inline, or stolen and then joined.
        EXPECT_EQ(r.counters.inline_joins + r.counters.stolen_joins, r.counters.spawns);
        EXPECT_LE(r.counters.stolen_joins, r.counters.tasks_stolen);
        std::uint64_t seen = 0;
        for (std::uint64_t b : r.counters.steal_sizes_seen) seen += b;
        EXPECT_EQ(seen, r.counters.steal_attempts);
        EXPECT_EQ(r.counters.steal_attempts, r.counters.steals + r.counters.failed_steals);
        expect_shares_add_up(r, p);
        // No schedule beats perfect division of the work, nor the span.
        EXPECT_GE(r.makespan_ps * p, r.shares.busy_ps + r.shares.frame_ps);
        EXPECT_GE(r.makespan_ps, r.span_ps);
        EXPECT_GE(r.burdened_span_ps, r.span_ps);
        if (p == 1) {
          EXPECT_EQ(r.makespan_ps, r.work_ps);
        }
      }
    }
}

// s_i: a worker counts towards s_1 while it runs a task, which is its busy and frame time
// (the concurrent mechanism has no switch time); s_i falls with i; the series over time
// averages to the mean.
TEST(SimEngine, OccupancyFollowsTheProfileAndItsSeriesAveragesToItsMean) {
  const sim::Costs costs = sim::uncalibrated_costs();
  for (unsigned p : {1u, 2u, 5u, 64u}) {
    for (const char* policy : {"one", "half"}) {
      const SimResult r = sim::simulate(sim::fib_program(22, costs.fib),
                                        config(p, weft::StealPolicy::parse(policy)));
      const sim::OccupancyResult& o = r.occupancy;
      const double running = static_cast<double>(r.shares.busy_ps + r.shares.frame_ps) /
                             (static_cast<double>(p) * static_cast<double>(r.makespan_ps));
      EXPECT_NEAR(o.mean[0], running, 1e-9) << p << " " << policy;
      for (std::size_t i = 1; i < o.mean.size(); ++i) EXPECT_LE(o.mean[i], o.mean[i - 1]);
      if (p == 1) {
        EXPECT_NEAR(o.mean[0], 1.0, 1e-12);  // one worker always runs a task
        EXPECT_GT(o.mean[1], 0.5);           // with fib's next call mostly waiting
      }
      ASSERT_FALSE(o.series.empty());
      EXPECT_GE(o.series.size() * o.bin_ps, r.makespan_ps);
      EXPECT_LT((o.series.size() - 1) * o.bin_ps, r.makespan_ps);
      for (std::size_t i = 0; i < sim::OccupancyResult::kSeriesLevels; ++i) {
        double weighted = 0;
        for (std::size_t b = 0; b < o.series.size(); ++b) {
          const double width = static_cast<double>(
              std::min<std::uint64_t>(r.makespan_ps, (b + 1) * o.bin_ps) - b * o.bin_ps);
          weighted += o.series[b][i] * width;
        }
        EXPECT_NEAR(weighted / static_cast<double>(r.makespan_ps), o.mean[i], 1e-9);
      }
    }
  }
}

// A victim's port admits one thief at a time: with one thief there is never a collision,
// and with many, thieves that arrive during another's claim fail without taking anything.
TEST(SimEngine, AThiefThatFindsTheVictimsPortHeldFails) {
  const sim::Costs costs = sim::uncalibrated_costs();
  for (auto mechanism : {weft::StealMechanism::kConcurrent, weft::StealMechanism::kRequest}) {
    EngineConfig c = config(2, weft::StealPolicy::one(), 1, mechanism);
    c.costs = costs.engine;  // claims long enough to collide in
    const SimResult two = sim::simulate(sim::fib_program(24, costs.fib), c);
    EXPECT_EQ(two.counters.port_busy, 0u);
    c.workers = 64;
    const SimResult many = sim::simulate(sim::fib_program(24, costs.fib), c);
    EXPECT_GT(many.counters.port_busy, 0u);
    EXPECT_LE(many.counters.port_busy, many.counters.failed_steals);
  }
}

uts::TreeParams small_tree() {
  uts::TreeParams t;  // the reference's defaults: geometric, b0 = 4, depth 6, linear
  t.seed = 19;
  return t;
}

TEST(SimEngine, UtsSpawnsOneTaskPerNodeButTheRoot) {
  const uts::Tree tree(small_tree());
  const std::uint64_t nodes = uts::traverse_sequential(tree).nodes;
  ASSERT_GT(nodes, 100u);
  const sim::Costs costs = sim::uncalibrated_costs();
  for (unsigned p : {1u, 2u, 16u}) {
    const SimResult r =
        sim::simulate(sim::uts_program(tree, costs.uts), config(p, weft::StealPolicy::half()));
    EXPECT_EQ(r.tasks, nodes);
    EXPECT_EQ(r.counters.spawns, nodes - 1);
    expect_shares_add_up(r, p);
  }
}

long fib_weft(int n) {
  if (n < 2) return n;
  auto a = weft::spawn([n] { return fib_weft(n - 1); });
  const long b = fib_weft(n - 2);
  return a.join() + b;
}

weft::Config one_worker() {
  weft::Config c;
  c.workers = 1;
  c.count_spawns = true;  // the tests read its spawns
  return c;
}

TEST(SimEngine, OnOneWorkerSpawnsAndInlineJoinsAreWeftsOwn) {
  const sim::Costs costs = sim::uncalibrated_costs();
  {
    weft::Runtime rt(one_worker());
    rt.reset_stats();
    ASSERT_EQ(rt.run([] { return fib_weft(25); }), 75025);
    const SimResult r = sim::simulate(sim::fib_program(25, costs.fib), config(1));
    EXPECT_EQ(r.counters.spawns, rt.stats().total.spawns);
    EXPECT_EQ(r.counters.inline_joins, rt.stats().total.inline_joins);
  }
  {
    const uts::Tree tree(small_tree());
    weft::Runtime rt(one_worker());
    rt.reset_stats();
    (void)uts::traverse_weft(rt, tree);
    const SimResult r = sim::simulate(sim::uts_program(tree, costs.uts), config(1));
    EXPECT_EQ(r.counters.spawns, rt.stats().total.spawns);
    EXPECT_EQ(r.counters.inline_joins, rt.stats().total.inline_joins);
  }
}

TEST(SimEngine, TheSameSeedGivesTheSameRun) {
  const sim::Costs costs = sim::uncalibrated_costs();
  const auto run = [&](std::uint64_t seed) {
    return sim::simulate(sim::fib_program(18, costs.fib),
                         config(7, weft::StealPolicy::half(), seed));
  };
  const SimResult a = run(42), b = run(42);
  EXPECT_EQ(a.makespan_ps, b.makespan_ps);
  EXPECT_EQ(a.counters.steal_attempts, b.counters.steal_attempts);
  EXPECT_EQ(a.counters.steals, b.counters.steals);
  EXPECT_EQ(a.counters.tasks_stolen, b.counters.tasks_stolen);
  EXPECT_EQ(a.shares.steal_ps, b.shares.steal_ps);
}

// A root that works for a simulated second alone: the other workers spin, yield, then sleep
// (one of them the watchman, napping up to 4 ms), so their attempts stay in the hundreds and
// nearly all their time is idle.
TEST(SimEngine, WorkersWithNothingToTakeBackOffAndSleep) {
  constexpr std::uint64_t kSecond = 1'000'000'000'000;
  EngineConfig c = config(4);
  c.costs = sim::uncalibrated_costs().engine;
  const SimResult r = sim::simulate(script({{Op::Kind::kWork, kSecond}}), c);
  EXPECT_EQ(r.makespan_ps, kSecond);
  // Worker 1: 16 x 3 spinning attempts, then yielding ones for at least 200 us (about 174
  // at 1.15 us each), then it parks; worker 3 sleeps from the start; the watchman, worker 2,
  // looks after each nap: 50, 100, ... 3200 us, then every 4 ms (about 255 in a second).
  EXPECT_GT(r.counters.steal_attempts, 48u + 170 + 250);
  EXPECT_LT(r.counters.steal_attempts, 48u + 180 + 260);
  EXPECT_EQ(r.counters.steals, 0u);
  EXPECT_EQ(r.shares.busy_ps, kSecond);
  EXPECT_EQ(r.shares.switch_ps, 0u);
  EXPECT_GT(r.shares.idle_ps, 3 * kSecond - kSecond / 1000);
  expect_shares_add_up(r, 4);
}

// Barrier switching, worked by hand with test_costs (a membarrier claim 1000, so a stack
// fences when claims come within 4000 of the last membarrier's end and unfences after 16000
// quiet). The root spawns three children and works 20000; worker 1 steals them one by one:
// c1 with a membarrier [150, 1150); c2's port take at 1250 is 100 after it, so that claim
// fences the stack, still paying its own membarrier [1400, 2400); c3's claim at 2500 finds
// the stack fenced and fences [2650, 2653). c3 works long, so nobody takes the port again.
// The root's 300 spawn+join pairs after its work then pop fenced, paying 13 more each, and
// its 256th pop, at a clock past 2500 + 16000, unfences the stack: the rest cost 17.
std::vector<Step> three_steals_then_pairs() {
  std::vector<Step> root{{Op::Kind::kSpawn, 0, {{Op::Kind::kWork, 100}}},
                         {Op::Kind::kSpawn, 0, {{Op::Kind::kWork, 100}}},
                         {Op::Kind::kSpawn, 0, {{Op::Kind::kWork, 10'000'000}}},
                         {Op::Kind::kWork, 20000}};
  for (int i = 0; i < 300; ++i) {
    root.push_back({Op::Kind::kSpawn, 0, {{Op::Kind::kWork, 1}}});
    root.push_back({Op::Kind::kJoin});
  }
  for (int i = 0; i < 3; ++i) root.push_back({Op::Kind::kJoin});
  return root;
}

SimResult three_steals_under(weft::Barrier barrier) {
  EngineConfig c = config(2);
  c.barrier = barrier;
  return sim::simulate(script(three_steals_then_pairs()), c);
}

void expect_claims(const SimResult& r, std::uint64_t fenced, std::uint64_t switches) {
  EXPECT_EQ(r.counters.steals, 3u);
  EXPECT_EQ(r.counters.fenced_steals, fenced);
  EXPECT_EQ(r.counters.barrier_switches, switches);
  EXPECT_EQ(r.counters.inline_joins, 300u);
  expect_shares_add_up(r, 2);
}

TEST(SimEngine, AStackClaimedFromOftenFencesAndGoesBackWhenThievesStopComing) {
  constexpr std::uint64_t kWork = 100 + 100 + 10'000'000 + 20000 + 300;
  constexpr std::uint64_t kFrame = 303 * 5 + 300 * 17 + 3 * 100;  // spawns, pops, stolen joins
  // auto: c3's claim fenced (c2's switched the stack, paying its membarrier); the stack went
  // back at the 256th fenced pop. Under weft's membarrier process the fence is busy time (its
  // profile's frame cost is the unfenced one): exactly the 256 fenced pops' 13 more.
  const SimResult r = three_steals_under(weft::Barrier::kAuto);
  expect_claims(r, 1, 2);
  EXPECT_EQ(r.shares.busy_ps, kWork + 256 * 13);
  EXPECT_EQ(r.shares.frame_ps, kFrame);

  // membarrier never fences: three membarrier claims, no fenced pop. c3's barrier is then a
  // membarrier [2650, 3650), so c3, which the root's last join waits for, ends later.
  const SimResult rm = three_steals_under(weft::Barrier::kMembarrier);
  expect_claims(rm, 0, 0);
  EXPECT_EQ(rm.shares.busy_ps, kWork);
  EXPECT_GT(rm.makespan_ps, r.makespan_ps);

  // fence fences from the start: every claim and every pop, the pops' fences being frame
  // time there (weft's frame cost is measured on a fenced stack in that mode).
  const SimResult rf = three_steals_under(weft::Barrier::kFence);
  expect_claims(rf, 3, 0);
  EXPECT_EQ(rf.shares.busy_ps, kWork);
  EXPECT_EQ(rf.shares.frame_ps, kFrame + 300 * 13);
}

// One worker: nothing to switch under auto, every pop fenced under fence, and T1 (work_ps)
// is what the one worker took in both; the request mechanism never fences.
TEST(SimEngine, OnOneWorkerOnlyTheFenceSettingFences) {
  const sim::FibCosts fib{.leaf_ps = 11, .node_ps = 7};
  for (weft::Barrier b :
       {weft::Barrier::kAuto, weft::Barrier::kMembarrier, weft::Barrier::kFence}) {
    for (auto mechanism : {weft::StealMechanism::kConcurrent, weft::StealMechanism::kRequest}) {
      EngineConfig c = config(1, weft::StealPolicy::one(), 1, mechanism);
      c.barrier = b;
      const SimResult r = sim::simulate(sim::fib_program(4, fib), c);
      const bool fenced =
          b == weft::Barrier::kFence && mechanism == weft::StealMechanism::kConcurrent;
      EXPECT_EQ(r.makespan_ps, 4 * 7 + 5 * 11 + 4 * 5 + 4 * (17 + (fenced ? 13 : 0)));
      EXPECT_EQ(r.work_ps, r.makespan_ps);
      EXPECT_EQ(r.counters.barrier_switches, 0u);
    }
  }
}

TEST(SimEngine, AJoinWithNoChildIsAProgramError) {
  EXPECT_THROW(sim::simulate(script({{Op::Kind::kJoin}}), config(1)), sim::ProgramError);
}

TEST(SimEngine, ATaskThatEndsWithAnUnjoinedChildIsAProgramError) {
  EXPECT_THROW(sim::simulate(script({{Op::Kind::kSpawn, 0, {{Op::Kind::kWork, 1}}}}), config(1)),
               sim::ProgramError);
}

TEST(SimEngine, AConfigurationOutOfRangeIsRefused) {
  EXPECT_THROW(sim::simulate(script({}), config(0)), std::invalid_argument);
  EXPECT_THROW(sim::simulate(script({}), config(4097)), std::invalid_argument);
  EngineConfig c = config(2);
  c.costs.attempt_ps = 0;
  EXPECT_THROW(sim::simulate(script({}), c), std::invalid_argument);
}

}  // namespace
