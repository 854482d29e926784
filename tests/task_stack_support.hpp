// The task stack's whitebox test kit, shared by the concurrent mechanism's tests
// (task_stack_test.cpp) and the request mechanism's (steal_request_test.cpp): a checker
// that every task ran exactly once, the task every test pushes, and the owner's side of the
// protocol as spawn and Future::join use it.
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <new>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/worker.hpp"
#include "tasks/steal_side.hpp"
#include "weft/config.hpp"
#include "weft/detail/slot.hpp"
#include "weft/detail/task_stack.hpp"

namespace weft_test {
using weft::detail::StealSide;

namespace wd = weft::detail;

// Counts how often each task id ran and reports the ids that ran more than once or never.
class ExactlyOnceChecker {
 public:
  explicit ExactlyOnceChecker(std::size_t ids)
      : ids_(ids), counts_(std::make_unique<std::atomic<std::uint32_t>[]>(ids)) {}

  void record(std::int64_t id) {
    if (id < 0 || static_cast<std::size_t>(id) >= ids_) {
      bad_ids_.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    counts_[static_cast<std::size_t>(id)].fetch_add(1, std::memory_order_relaxed);
  }
  // A task ran from a slot that no longer held its closure.
  void note_clobbered_run() { clobbered_runs_.fetch_add(1, std::memory_order_relaxed); }

  struct Report {
    std::vector<std::int64_t> never_ran;
    std::vector<std::int64_t> ran_more_than_once;
    std::int64_t clobbered_runs = 0;
    std::int64_t bad_ids = 0;
    bool ok() const {
      return never_ran.empty() && ran_more_than_once.empty() && clobbered_runs == 0 && bad_ids == 0;
    }
    std::string describe() const {
      std::ostringstream out;
      out << never_ran.size() << " task(s) never ran, " << ran_more_than_once.size()
          << " ran more than once, " << clobbered_runs << " ran from a clobbered slot, " << bad_ids
          << " had an impossible id";
      if (!never_ran.empty()) out << "; first lost id " << never_ran.front();
      if (!ran_more_than_once.empty())
        out << "; first duplicated id " << ran_more_than_once.front();
      return out.str();
    }
  };

  // Checks ids [0, pushed).
  Report check(std::int64_t pushed) const {
    Report r;
    r.clobbered_runs = clobbered_runs_.load(std::memory_order_relaxed);
    r.bad_ids = bad_ids_.load(std::memory_order_relaxed);
    for (std::int64_t id = 0; id < pushed; ++id) {
      const std::uint32_t c = counts_[static_cast<std::size_t>(id)].load(std::memory_order_relaxed);
      if (c == 0) r.never_ran.push_back(id);
      if (c > 1) r.ran_more_than_once.push_back(id);
    }
    return r;
  }

  std::size_t size() const { return ids_; }

 private:
  std::size_t ids_;
  std::unique_ptr<std::atomic<std::uint32_t>[]> counts_;
  std::atomic<std::int64_t> clobbered_runs_{0};
  std::atomic<std::int64_t> bad_ids_{0};
};

struct TaskError {
  std::int64_t id;
};

// The closure every test pushes: records that it ran, then returns a value derived from its
// id, or throws (every 13th task), so both outcomes travel through stolen slots. A thief's
// run replaces the first 8 bytes of the slot with the result or exception, which clobbers
// `magic`: a second run of the same slot (a protocol bug) is then counted, not a crash.
struct CountedTask {
  static constexpr std::uint64_t kMagic = 0x7461736b5f6f6b21ULL;
  std::uint64_t magic;
  ExactlyOnceChecker* checker;
  std::int64_t id;

  CountedTask(ExactlyOnceChecker* c, std::int64_t i) : magic(kMagic), checker(c), id(i) {}

  static bool throws(std::int64_t id) { return id % 13 == 5; }
  static std::int64_t value_for(std::int64_t id) { return id * 7 + 3; }

  std::int64_t operator()() const {
    checker->record(id);
    if (magic != kMagic) {
      checker->note_clobbered_run();
      return -1;
    }
    if (throws(id)) throw TaskError{id};
    return value_for(id);
  }
};
static_assert(wd::kFitsInSlot<CountedTask>);

// The owner's side of the protocol, as spawn and Future::join use it.
class Owner {
 public:
  // `serve_policy` set: the stack uses the request mechanism, and this owner answers
  // pending requests with that policy where spawn and join would (its push and pop).
  Owner(wd::TaskStack& stack, ExactlyOnceChecker& checker,
        const weft::StealPolicy* serve_policy = nullptr)
      : stack_(stack), checker_(checker), serve_policy_(serve_policy) {}

