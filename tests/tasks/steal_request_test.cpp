// Whitebox tests of the request mechanism's protocol (src/tasks/steal_side_requests.cpp, RQ1-RQ5)
// on a bare TaskStack, without a Runtime: the test thread is the owner, answering requests
// where spawn and join would; std::threads are the thieves, posting, waiting and
// withdrawing. The central properties: every pushed task runs exactly once, each request is
// answered at most once and never after it was withdrawn, and a pending request is never
// lost (the owner's next push or pop sees it).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <random>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "core/worker.hpp"
#include "task_stack_support.hpp"
#include "test_support.hpp"
#include "weft/config.hpp"
#include "weft/detail/task_stack.hpp"

namespace {
using weft::detail::StealSide;

namespace wd = weft::detail;
using weft::StealPolicy;
using weft::StealView;
using weft_test::all_ran_once;
using weft_test::ExactlyOnceChecker;
using weft_test::Owner;
using weft_test::push_n;
using weft_test::run_claim;
using weft_test::scaled;

// A stack under the request mechanism.
struct RequestStack {
  explicit RequestStack(wd::Index slots) { stack.init(slots, weft::StealMechanism::kRequest); }
  wd::TaskStack stack;
};

// ---- One thread: the protocol's steps in order ----

TEST(StealRequest, HalfHandsOverTheOldestCeilHalf) {
  for (std::int64_t n = 1; n <= 50; ++n) {
    SCOPED_TRACE("n = " + std::to_string(n));
    RequestStack rs(64);
    ExactlyOnceChecker checker(64);
    const StealPolicy half = StealPolicy::half();
    Owner owner(rs.stack, checker, &half);
    push_n(owner, n);
    wd::StealRequest req;
    req.thief_id = 5;
    ASSERT_TRUE(StealSide(rs.stack).post_request(&req));
    ASSERT_TRUE(StealSide(rs.stack).serve_request(half));
    ASSERT_EQ(req.state.load(), wd::StealRequest::kGranted);
    EXPECT_EQ(req.claim.count, (n + 1) / 2);
    EXPECT_EQ(req.claim.first, rs.stack.slot_at(0)) << "the oldest tasks go first";
    for (std::int64_t i = 0; i < req.claim.count; ++i) {
      EXPECT_EQ(req.claim.first[i].thief.load(), 5);
    }
    StealSide(rs.stack).end_request();
    EXPECT_EQ(rs.stack.owner_available(), n - (n + 1) / 2);
    run_claim(req.claim);
    owner.pop_all();
    EXPECT_TRUE(all_ran_once(owner, checker, n, (n + 1) / 2));
    EXPECT_EQ(rs.stack.size(), 0);
  }
}

TEST(StealRequest, EveryPolicyGivesItsAmountOrRefuses) {
  const std::vector<std::string> specs = {"one", "fixed:2", "fixed:20", "half", "adaptive"};
  for (const std::string& spec : specs) {
    const StealPolicy policy = StealPolicy::parse(spec);
    for (std::int64_t n = 0; n <= 30; ++n) {
      SCOPED_TRACE(spec + ", n = " + std::to_string(n));
      RequestStack rs(64);
      ExactlyOnceChecker checker(64);
      Owner owner(rs.stack, checker, &policy);
      push_n(owner, n);
      wd::StealRequest req;
      req.thief_id = 1;
      ASSERT_TRUE(StealSide(rs.stack).post_request(&req));
      ASSERT_TRUE(StealSide(rs.stack).serve_request(policy));
      const std::int64_t want = policy.amount(StealView{n});
      if (want == 0) {
        EXPECT_EQ(req.state.load(), wd::StealRequest::kRefused);
      } else {
        ASSERT_EQ(req.state.load(), wd::StealRequest::kGranted);
        EXPECT_EQ(req.claim.count, want);
        run_claim(req.claim);
      }
      StealSide(rs.stack).end_request();
      owner.pop_all();
      EXPECT_TRUE(all_ran_once(owner, checker, n, want));  // want == 0: refused
    }
  }
}

// The thief's part of the view reaches the policy the owner applies: adaptive takes one
// task for a thief whose steals bring plenty of work, half for one whose steals do not.
TEST(StealRequest, TheThiefsHistoryTravelsWithTheRequest) {
  const StealPolicy adaptive = StealPolicy::adaptive();
  for (const double history : {0.0, 1.0, 1e6}) {
    RequestStack rs(64);
    ExactlyOnceChecker checker(64);
    Owner owner(rs.stack, checker, &adaptive);
    push_n(owner, 10);
    wd::StealRequest req;
    req.task_work_per_steal_cost = history;
    ASSERT_TRUE(StealSide(rs.stack).post_request(&req));
    ASSERT_TRUE(StealSide(rs.stack).serve_request(adaptive));
    ASSERT_EQ(req.state.load(), wd::StealRequest::kGranted);
    EXPECT_EQ(req.claim.count, adaptive.amount(StealView{10, history})) << history;
    run_claim(req.claim);
    StealSide(rs.stack).end_request();
    owner.pop_all();
    EXPECT_TRUE(checker.check(10).ok());
  }
}

TEST(StealRequest, APostedRequestFailsBothOfTheOwnersChecksUntilServed) {
  RequestStack rs(16);
  ExactlyOnceChecker checker(16);
  Owner owner(rs.stack, checker);  // serves only when told to, below
  push_n(owner, 3);
  EXPECT_FALSE(rs.stack.diverts(rs.stack.top()));
  EXPECT_FALSE(rs.stack.request_flagged());
  wd::StealRequest req;
  ASSERT_TRUE(StealSide(rs.stack).post_request(&req));
  EXPECT_TRUE(rs.stack.diverts(rs.stack.top())) << "the spawn's check must fail";
  EXPECT_TRUE(rs.stack.request_flagged()) << "weft::poll()'s check must fail";
  wd::Slot* top = rs.stack.slot_at(2);
  EXPECT_FALSE(rs.stack.pop_top(top)) << "the join's check must fail";
  // The join's slow path: answer (T is below the joined task now, so it is not handed
  // out), then decide.
  ASSERT_TRUE(StealSide(rs.stack).serve_request(StealPolicy::one()));
  EXPECT_EQ(req.state.load(), wd::StealRequest::kGranted);
  EXPECT_EQ(req.claim.first, rs.stack.slot_at(0));
  EXPECT_TRUE(StealSide(rs.stack).pop_owned(top)) << "the joined task stays the owner's";
  StealSide(rs.stack).end_request();
  EXPECT_FALSE(rs.stack.diverts(rs.stack.top()));
  EXPECT_FALSE(rs.stack.request_flagged());
  // Finish by hand: run the popped task inline, collect the handed-out one.
  (void)(*top->as<weft_test::CountedTask>())();
  top->as<weft_test::CountedTask>()->~CountedTask();
  run_claim(req.claim);
  wd::Slot* middle = rs.stack.slot_at(1);
  ASSERT_TRUE(rs.stack.pop(middle));
  (void)(*middle->as<weft_test::CountedTask>())();
  middle->as<weft_test::CountedTask>()->~CountedTask();
  wd::Slot* bottom = rs.stack.slot_at(0);
  EXPECT_FALSE(rs.stack.pop(bottom));
  EXPECT_FALSE(StealSide(rs.stack).pop_owned(bottom)) << "the handed-out task is the thief's";
  (void)wd::take_value<std::int64_t>(bottom);
  rs.stack.release_stolen(bottom);
  EXPECT_EQ(rs.stack.size(), 0);
  EXPECT_TRUE(checker.check(3).ok()) << checker.check(3).describe();
}

TEST(StealRequest, AWithdrawnRequestIsNeverAnswered) {
  RequestStack rs(16);
  ExactlyOnceChecker checker(16);
  const StealPolicy one = StealPolicy::one();
  Owner owner(rs.stack, checker, &one);
  push_n(owner, 4);
  wd::StealRequest req;
  ASSERT_TRUE(StealSide(rs.stack).post_request(&req));
  ASSERT_TRUE(StealSide(rs.stack).withdraw_request(&req));
  StealSide(rs.stack).end_request();
  // The flags are still up; the owner's next look finds no request and clears them.
  EXPECT_TRUE(rs.stack.request_flagged());
  EXPECT_FALSE(StealSide(rs.stack).serve_request(one));
  EXPECT_FALSE(rs.stack.request_flagged());
  EXPECT_EQ(req.state.load(), wd::StealRequest::kWaiting) << "answered after withdrawal";
  owner.pop_all();
  EXPECT_TRUE(all_ran_once(owner, checker, 4, 0));
}

TEST(StealRequest, ARequestTheOwnerTookUpCannotBeWithdrawn) {
  RequestStack rs(16);
  ExactlyOnceChecker checker(16);
  const StealPolicy one = StealPolicy::one();
  Owner owner(rs.stack, checker, &one);
  push_n(owner, 2);
  wd::StealRequest req;
  req.thief_id = 1;  // the granted slot must carry it (the owner checks)
  ASSERT_TRUE(StealSide(rs.stack).post_request(&req));
  ASSERT_TRUE(StealSide(rs.stack).serve_request(one));
  EXPECT_FALSE(StealSide(rs.stack).withdraw_request(&req));
  EXPECT_EQ(req.state.load(), wd::StealRequest::kGranted);
  StealSide(rs.stack).end_request();
  run_claim(req.claim);
  owner.pop_all();
  EXPECT_TRUE(all_ran_once(owner, checker, 2, 1));
}

TEST(StealRequest, OneRequestAtATimePerVictim) {
  RequestStack rs(16);
  wd::StealRequest a;
  wd::StealRequest b;
  ASSERT_TRUE(StealSide(rs.stack).post_request(&a));
  EXPECT_FALSE(StealSide(rs.stack).post_request(&b)) << "RQ1: the port is held until a is settled";
  ASSERT_TRUE(StealSide(rs.stack).serve_request(StealPolicy::one()));
  EXPECT_EQ(a.state.load(), wd::StealRequest::kRefused) << "an empty stack refuses";
  StealSide(rs.stack).end_request();
  EXPECT_TRUE(StealSide(rs.stack).post_request(&b));
  EXPECT_TRUE(StealSide(rs.stack).withdraw_request(&b));
  StealSide(rs.stack).end_request();
}

// The victim finishes its last task while a request is pending: the pop answers it (with a
// refusal: the joined task is no longer available), so the thief is not left waiting.
TEST(StealRequest, ARequestPendingWhenTheOwnerPopsItsLastTaskIsRefused) {
  RequestStack rs(16);
  ExactlyOnceChecker checker(16);
  const StealPolicy half = StealPolicy::half();
  Owner owner(rs.stack, checker, &half);
  push_n(owner, 1);
  wd::StealRequest req;
  ASSERT_TRUE(StealSide(rs.stack).post_request(&req));
  owner.pop_all();
  EXPECT_EQ(owner.served(), 1);
  EXPECT_EQ(req.state.load(), wd::StealRequest::kRefused);
  StealSide(rs.stack).end_request();
  EXPECT_TRUE(all_ran_once(owner, checker, 1, 0));
}

// A random sequence of pushes, pops and answered requests against a model of which slots
// were handed out: every answer and every pop must agree with the model.
TEST(StealRequest, RandomOperationsAgreeWithAModel) {
  for (const std::string spec : {"one", "fixed:2", "half", "adaptive"}) {
    SCOPED_TRACE(spec);
    const StealPolicy policy = StealPolicy::parse(spec);
    const std::int64_t steps = scaled(20000, 2000);
    RequestStack rs(24);
    ExactlyOnceChecker checker(static_cast<std::size_t>(steps));
    Owner owner(rs.stack, checker, &policy);
    const std::int64_t grants =
        weft_test::drive_against_model(rs.stack, owner, policy, steps, 99, [&](std::int64_t n) {
          EXPECT_EQ(rs.stack.owner_available(), n);
          wd::StealRequest req;
          req.thief_id = 7;
          EXPECT_TRUE(StealSide(rs.stack).post_request(&req));
          EXPECT_TRUE(StealSide(rs.stack).serve_request(policy));
          StealSide(rs.stack).end_request();
          const bool granted = req.state.load() == wd::StealRequest::kGranted;
          EXPECT_EQ(req.state.load(), policy.amount(StealView{n}) > 0 ? wd::StealRequest::kGranted
                                                                      : wd::StealRequest::kRefused);
          return granted ? req.claim : wd::Claim{};
        });
    EXPECT_GT(grants, steps / 50);
    EXPECT_EQ(owner.bad_outcomes(), 0) << owner.first_bad_outcome();
    EXPECT_TRUE(checker.check(owner.pushed()).ok()) << checker.check(owner.pushed()).describe();
    EXPECT_EQ(rs.stack.size(), 0);
  }
}

// ---- Thieves on their own threads ----

struct ThiefTotals {
  std::atomic<std::int64_t> tasks{0};
  std::atomic<std::int64_t> grants{0};
  std::atomic<std::int64_t> refusals{0};
  std::atomic<std::int64_t> withdrawals{0};
  std::atomic<std::int64_t> bad{0};
};

// A thief as Worker::request_from is one: post, wait (at most `patience` spins), withdraw;
// runs what it was given. Checks that a withdrawn request is never answered afterwards
// (looked at again when the next request is posted), and that a claim carries its id.
void request_thief(wd::TaskStack& stack, std::int32_t id, unsigned patience,
                   const std::atomic<bool>& stop, ThiefTotals& totals) {
  wd::StealRequest req;
  req.thief_id = id;
  bool withdrawn_before = false;
  std::mt19937 rng(static_cast<unsigned>(id));
  while (!stop.load(std::memory_order_acquire)) {
    if (withdrawn_before &&
        req.state.load(std::memory_order_acquire) != wd::StealRequest::kWaiting) {
      totals.bad.fetch_add(1);  // answered after its withdrawal (RQ3)
    }
    if (!StealSide(stack).post_request(&req)) {
      std::this_thread::yield();
      continue;
    }
    withdrawn_before = false;
    const unsigned wait = patience == 0 ? 0 : static_cast<unsigned>(rng() % patience);
    std::uint32_t state = wd::StealRequest::kWaiting;
    for (unsigned spins = 0;
         (state = req.state.load(std::memory_order_acquire)) == wd::StealRequest::kWaiting;
         ++spins) {
      if (spins >= wait && StealSide(stack).withdraw_request(&req)) break;
      if (spins % 64 == 63) std::this_thread::yield();
    }
    StealSide(stack).end_request();
    if (state == wd::StealRequest::kWaiting) {
      totals.withdrawals.fetch_add(1);
      withdrawn_before = true;
      continue;
    }
    if (state == wd::StealRequest::kRefused) {
      totals.refusals.fetch_add(1);
      continue;
    }
    for (std::int64_t i = 0; i < req.claim.count; ++i) {
      if (req.claim.first[i].thief.load(std::memory_order_relaxed) != id) totals.bad.fetch_add(1);
    }
    run_claim(req.claim);
    totals.tasks.fetch_add(req.claim.count);
    totals.grants.fetch_add(1);
  }
}

using StressParam = std::tuple<std::string, unsigned>;  // policy, thieves

class RequestStress : public ::testing::TestWithParam<StressParam> {};

// The owner pushes and pops at random (answering requests where spawn and join do) while
// thieves request, some withdrawing early: every task runs exactly once, every outcome
// reaches its join, and no answer comes after a withdrawal. More thieves than cores.
TEST_P(RequestStress, EveryTaskRunsExactlyOnce) {
  const auto& [spec, thieves] = GetParam();
  const StealPolicy policy = StealPolicy::parse(spec);
  const std::int64_t tasks = scaled(200000, 20000);
  RequestStack rs(32);
  ExactlyOnceChecker checker(static_cast<std::size_t>(tasks));
  Owner owner(rs.stack, checker, &policy);
  std::atomic<bool> stop{false};
  ThiefTotals totals;
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < thieves; ++t) {
    // Every other thief is impatient (it withdraws after a few spins); the first waits
    // long, so that a lone thief is granted requests even when a slow build (ASan) makes
    // the owner answer late, and the test never ends having proved nothing.
    const unsigned patience = t % 2 == 1 ? 8 : 1u << 16;
    threads.emplace_back(request_thief, std::ref(rs.stack), static_cast<std::int32_t>(t + 1),
                         patience, std::cref(stop), std::ref(totals));
  }
  std::mt19937_64 rng(4242);
  while (owner.pushed() < tasks || owner.depth() > 0) {
    const bool push = owner.can_push() && (owner.depth() == 0 || rng() % 3 != 0);
    if (push) {
      owner.push();
    } else if (owner.depth() > 0) {
      owner.pop();
    } else {
      break;  // nothing left to push or pop
    }
  }
  stop.store(true, std::memory_order_release);
  // Thieves still waiting on a request need an answer or their own timeout to finish.
  for (int i = 0; i < 1000 && rs.stack.request_flagged(); ++i) {
    (void)StealSide(rs.stack).serve_request(policy);
    std::this_thread::yield();
  }
  for (auto& t : threads) t.join();
  (void)StealSide(rs.stack).serve_request(policy);
  EXPECT_EQ(totals.bad.load(), 0);
  EXPECT_TRUE(all_ran_once(owner, checker, owner.pushed(), totals.tasks.load()));
  EXPECT_GT(totals.grants.load(), 0) << "no request was ever granted: the test proved nothing";
  EXPECT_EQ(rs.stack.size(), 0);
}

