// Whitebox tests of weft::detail::TaskStack, the owner/thief protocol, without a Runtime:
// the test thread is the owner, std::threads are the thieves. The central property is TS2
// (task_stack.hpp): every pushed task is taken exactly once, by the owner's pop or by one
// thief's claim, never both and never neither.
#include "weft/detail/task_stack.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <new>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "core/worker.hpp"
#include "task_stack_support.hpp"
#include "tasks/barrier_mode.hpp"
#include "test_support.hpp"
#include "weft/config.hpp"
#include "weft/detail/slot.hpp"
#include "weft/weft.hpp"

namespace {
using weft::detail::StealSide;

namespace wd = weft::detail;
using weft::StealPolicy;
using weft::StealView;
using weft_test::all_ran_once;
using weft_test::CountedTask;
using weft_test::ExactlyOnceChecker;
using weft_test::Owner;
using weft_test::push_n;
using weft_test::run_claim;
using weft_test::scaled;
using weft_test::TaskError;

// What thieves did, summed over all of them.
struct ThiefTotals {
  std::atomic<std::int64_t> tasks{0};
  std::atomic<std::int64_t> claims{0};
  std::atomic<std::int64_t> bad_claims{0};
};

// A thief hammering steal() until told to stop. Runs its claimed slots like a worker does
// (run_stolen: exec, then release-store the outcome), newest first on even ids and oldest
// first on odd ones. Checks every claim against the policy's exact amount where the amount
// does not depend on n (`exact_count` > 0), and that each claimed slot carries its id.
void thief_loop(wd::TaskStack& stack, const StealPolicy& policy, std::int64_t exact_count,
                std::int32_t id, const std::atomic<bool>& stop, ThiefTotals& totals) {
  unsigned failures = 0;
  while (!stop.load(std::memory_order_acquire)) {
    wd::StealFailure why = wd::StealFailure::kNone;
    const wd::Claim claim = StealSide(stack).steal(policy, id, &why);
    if (!claim) {
      if (why == wd::StealFailure::kNone) totals.bad_claims.fetch_add(1);
      if (++failures % 4 == 0) std::this_thread::yield();
      continue;
    }
    failures = 0;
    const bool in_bounds = claim.first >= stack.slot_at(0) &&
                           claim.first + claim.count <= stack.slot_at(stack.capacity());
    if (!in_bounds || (exact_count > 0 && claim.count != exact_count)) {
      totals.bad_claims.fetch_add(1);
    }
    for (std::int64_t i = 0; i < claim.count; ++i) {
      if (claim.first[i].thief.load(std::memory_order_relaxed) != id)
        totals.bad_claims.fetch_add(1);
    }
    if (id % 2 == 0) {
      for (std::int64_t i = claim.count - 1; i >= 0; --i) wd::run_stolen(claim.first + i, nullptr);
    } else {
      for (std::int64_t i = 0; i < claim.count; ++i) wd::run_stolen(claim.first + i, nullptr);
    }
    totals.tasks.fetch_add(claim.count);
    totals.claims.fetch_add(1);
  }
}

class TaskStackTest : public ::testing::Test {
 protected:
  // The barrier mode must be settled before the stack is shared between threads; ctest's
  // "fence:" run asks for fence with WEFT_BARRIER (tests/CMakeLists.txt).
  void SetUp() override { weft::detail::init_barrier_mode(weft::Config::from_env().barrier); }
};

// ---- Quiescent claims: exact amounts ----

TEST_F(TaskStackTest, HalfTakesTheOldestCeilHalf) {
  for (std::int64_t n = 1; n <= 50; ++n) {
    SCOPED_TRACE("n = " + std::to_string(n));
    wd::TaskStack stack;
    stack.init(64);
    ExactlyOnceChecker checker(64);
    Owner owner(stack, checker);
    push_n(owner, n);
    ASSERT_EQ(stack.available(), n);
    wd::StealFailure why = wd::StealFailure::kEmpty;
    const wd::Claim claim = StealSide(stack).steal(StealPolicy::half(), 3, &why);
    EXPECT_EQ(why, wd::StealFailure::kNone);
    EXPECT_EQ(claim.count, (n + 1) / 2);
    EXPECT_EQ(claim.first, stack.slot_at(0)) << "a claim must start at the oldest task";
    EXPECT_EQ(stack.available(), n - (n + 1) / 2);
    run_claim(claim);
    owner.pop_all();
    EXPECT_TRUE(all_ran_once(owner, checker, n, (n + 1) / 2));
    EXPECT_EQ(stack.size(), 0);
  }
}

TEST_F(TaskStackTest, RepeatedHalfStealsTakeCeilHalfOfWhatIsLeft) {
  const std::int64_t n = 37;
  wd::TaskStack stack;
  stack.init(64);
  ExactlyOnceChecker checker(64);
  Owner owner(stack, checker);
  push_n(owner, n);
  std::int64_t taken = 0;
  while (taken < n) {
    const std::int64_t left = n - taken;
    const wd::Claim claim = StealSide(stack).steal(StealPolicy::half(), 1);
    ASSERT_EQ(claim.count, (left + 1) / 2) << "with " << left << " left";
    EXPECT_EQ(claim.first, stack.slot_at(taken));
    run_claim(claim);
    taken += claim.count;
  }
  wd::StealFailure why = wd::StealFailure::kNone;
  EXPECT_FALSE(StealSide(stack).steal(StealPolicy::half(), 1, &why));
  EXPECT_EQ(why, wd::StealFailure::kEmpty);
  owner.pop_all();
  EXPECT_TRUE(all_ran_once(owner, checker, n, n));
}

TEST_F(TaskStackTest, FixedDeclinesBelowDAndTakesExactlyD) {
  for (std::int64_t d : {1, 2, 3, 7, 20}) {
    const StealPolicy policy = StealPolicy::fixed(d);
    for (std::int64_t n = 0; n <= d + 5; ++n) {
      SCOPED_TRACE("fixed:" + std::to_string(d) + ", n = " + std::to_string(n));
      wd::TaskStack stack;
      stack.init(64);
      ExactlyOnceChecker checker(64);
      Owner owner(stack, checker);
      push_n(owner, n);
      wd::StealFailure why = wd::StealFailure::kNone;
      const wd::Claim claim = StealSide(stack).steal(policy, 0, &why);
      if (n < d) {
        EXPECT_EQ(claim.count, 0);
        EXPECT_FALSE(claim);
        EXPECT_EQ(why, n == 0 ? wd::StealFailure::kEmpty : wd::StealFailure::kPolicyDeclined);
        EXPECT_EQ(stack.available(), n) << "a declined steal must leave every task available";
      } else {
        EXPECT_EQ(claim.count, d);
        EXPECT_EQ(claim.first, stack.slot_at(0));
        EXPECT_EQ(why, wd::StealFailure::kNone);
        EXPECT_EQ(stack.available(), n - d);
      }
      run_claim(claim);
      owner.pop_all();
      EXPECT_TRUE(all_ran_once(owner, checker, n, n < d ? 0 : d));
    }
  }
}

TEST_F(TaskStackTest, OneTakesExactlyOne) {
  for (std::int64_t n = 1; n <= 50; ++n) {
    SCOPED_TRACE("n = " + std::to_string(n));
    wd::TaskStack stack;
    stack.init(64);
    ExactlyOnceChecker checker(64);
    Owner owner(stack, checker);
    push_n(owner, n);
    const wd::Claim claim = StealSide(stack).steal(StealPolicy::one(), 0);
    EXPECT_EQ(claim.count, 1);
    EXPECT_EQ(claim.first, stack.slot_at(0));
    EXPECT_EQ(claim.first->thief.load(), 0);
    run_claim(claim);
    owner.pop_all();
    EXPECT_TRUE(all_ran_once(owner, checker, n, 1));
  }
}

TEST_F(TaskStackTest, FullStackReportsFullAtCapacity) {
  wd::TaskStack stack;
  stack.init(5);
  ExactlyOnceChecker checker(8);
  Owner owner(stack, checker);
  for (int i = 0; i < 5; ++i) {
    EXPECT_FALSE(stack.full(stack.top())) << "after " << i << " pushes";
    owner.push();
  }
  EXPECT_TRUE(stack.full(stack.top()));
  EXPECT_EQ(stack.size(), 5);
  // A stolen (claimed) slot stays occupied: the stack is still full after a steal.
  run_claim(StealSide(stack).steal(StealPolicy::one(), 0));
  EXPECT_TRUE(stack.full(stack.top()));
  owner.pop_all();
  EXPECT_FALSE(stack.full(stack.top()));
  EXPECT_TRUE(checker.check(5).ok());
}

// A never-initialised stack (the serial worker's) has no room at all.
TEST_F(TaskStackTest, UninitialisedStackIsFull) {
  wd::TaskStack stack;
  EXPECT_TRUE(stack.full(stack.top()));
  EXPECT_EQ(stack.capacity(), 0);
}

// ---- A sequential model: every quiescent state, including after stolen slots were
// collected and released, gives exactly the policy's amount, from the oldest task ----

TEST_F(TaskStackTest, QuiescentStealsMatchAModelAndAreNeverFalselyEmpty) {
  const std::vector<StealPolicy> policies = {StealPolicy::one(), StealPolicy::half(),
                                             StealPolicy::fixed(3)};
  for (std::size_t p = 0; p < policies.size(); ++p) {
    const StealPolicy& policy = policies[p];
    SCOPED_TRACE("policy " + policy.spec());
    const std::int64_t steps = scaled(20000, 2000);
    wd::TaskStack stack;
    stack.init(24);
    ExactlyOnceChecker checker(static_cast<std::size_t>(steps));
    Owner owner(stack, checker);
    const std::int64_t successful_steals =
        weft_test::drive_against_model(stack, owner, policy, steps, 1234 + p, [&](std::int64_t n) {
          EXPECT_EQ(stack.available(), n) << "a falsely empty (or full) stack";
          wd::StealFailure why = wd::StealFailure::kNone;
          const wd::Claim claim = StealSide(stack).steal(policy, 7, &why);
          if (!claim) {
            EXPECT_EQ(why, n == 0 ? wd::StealFailure::kEmpty : wd::StealFailure::kPolicyDeclined);
          }
          return claim;
        });
    EXPECT_GT(successful_steals, steps / 50);
    EXPECT_EQ(owner.bad_outcomes(), 0) << owner.first_bad_outcome();
    const auto report = checker.check(owner.pushed());
    EXPECT_TRUE(report.ok()) << report.describe();
    EXPECT_EQ(stack.size(), 0);
    EXPECT_EQ(stack.available(), 0);
  }
}

// ---- The checker itself can fail ----

// A broken owner that "pops" by looking at its own top only, ignoring the head index (and
// so what thieves claimed), runs a stolen task a second time. The checker must say so.
TEST_F(TaskStackTest, CheckerReportsTheDuplicateOfAPopThatIgnoresHead) {
  const std::int64_t n = 8;
  wd::TaskStack stack;
  stack.init(16);
  ExactlyOnceChecker checker(n);
  std::vector<wd::Slot*> slots;
  for (std::int64_t id = 0; id < n; ++id) {
    wd::Slot* s = stack.top();
    ::new (static_cast<void*>(s->storage)) CountedTask(&checker, id);
    s->exec = &wd::exec_closure<CountedTask, std::int64_t>;
    stack.publish(s);
    slots.push_back(s);
  }
  const wd::Claim claim = StealSide(stack).steal(StealPolicy::fixed(2), 1);
  ASSERT_EQ(claim.count, 2);
  run_claim(claim);  // the thief runs tasks 0 and 1
  // The broken pop: take the top slot and run whatever it holds, never consulting H.
  for (std::int64_t id = n - 1; id >= 0; --id) {
    try {
      (void)(*slots[static_cast<std::size_t>(id)]->as<CountedTask>())();
    } catch (const TaskError&) {
    }
  }
  const auto report = checker.check(n);
  EXPECT_FALSE(report.ok());
  EXPECT_EQ(report.ran_more_than_once, (std::vector<std::int64_t>{0, 1})) << report.describe();
  EXPECT_EQ(report.clobbered_runs, 2) << report.describe();
  EXPECT_TRUE(report.never_ran.empty());
}

// A broken thief that claims a task and drops it: the checker reports the lost task.
TEST_F(TaskStackTest, CheckerReportsATaskAClaimDropped) {
  wd::TaskStack stack;
  stack.init(16);
  ExactlyOnceChecker checker(4);
  Owner owner(stack, checker);
  push_n(owner, 4);
  const wd::Claim claim = StealSide(stack).steal(StealPolicy::one(), 1);
  ASSERT_EQ(claim.count, 1);
  // Drop it: never run, but publish a made-up outcome so the owner's join completes.
  ::new (static_cast<void*>(claim.first->storage)) std::int64_t{CountedTask::value_for(0)};
  claim.first->state.store(static_cast<std::uint32_t>(wd::Outcome::kValue),
                           std::memory_order_release);
  owner.pop_all();
  const auto report = checker.check(4);
  EXPECT_FALSE(report.ok());
  EXPECT_EQ(report.never_ran, (std::vector<std::int64_t>{0})) << report.describe();
}

// ---- Concurrent stress: one owner, 1..8 thieves, every policy ----

using StressParam = std::tuple<std::string, int>;

class TaskStackStress : public TaskStackTest, public ::testing::WithParamInterface<StressParam> {};

// Runs a random nested push/pop program of `total` tasks on `stack` (an owner thread's view:
// bursts of k pushes popped LIFO, random walks that go deep and shallow, pauses at depth
// so that thieves find work), while `thieves` threads steal with `policy`. Checks TS2.
void run_stress(wd::TaskStack& stack, const StealPolicy& policy, std::int64_t exact_count,
                int thieves, std::int64_t total, std::uint64_t seed) {
  ExactlyOnceChecker checker(static_cast<std::size_t>(total));
  Owner owner(stack, checker);
  ThiefTotals totals;
  std::atomic<bool> stop{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < thieves; ++t) {
    threads.emplace_back(thief_loop, std::ref(stack), std::cref(policy), exact_count, t,
                         std::cref(stop), std::ref(totals));
  }

  std::mt19937_64 rng(seed);
  const auto capacity = static_cast<std::size_t>(stack.capacity());
  // The last tasks are kept for the end (below); one pass of the loop pushes at most 600.
  constexpr std::int64_t kKeptForTheEnd = 1000;
  while (owner.pushed() < total - kKeptForTheEnd) {
    if (!owner.has_room()) {
      owner.pop();
      continue;
    }
    switch (rng() % 4) {
      case 1: {  // ping: one or two tasks pushed and popped at once; the owner's pop and a
                 // thief's claim race for the same slot (the Dekker pair, TS2)
        for (int i = 0; i < 300 && owner.pushed() < total; ++i) {
          const int k = 1 + static_cast<int>(rng() % 2);
          for (int j = 0; j < k && owner.can_push(); ++j) owner.push();
          while (owner.depth() > 0) owner.pop();
        }
        break;
      }
      case 0: {  // a burst: push k, pop k (like a loop of spawns joined in reverse)
        const std::size_t k = 1 + rng() % (capacity - owner.depth());
        for (std::size_t i = 0; i < k && owner.can_push(); ++i) owner.push();
        if (owner.depth() >= 20 && rng() % 4 == 0) std::this_thread::yield();
        while (owner.depth() > 0 && rng() % 8 != 0) owner.pop();
        break;
      }
      default: {  // a random walk with a random bias: nested spawns and joins
        const unsigned push_percent = 30 + static_cast<unsigned>(rng() % 50);
        for (int step = 0; step < 200; ++step) {
          if (owner.can_push() && rng() % 100 < push_percent) {
            owner.push();
          } else if (owner.depth() > 0) {
            owner.pop();
          }
          if (owner.depth() >= 24 && rng() % 64 == 0) std::this_thread::yield();
        }
        break;
      }
    }
  }
  // The rest go up a full stack at a time, each held until some thief has taken a task: on a
  // loaded machine the thieves may otherwise never run while the stack is deep enough
  // (fixed:20 takes only from 20 tasks up), and the test would have exercised nothing.
  owner.pop_all();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (owner.can_push()) {
    while (owner.can_push()) owner.push();
    while (totals.tasks.load() == 0 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::yield();
    }
    owner.pop_all();
  }
  stop.store(true, std::memory_order_release);
  for (auto& t : threads) t.join();

  EXPECT_EQ(owner.pushed(), total);
  EXPECT_TRUE(all_ran_once(owner, checker, owner.pushed(), totals.tasks.load()));
  EXPECT_EQ(totals.bad_claims.load(), 0);
  EXPECT_GT(totals.tasks.load(), 0) << "no steal succeeded: the test exercised nothing";
  EXPECT_EQ(stack.size(), 0);
  EXPECT_EQ(stack.available(), 0);
  std::printf("%lld of %lld tasks stolen in %lld claims by %d thieves\n",
              static_cast<long long>(totals.tasks.load()), static_cast<long long>(owner.pushed()),
              static_cast<long long>(totals.claims.load()), thieves);
}

TEST_P(TaskStackStress, EveryTaskIsTakenExactlyOnce) {
  const auto& [spec, thieves] = GetParam();
  const StealPolicy policy = StealPolicy::parse(spec);
  const std::int64_t exact = spec == "one"        ? 1
                             : spec == "fixed:2"  ? 2
                             : spec == "fixed:20" ? 20
                                                  : 0;
  const int rounds = 3;
  const std::int64_t per_round = scaled(600000, 10000);
  for (int round = 0; round < rounds; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    wd::TaskStack stack;
    stack.init(round == 0 ? 64 : round == 1 ? 32 : 128);
    run_stress(stack, policy, exact, thieves, per_round,
               weft_test::mix64(static_cast<std::uint64_t>(round * 100 + thieves)));
    if (HasFailure()) return;
  }
}

INSTANTIATE_TEST_SUITE_P(PoliciesAndThieves, TaskStackStress,
                         ::testing::Combine(::testing::Values("one", "fixed:2", "fixed:20", "half"),
                                            ::testing::Values(1, 2, 4, 8)),
                         weft_test::PolicyCountName{});

// A fenced stack's inline pop (no fence of its own) must never decide: its check fails,
// and the settling pop fences, then reads the true H. Without membarrier an inline pop
// that decided could take a slot a thief took too. Membarrier mode: the inline pop decides.
TEST_F(TaskStackTest, AFencedStacksInlinePopAlwaysSettlesOutOfLine) {
  const bool fenced = weft::detail::barrier_mode() == weft::detail::BarrierMode::kFence;
  wd::TaskStack stack;
  stack.init(16);
  ExactlyOnceChecker checker(4);
  Owner owner(stack, checker);
  for (int i = 0; i < 4; ++i) owner.push();
  const wd::Claim claim = StealSide(stack).steal(StealPolicy::fixed(1), 1);
  ASSERT_EQ(claim.count, 1);  // slot 0: the thief's reads and writes of H on either stack
  EXPECT_EQ(stack.available(), 3);
  for (std::int64_t id = 3; id >= 1; --id) {
    wd::Slot* top = stack.slot_at(id);
    ASSERT_EQ(stack.top_if(reinterpret_cast<std::uintptr_t>(top)), top);
    EXPECT_EQ(stack.pop_top(top), !fenced) << "slot " << id;
    EXPECT_TRUE(StealSide(stack).pop_contended(top)) << "slot " << id;  // no thief at it
    (void)(*top->as<CountedTask>())();
  }
  wd::Slot* stolen = stack.slot_at(0);
  EXPECT_FALSE(stack.pop_top(stolen));
  EXPECT_FALSE(StealSide(stack).pop_contended(stolen));  // the thief's: keep it occupied
  run_claim(claim);
  stack.release_stolen(stolen);
  EXPECT_EQ(stack.size(), 0);
  EXPECT_TRUE(checker.check(4).ok()) << checker.check(4).describe();
}

// ---- Barrier switching (Config::barrier = auto; BS1-BS3 in task_stack.hpp) ----

class BarrierSwitchingTest : public TaskStackTest {
 protected:
  void SetUp() override {
    TaskStackTest::SetUp();
    if (wd::barrier_mode() == wd::BarrierMode::kFence) {
      GTEST_SKIP() << "the process uses the fence barrier: no stack switches";
    }
  }
  void TearDown() override { wd::reset_barrier_switching(); }
  static constexpr std::uint64_t kHour = 3'600'000'000'000ULL;
};

// Two membarrier claims close together make the stack fenced (its inline pop then always
// settles out of line); once no thief comes for the window, the owner's fenced pop makes it
// unfenced again, and its inline pop decides. A stack made without switching never switches.
TEST_F(BarrierSwitchingTest, CloseClaimsFenceTheStackAndQuietUnfencesIt) {
  wd::set_barrier_switching(
      {.fence_within_ns = kHour, .unfence_after_ns = kHour, .recheck_pops = 1});
  for (const bool switching : {false, true}) {
    SCOPED_TRACE(switching ? "switching stack" : "stack made without switching");
    wd::TaskStack stack;
    stack.init(16, weft::StealMechanism::kConcurrent, switching);
    ExactlyOnceChecker checker(6);
    Owner owner(stack, checker);
    for (int i = 0; i < 6; ++i) owner.push();
    const StealPolicy one = StealPolicy::fixed(1);
    const auto run_inline = [](wd::Slot* s) {  // as a join that popped it does
      try {
        (void)(*s->as<CountedTask>())();
      } catch (const TaskError&) {  // task 5 throws, by CountedTask's rule
      }
      s->as<CountedTask>()->~CountedTask();
    };
    ASSERT_EQ(StealSide(stack).steal(one, 1).count, 1);  // the first membarrier claim
    EXPECT_FALSE(stack.fenced());
    const wd::Claim second = StealSide(stack).steal(one, 1);  // within the window
    ASSERT_EQ(second.count, 1);
    EXPECT_EQ(stack.fenced(), switching);
    EXPECT_EQ(stack.barrier_switches(), switching ? 1u : 0u);
    EXPECT_EQ(stack.available(), 4);  // H moved with the mode

    wd::Slot* top = stack.slot_at(5);
    ASSERT_EQ(stack.top_if(reinterpret_cast<std::uintptr_t>(top)), top);
    EXPECT_EQ(stack.pop_top(top), !switching) << "a fenced stack's inline pop must not decide";
    EXPECT_TRUE(StealSide(stack).pop_contended(top));  // fenced: decided out of line, ours
    run_inline(top);
    EXPECT_EQ(stack.fenced(), switching) << "a thief came within the window: stays fenced";

    wd::set_barrier_switching({.fence_within_ns = kHour, .unfence_after_ns = 0, .recheck_pops = 1});
    top = stack.slot_at(4);
    EXPECT_EQ(stack.pop_top(top), !switching);
    EXPECT_TRUE(StealSide(stack).pop_contended(top));
    run_inline(top);
    EXPECT_FALSE(stack.fenced()) << "no thief within the window: back to membarrier";
    EXPECT_EQ(stack.barrier_switches(), switching ? 2u : 0u);
    EXPECT_EQ(stack.available(), 2);
    top = stack.slot_at(3);
    EXPECT_TRUE(stack.pop_top(top)) << "unfenced again: the inline pop decides";
    run_inline(top);
    top = stack.slot_at(2);
    EXPECT_TRUE(stack.pop_top(top));
    run_inline(top);
    // The two stolen slots, newest first: the owner finds each claimed and keeps it occupied.
    for (const std::int64_t id : {1, 0}) {
      wd::Slot* stolen = stack.slot_at(id);
      EXPECT_FALSE(stack.pop(stolen));
      EXPECT_FALSE(StealSide(stack).pop_contended(stolen));
      run_claim(wd::Claim{stolen, 1});
      stack.release_stolen(stolen);
    }
    EXPECT_EQ(stack.size(), 0);
    EXPECT_TRUE(checker.check(6).ok()) << checker.check(6).describe();
    wd::set_barrier_switching(
        {.fence_within_ns = kHour, .unfence_after_ns = kHour, .recheck_pops = 1});
  }
}

// A runtime's stacks switch under the default Barrier::kAuto, seen in Stats::fenced_steals,
// and never under kMembarrier. (Not every steal under kAuto can be checked for a membarrier:
// a stack's first membarrier claims may cross the owner's pops and take nothing, and the
// steals after them fence.) Short fib runs at 2 workers under `one` make claims in quick
// succession; the first run that had a claim fence ends the kAuto part.
TEST_F(BarrierSwitchingTest, ARuntimeFencesClaimsUnderAutoAndNeverUnderMembarrier) {
  // Runs short fibs until `enough` holds for the runtime's counters (or 5000 runs or 20 s: a
  // loaded machine may leave the second worker off its CPU through many of them).
  const auto steals_under = [](weft::Barrier barrier, auto enough) {
    weft::Config c = weft_test::make_config("one", 2);
    c.mechanism = weft::StealMechanism::kConcurrent;
    c.barrier = barrier;
    weft::Runtime rt(c);
    const int n = weft_test::kSanitized ? 16 : 20;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    for (int run = 0; run < 5000 && std::chrono::steady_clock::now() < deadline; ++run) {
      EXPECT_EQ(rt.run([] { return weft_test::weft_fib(n); }), weft_test::serial_fib(n));
      if (enough(rt.stats().total, run)) break;
    }
    return rt.stats().total;
  };
  const weft::WorkerStats automatic = steals_under(
      weft::Barrier::kAuto, [](const weft::WorkerStats& s, int) { return s.fenced_steals > 0; });
  EXPECT_GT(automatic.fenced_steals, 0u) << "no claim fenced in " << automatic.steals;
  // At least 200 runs and 20 steals: enough claims close together that auto would fence.
  const weft::WorkerStats membarrier = steals_under(
      weft::Barrier::kMembarrier,
      [](const weft::WorkerStats& s, int run) { return run >= 200 && s.steals >= 20; });
  EXPECT_GT(membarrier.steals, 0u);
  EXPECT_EQ(membarrier.fenced_steals, 0u);
}

// Stats::membarrier_ns: the switching's estimate, from a concurrent runtime whose thieves
// have timed a membarrier (here the membarrier setting, whose every claim pays one), in its
// table and JSON; 0 from a request runtime, whose thieves never pay one.
TEST_F(BarrierSwitchingTest, StatsReportTheMembarrierEstimateWhereItApplies) {
  for (const auto mechanism : {weft::StealMechanism::kConcurrent, weft::StealMechanism::kRequest}) {
    weft::Config c = weft_test::make_config("one", 2);
    c.mechanism = mechanism;
    c.barrier = weft::Barrier::kMembarrier;
    weft::Runtime rt(c);
    const int n = weft_test::kSanitized ? 16 : 20;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    for (int run = 0; run < 5000 && std::chrono::steady_clock::now() < deadline; ++run) {
      EXPECT_EQ(rt.run([] { return weft_test::weft_fib(n); }), weft_test::serial_fib(n));
      if (rt.stats().total.steals >= 5) break;
    }
    const weft::Stats stats = rt.stats();
    ASSERT_GT(stats.total.steals, 0u);
    if (mechanism == weft::StealMechanism::kConcurrent) {
      EXPECT_GT(stats.membarrier_ns, 0u);
      EXPECT_EQ(stats.membarrier_ns, wd::membarrier_cost_ns());
      EXPECT_NE(stats.json().find("\"membarrier_ns\":" + std::to_string(stats.membarrier_ns)),
                std::string::npos)
          << stats.json();
      EXPECT_NE(stats.table().find("membarrier estimate"), std::string::npos) << stats.table();
    } else {
      EXPECT_EQ(stats.membarrier_ns, 0u) << "a request runtime pays no membarrier";
      EXPECT_NE(stats.json().find("\"membarrier_ns\":0"), std::string::npos) << stats.json();
    }
  }
}

// TS2 while the stack changes its barrier all the time: every second membarrier claim fences
// it, and the owner unfences it after every other fenced pop, so claims and pops cross each
// switch in both directions.
class BarrierSwitchingStress : public BarrierSwitchingTest,
                               public ::testing::WithParamInterface<StressParam> {};

TEST_P(BarrierSwitchingStress, EveryTaskIsTakenExactlyOnce) {
  const auto& [spec, thieves] = GetParam();
  const StealPolicy policy = StealPolicy::parse(spec);
  wd::set_barrier_switching({.fence_within_ns = kHour, .unfence_after_ns = 0, .recheck_pops = 2});
  const std::int64_t per_round = scaled(300000, 10000);
  std::uint64_t switches = 0;
  for (int round = 0; round < 2; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    wd::TaskStack stack;
    stack.init(round == 0 ? 64 : 32, weft::StealMechanism::kConcurrent, true);
    run_stress(stack, policy, spec == "one" ? 1 : 0, thieves, per_round,
               weft_test::mix64(static_cast<std::uint64_t>(round * 100 + thieves + 7)));
    switches += stack.barrier_switches();
    if (HasFailure()) return;
  }
  std::printf("%llu barrier switches\n", static_cast<unsigned long long>(switches));
  EXPECT_GE(switches, 10u) << "the stack hardly switched: the test exercised little";
}

INSTANTIATE_TEST_SUITE_P(PoliciesAndThieves, BarrierSwitchingStress,
                         ::testing::Combine(::testing::Values("one", "half"),
                                            ::testing::Values(1, 2, 4)),
                         weft_test::PolicyCountName{});

TEST_F(TaskStackTest, ReportsBarrierMode) {
  const auto mode = weft::detail::barrier_mode();
  const bool fence = wd::g_pop_needs_fence.load();
  EXPECT_EQ(fence, mode == weft::detail::BarrierMode::kFence);
  if (weft_test::kThreadSanitizer) {
    EXPECT_TRUE(fence) << "TSan does not model membarrier";
  }
  if (weft::Config::from_env().barrier == weft::Barrier::kFence) {
    EXPECT_TRUE(fence) << "WEFT_BARRIER=fence";
  }
  RecordProperty("barrier_mode", weft::detail::barrier_mode_name(mode));
  std::printf("barrier mode: %s\n", weft::detail::barrier_mode_name(mode));
}

}  // namespace