  bool has_room() const { return !stack_.full(stack_.top()); }
  bool can_push() const {
    return has_room() && next_id_ < static_cast<std::int64_t>(checker_.size());
  }
  std::size_t depth() const { return pending_.size(); }
  std::int64_t pushed() const { return next_id_; }
  std::int64_t ran_inline() const { return inline_; }
  std::int64_t collected_stolen() const { return stolen_; }
  std::int64_t bad_outcomes() const { return bad_outcomes_; }
  const std::string& first_bad_outcome() const { return first_bad_; }

  // Requests answered by this owner (request mechanism).
  std::int64_t served() const { return served_; }

  void push() {
    if (serve_policy_ != nullptr && stack_.diverts(stack_.top())) serve();
    wd::Slot* s = stack_.top();
    const std::int64_t id = next_id_++;
    ::new (static_cast<void*>(s->storage)) CountedTask(&checker_, id);
    s->exec = &wd::exec_closure<CountedTask, std::int64_t>;
    stack_.publish(s);
    pending_.push_back({s, id});
  }

  // Pops the newest task: runs it inline if it was not stolen, else waits for the thief's
  // outcome and frees the slot. Checks the value or exception against the task's id.
  void pop() {
    const auto [s, id] = pending_.back();
    pending_.pop_back();
    // As Future::join: the LIFO check, the inline pop (which tests no barrier mode), and the
    // settling when its check fails.
    if (stack_.top_if(reinterpret_cast<std::uintptr_t>(s)) != s) note_bad(id, "not the top");
    if (stack_.pop_top(s) || settle(s)) {
      ++inline_;
      CountedTask* task = s->as<CountedTask>();
      try {
        expect_value(id, (*task)());
      } catch (const TaskError& e) {
        expect_exception(id, e.id);
      }
      task->~CountedTask();
      return;
    }
    ++stolen_;
    const std::int32_t thief = s->thief.load(std::memory_order_relaxed);
    if (thief < 0) note_bad(id, "stolen slot carries no thief id");
    std::uint32_t state = 0;
    for (unsigned spins = 0; (state = s->state.load(std::memory_order_acquire)) ==
                             static_cast<std::uint32_t>(wd::Outcome::kPending);
         ++spins) {
      if (spins > 64) std::this_thread::yield();
    }
    if (state == static_cast<std::uint32_t>(wd::Outcome::kValue)) {
      expect_value(id, wd::take_value<std::int64_t>(s));
    } else if (state == static_cast<std::uint32_t>(wd::Outcome::kException)) {
      try {
        std::rethrow_exception(wd::take_exception(s));
      } catch (const TaskError& e) {
        expect_exception(id, e.id);
      } catch (...) {
        note_bad(id, "unexpected exception type");
      }
    } else {
      note_bad(id, "bad state word " + std::to_string(state));
    }
    stack_.release_stolen(s);
  }

  void pop_all() {
    while (!pending_.empty()) pop();
  }

 private:
  void serve() {
    if (StealSide(stack_).serve_request(*serve_policy_)) ++served_;
  }
  // As weft's settle_pop: under the port (concurrent), or answer first, then decide.
  bool settle(wd::Slot* s) {
    if (serve_policy_ == nullptr) return StealSide(stack_).pop_contended(s);
    serve();
    return StealSide(stack_).pop_owned(s);
  }
  void expect_value(std::int64_t id, std::int64_t v) {
    if (CountedTask::throws(id) || v != CountedTask::value_for(id)) {
      note_bad(id, "returned " + std::to_string(v));
    }
  }
  void expect_exception(std::int64_t id, std::int64_t thrown_by) {
    if (!CountedTask::throws(id) || thrown_by != id) {
      note_bad(id, "threw the exception of task " + std::to_string(thrown_by));
    }
  }
  void note_bad(std::int64_t id, const std::string& what) {
    if (bad_outcomes_++ == 0) first_bad_ = "task " + std::to_string(id) + ": " + what;
  }