INSTANTIATE_TEST_SUITE_P(PoliciesAndThieves, RequestStress,
                         ::testing::Combine(::testing::Values("one", "fixed:2", "half", "adaptive"),
                                            ::testing::Values(1u, 3u)),
                         weft_test::PolicyCountName{});

// RQ4 under contention: a thief posts and (sometimes) withdraws in a tight loop while the
// owner only answers when its flags say so. If a pending request could lose its flags, the
// thief waiting for an answer would never get one and the watchdog would fire.
TEST(StealRequestRace, APendingRequestAlwaysRaisesTheOwnersFlags) {
  weft_test::with_watchdog(std::chrono::seconds(120), "request flag race", [] {
    RequestStack rs(8);
    const StealPolicy one = StealPolicy::one();
    std::atomic<bool> stop{false};
    ThiefTotals totals;
    std::thread thief(request_thief, std::ref(rs.stack), 1, 4u, std::cref(stop), std::ref(totals));
    std::thread patient(request_thief, std::ref(rs.stack), 2, 1u << 30, std::cref(stop),
                        std::ref(totals));
    const std::int64_t rounds = scaled(50000, 10000);
    std::int64_t answered = 0;
    while (answered < rounds) {
      if (rs.stack.request_flagged() && StealSide(rs.stack).serve_request(one)) ++answered;
    }
    stop.store(true, std::memory_order_release);
    // A thief may be waiting right now: keep answering until both have finished.
    std::atomic<bool> joined{false};
    std::thread closer([&] {
      thief.join();
      patient.join();
      joined.store(true);
    });
    while (!joined.load()) {
      (void)StealSide(rs.stack).serve_request(one);
      std::this_thread::yield();
    }
    closer.join();
    EXPECT_EQ(totals.bad.load(), 0);
    EXPECT_EQ(totals.grants.load(), 0) << "an empty stack granted tasks";
    EXPECT_GE(totals.refusals.load(), rounds);
  });
}

}  // namespace