  struct Pending {
    wd::Slot* slot;
    std::int64_t id;
  };
  wd::TaskStack& stack_;
  ExactlyOnceChecker& checker_;
  const weft::StealPolicy* serve_policy_;
  std::int64_t served_ = 0;
  std::vector<Pending> pending_;
  std::int64_t next_id_ = 0;
  std::int64_t inline_ = 0;
  std::int64_t stolen_ = 0;
  std::int64_t bad_outcomes_ = 0;
  std::string first_bad_;
};

// Pushes n tasks with ids [0, n) (the owner's next ids).
inline void push_n(Owner& owner, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) owner.push();
}

// A thief's part for a claim run on the calling thread: newest first, as a worker does.
inline void run_claim(const wd::Claim& claim) {
  for (std::int64_t i = claim.count - 1; i >= 0; --i) wd::run_stolen(claim.first + i, nullptr);
}

// For after owner.pop_all(): each of the `pushed` tasks ran exactly once with its value or
// exception delivered, `stolen` of them by thieves and the rest inline by the owner.
inline ::testing::AssertionResult all_ran_once(const Owner& owner,
                                               const ExactlyOnceChecker& checker,
                                               std::int64_t pushed, std::int64_t stolen) {
  auto failure = ::testing::AssertionFailure();
  bool ok = true;
  if (owner.collected_stolen() != stolen) {
    ok = false;
    failure << "collected " << owner.collected_stolen() << " stolen, expected " << stolen << "; ";
  }
  if (owner.ran_inline() != pushed - stolen) {
    ok = false;
    failure << "ran " << owner.ran_inline() << " inline, expected " << pushed - stolen << "; ";
  }
  if (owner.bad_outcomes() != 0) {
    ok = false;
    failure << owner.bad_outcomes() << " bad outcomes, first: " << owner.first_bad_outcome()
            << "; ";
  }
  const ExactlyOnceChecker::Report report = checker.check(pushed);
  if (!report.ok()) {
    ok = false;
    failure << report.describe();
  }
  return ok ? ::testing::AssertionSuccess() : failure;
}

// Drives `owner` on `stack` through `steps` random pushes, pops and steals (a third each)
// against a model of which occupied slots a thief took. `steal(n)` performs one steal of
// whichever mechanism, with n the model's count of available tasks, and returns its claim
// (empty for none). Every pop, and every claim's size and first slot, must agree with the
// model and `policy`; a claim is then run. Returns the number of successful steals; stops at
// the first fatal failure.
template <class Steal>
std::int64_t drive_against_model(wd::TaskStack& stack, Owner& owner,
                                 const weft::StealPolicy& policy, std::int64_t steps,
                                 std::uint64_t seed, Steal steal) {
  std::mt19937_64 rng(seed);
  std::vector<bool> taken;  // taken[i]: the i-th occupied slot from the bottom went to a thief
  std::int64_t steals = 0;
  for (std::int64_t step = 0; step < steps; ++step) {
    SCOPED_TRACE("step " + std::to_string(step));
    const unsigned op = static_cast<unsigned>(rng() % 3);
    if (op == 0 && owner.can_push()) {
      owner.push();
      taken.push_back(false);
    } else if (op == 1 && !taken.empty()) {
      const bool was_taken = taken.back();
      const std::int64_t stolen_before = owner.collected_stolen();
      owner.pop();
      taken.pop_back();
      EXPECT_EQ(owner.collected_stolen() - stolen_before, was_taken ? 1 : 0)
          << "pop disagreed with the model";
    } else {
      std::int64_t first_free = 0;
      while (first_free < static_cast<std::int64_t>(taken.size()) && taken[first_free]) {
        ++first_free;
      }
      const std::int64_t n = static_cast<std::int64_t>(taken.size()) - first_free;
      const wd::Claim claim = steal(n);
      const std::int64_t want = policy.amount(weft::StealView{n});
      EXPECT_EQ(claim.count, want) << "n = " << n;
      if (claim && claim.count == want) {
        EXPECT_EQ(claim.first, stack.slot_at(first_free)) << "a claim starts at the oldest";
        for (std::int64_t i = 0; i < want; ++i) taken[first_free + i] = true;
        run_claim(claim);
        ++steals;
      }
    }
    if (::testing::Test::HasFailure()) break;
  }
  owner.pop_all();
  return steals;
}

}  // namespace weft_test
