#include "tools/sim/engine/engine.hpp"

#include <algorithm>
#include <deque>
#include <optional>
#include <queue>
#include <tuple>
#include <utility>
#include <vector>

#include "model/barrier_switching.hpp"
#include "model/steal_amount.hpp"
#include "model/steal_history.hpp"
#include "tools/sim/engine/idle_tiers.hpp"

namespace sim {
namespace {

constexpr std::uint32_t kNone = ~std::uint32_t{0};
constexpr std::uint64_t kPortHeld = ~std::uint64_t{0};  // port_free_at while a claim runs
constexpr std::uint64_t kNoClaim = ~std::uint64_t{0};   // membarrier_claim_at before any

struct Task {
  std::unique_ptr<Strand> strand;
  std::int32_t thief = -1;         // the worker that claimed it, or -1
  std::int32_t proxy_holder = -1;  // a claimed task waiting on its thief's stack: that thief
  bool done = false;
  // The dag's longest path to this task's current op, whatever the schedule: plain, and
  // burdened (every continuation after a spawn carries a claim's cost, as Cilkview's does).
  std::uint64_t span = 0;
  std::uint64_t burdened = 0;
};

enum class Activity : std::uint8_t { kBusy, kFrame, kSteal, kIdle, kSwitch };

// A task being run by a worker: its activation. Activations nest (an inline join, a steal
// made while waiting). Not "frame", which in weft means a spawn's frame-management cost.
struct Activation {
  std::uint32_t task;
  std::size_t child_base;         // this activation's children start here in Worker::children
  std::uint32_t waiting = kNone;  // the stolen child its join waits for
  std::uint64_t stolen_at = 0;    // a claimed task: when the claim started (for adaptive)
  std::int64_t claimed = 0;       // and how many tasks the claim took; 0 otherwise
  std::uint64_t claim_cost = 0;
  bool poll_next = false;  // while waiting: a help failed, the next step polls
  std::optional<Op> held;  // a spawn or join fetched when a request had to be answered first
};

// What a steal attempt came to: nothing, or an outcome that comes later (a claim settles
// after its barrier; a posted request waits for the victim's answer or its deadline).
enum class Attempt : std::uint8_t { kFailed, kPending };

// Concurrent mechanism: a thief's claim under way, in weft's StealSide::steal order. The look
// (attempt_ps: the victim's head and tail, then its port) ends at the mark, where the thief
// re-reads n, decides k and stores H = h + k; its barrier (claim_ps, plus proxy_ps a task
// beyond the first) ends at the settling, where it re-reads T. If the owner popped into the
// claimed slots meanwhile (it saw H past its top and waits on the port), T fell below h + k:
// the thief backs off and claims again from the new n, up to kClaimRetries times.
//
// Barrier switching (weft's BS1-BS3, Config::barrier = auto): the thief reads the victim's mode
// when it takes the port, and its barriers (retries included) are that mode's, as in weft. If
// the stack is unfenced and its last membarrier claim ended within kFenceWithinCosts
// membarriers (claim_ps) of this port take, the mark switches it to fenced, still paying this
// claim's membarrier. The owner switches it back at a fenced pop, every recheck_pops of them,
// when no thief has taken its port for kUnfenceAfterCosts membarriers and the port is free.
struct ClaimUnderWay {
  std::int32_t victim = -1;  // -1: none
  bool marked = false;       // past the look: H is stored and the barrier runs
  bool fenced = false;       // the victim's mode at the port take: this claim's barrier
  bool switch_now = false;   // the mark switches the victim to fenced
  int retries = 0;
  std::uint64_t started = 0;
};
constexpr int kClaimRetries = 2;  // weft's (src/tasks/task_stack.cpp)

struct Worker {
  explicit Worker(unsigned workers) : tiers(workers) {}
  // Moved, never copied (a held op owns its strand); std::vector must not try to copy.
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;
  Worker(Worker&&) = default;
  Worker& operator=(Worker&&) = default;
  std::uint64_t clock = 0;
  std::deque<std::uint32_t> stack;      // spawned and claimed tasks not started; back = newest
  std::vector<Activation> activations;  // back = running
  std::vector<std::uint32_t> children;  // each activation's unjoined children, nested
  std::uint64_t rng = 0;
  weft::detail::StealHistory history;
  SimCounters counters;
  std::uint64_t spent[5] = {0, 0, 0, 0, 0};  // by Activity
  Activity last = Activity::kSteal;          // the last action's kind, for the makespan's cut
  IdleTiers tiers;
  bool back_off_next = false;  // an idle attempt failed: the next step backs off
  bool parked = false;         // asleep until a thief wakes it (in Engine::sleepers_)
  std::uint32_t version = 0;   // of its newest entry in Engine::ready_; older ones are stale
  // Request mechanism: the thief waiting at this worker's port, or -1; as a thief, the
  // victim it waits on (or -1), when it posted, and when it withdraws.
  std::int32_t requester = -1;
  std::int32_t asked = -1;
  // Concurrent mechanism: a thief holds this worker's steal port for the length of its claim;
  // another thief that finds it held fails at once (weft's StealPort::try_lock). While its
  // mark stands, the k oldest tasks of our stack are claimed; a pop of ours that reaches them
  // crosses the claim, and we wait on the port (blocked) until the thief has decided.
  std::uint64_t port_free_at = 0;
  std::int64_t claimed_k = 0;
  bool crossed = false;
  bool blocked = false;
  ClaimUnderWay claiming;  // as a thief
  // Concurrent mechanism, this worker's stack as a victim: its mode, when a thief last took
  // its port, when its last membarrier claim's barrier ended, and the owner's fenced pops
  // left before it next looks at the clock.
  bool fenced = false;
  std::uint64_t port_taken_at = 0;
  std::uint64_t membarrier_claim_at = kNoClaim;
  std::uint32_t fenced_pops_to_check = weft::detail::kRecheckPops;
  std::uint64_t posted_at = 0;
  std::uint64_t deadline = 0;
};

std::uint64_t splitmix(std::uint64_t& s) noexcept {
  std::uint64_t z = (s += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

class Engine {
 public:
  Engine(std::unique_ptr<Strand> root, const EngineConfig& config)
      : config_(config),
        costs_(config.costs),
        switching_(config.mechanism == weft::StealMechanism::kConcurrent &&
                   config.barrier == weft::Barrier::kAuto),
        all_fenced_(config.mechanism == weft::StealMechanism::kConcurrent &&
                    config.barrier == weft::Barrier::kFence),
        fence_within_ps_(weft::detail::kFenceWithinCosts * config.costs.claim_ps),
        unfence_after_ps_(weft::detail::kUnfenceAfterCosts * config.costs.claim_ps),
        occupancy_(config.workers) {
    workers_.reserve(config.workers);
    for (unsigned i = 0; i < config.workers; ++i) {
      workers_.emplace_back(config.workers);
      workers_[i].fenced = all_fenced_;
      std::uint64_t s = config.seed * 0x100000001B3ULL + i;  // the only randomness (SIM1)
      workers_[i].rng = splitmix(s);
    }
    root_ = new_task(std::move(root));
    start_activation(workers_[0], root_, 0);
    note_level(workers_[0], 0);
    // As weft's run() starts: worker 0 takes the root and a second is woken beside it; the
    // rest sleep, one of them the watchman, which begins with a nap.
    for (unsigned i = 0; i < config.workers; ++i) {
      if (i < 2) {
        schedule(i, 0);
      } else if (i == 2) {
        watchman_ = 2;
        workers_[i].back_off_next = true;
        schedule(i, 0);
      } else {
        workers_[i].parked = true;
        sleepers_.push_back(i);
      }
    }
  }

  SimResult run() {
    while (!tasks_[root_].done) {
      const auto [at, w, version] = ready_.top();
      ready_.pop();
      if (version != workers_[w].version) continue;  // rescheduled since (SIM2)
      // Never below the last: every entry was queued at or after its queuer's start (SIM2).
      now_ = at;
      step(w);
      note_level(workers_[w], w);
      // Every worker waiting and none able to take anything would be an engine bug; say so
      // rather than spin forever.
      if (++steps_without_op_ > kMaxStepsWithoutOp) {
        throw std::logic_error("weft-sim: no task has made progress in " +
                               std::to_string(kMaxStepsWithoutOp) + " steps (an engine bug)");
      }
      const Worker& after = workers_[w];
      // A thief waiting for an answer runs next at its deadline, unless answered first.
      if (after.asked >= 0) {
        schedule(w, after.deadline);
      } else if (!after.parked && !after.blocked) {
        schedule(w, after.clock);
      }
    }
    const std::uint64_t makespan = root_end_;
    // A worker whose clock stands before the makespan is idle to it (nothing is left to
    // take), and the part of an action past it is cut off: the shares then add up to
    // workers x makespan exactly (SIM5).
    SimResult result;
    result.makespan_ps = makespan;
    result.tasks = tasks_made_;
    result.span_ps = tasks_[root_].span;
    result.burdened_span_ps = tasks_[root_].burdened;
    result.occupancy = occupancy_.finish(makespan);
    // What one worker would take: the work, and a spawn and an inline join per task spawned
    // (a fenced one where every stack is fenced; a switching stack on its own never fences).
    result.work_ps = work_;
    const std::uint64_t join_ps = costs_.join_inline_ps + (all_fenced_ ? costs_.fenced_join_ps : 0);
    for (const Worker& w : workers_) {
      result.work_ps += w.counters.spawns * (costs_.spawn_ps + join_ps);
    }
    for (Worker& w : workers_) {
      if (w.clock < makespan) spend(w, Activity::kIdle, makespan - w.clock);
      w.spent[static_cast<int>(w.last)] -= w.clock - makespan;
      result.shares.busy_ps += w.spent[static_cast<int>(Activity::kBusy)];
      result.shares.frame_ps += w.spent[static_cast<int>(Activity::kFrame)];
      result.shares.steal_ps += w.spent[static_cast<int>(Activity::kSteal)];
      result.shares.idle_ps += w.spent[static_cast<int>(Activity::kIdle)];
      result.shares.switch_ps += w.spent[static_cast<int>(Activity::kSwitch)];
      add(result.counters, w.counters);
    }
    return result;
  }

 private:
  static void add(SimCounters& a, const SimCounters& b) {
    a.spawns += b.spawns;
    a.inline_joins += b.inline_joins;
    a.stolen_joins += b.stolen_joins;
    a.steal_attempts += b.steal_attempts;
    a.steals += b.steals;
    a.tasks_stolen += b.tasks_stolen;
    a.failed_steals += b.failed_steals;
    a.leapfrogs += b.leapfrogs;
    a.requests_served += b.requests_served;
    a.request_timeouts += b.request_timeouts;
    a.port_busy += b.port_busy;
    a.fenced_steals += b.fenced_steals;
    a.barrier_switches += b.barrier_switches;
    for (std::size_t i = 0; i < a.steal_sizes_seen.size(); ++i) {
      a.steal_sizes_seen[i] += b.steal_sizes_seen[i];
    }
  }

  std::uint32_t new_task(std::unique_ptr<Strand> strand) {
    ++tasks_made_;
    std::uint32_t id;
    if (!free_.empty()) {
      id = free_.back();
      free_.pop_back();
      tasks_[id] = Task{};
    } else {
      id = static_cast<std::uint32_t>(tasks_.size());
      tasks_.emplace_back();
    }
    tasks_[id].strand = std::move(strand);
    return id;
  }

  // Only once the task has ended and been joined (SIM3).
  void free_task(std::uint32_t id) {
    tasks_[id].strand.reset();
    free_.push_back(id);
  }

  // The one writer of a worker's clock and shares: both grow by `ps` (SIM2, SIM5).
  static void spend(Worker& w, Activity a, std::uint64_t ps) {
    w.clock += ps;
    w.spent[static_cast<int>(a)] += ps;
    w.last = a;
  }

  // s_i's view of a worker: 0 when it runs no task (idle, stealing, or waiting in a join),
  // else 1 + the tasks waiting on its stack.
  static std::uint64_t level(const Worker& w) {
    const bool running = !w.activations.empty() && w.activations.back().waiting == kNone;
    return running ? 1 + w.stack.size() : 0;
  }

  // Records the worker's level after its action. As weft's profile sees it, a worker runs a
  // task during busy, frame and switch time and not during steal and idle time; so a change
  // between running and not running holds from the end of an action of the other kind (a
  // claim, the poll that saw a join's task done; a join that found its task stolen) and
  // from its start otherwise.
  void note_level(const Worker& w, unsigned id) {
    const std::uint64_t l = level(w);
    const bool action_ran = w.last != Activity::kSteal && w.last != Activity::kIdle;
    occupancy_.set(id, l, (l > 0) == action_ran ? now_ : w.clock);
  }

  void start_activation(Worker& w, std::uint32_t task, std::int64_t claimed,
                        std::uint64_t claim_cost = 0, std::uint64_t stolen_at = 0) {
    w.activations.push_back(Activation{.task = task,
                                       .child_base = w.children.size(),
                                       .stolen_at = stolen_at,
                                       .claimed = claimed,
                                       .claim_cost = claim_cost,
                                       .poll_next = false,
                                       .held = std::nullopt});
    // A claimed task's activation is the steal's run, which end() records (the adaptive view).
    if (claimed > 0) w.history.begin(stolen_at + claim_cost, claimed, claim_cost);
  }

  // The worker's one live entry from now on (SIM2); every caller passes `at` >= now_.
  void schedule(unsigned id, std::uint64_t at) {
    Worker& w = workers_[id];
    ready_.emplace(at, id, ++w.version);
  }

  void step(unsigned id) {
    Worker& w = workers_[id];
    if (w.claiming.victim >= 0) {
      claim_step(w, id);
      return;
    }
    if (w.asked >= 0) {
      withdraw(w);  // its deadline came before an answer
      return;
    }
    if (w.activations.empty()) {
      if (w.requester >= 0) {
        answer(w, /*refuse=*/true);  // an idle victim refuses
      } else if (!w.stack.empty()) {
        run_claimed(w);  // the rest of a multi-task claim, newest first
      } else if (w.back_off_next) {
        back_off(w, id);
      } else {
        if (attempt_steal(w, id) == Attempt::kFailed) w.back_off_next = true;
      }
      return;
    }
    Activation& f = w.activations.back();
    if (f.waiting != kNone) {
      wait_step(w, id);
      return;
    }
    steps_without_op_ = 0;
    Op op = f.held ? std::move(*f.held) : tasks_[f.task].strand->next();
    f.held.reset();
    if (w.requester >= 0 && (op.kind == Op::Kind::kSpawn || op.kind == Op::Kind::kJoin)) {
      // weft's victim notices a request at its next spawn or join, and answers first.
      f.held.emplace(std::move(op));
      answer(w, /*refuse=*/false);
      return;
    }
    switch (op.kind) {
      case Op::Kind::kWork: {
        Task& t = tasks_[f.task];
        t.span += op.ps;
        t.burdened += op.ps;
        work_ += op.ps;
        spend(w, Activity::kBusy, op.ps);
        return;
      }
      case Op::Kind::kSpawn: {
        const std::uint32_t parent = f.task;
        const std::uint32_t child = new_task(std::move(op.child));  // may move tasks_
        Task& p = tasks_[parent];
        p.span += costs_.spawn_ps;
        p.burdened += costs_.spawn_ps;
        tasks_[child].span = p.span;
        tasks_[child].burdened = p.burdened;
        p.burdened += costs_.claim_ps;
        w.stack.push_back(child);
        w.children.push_back(child);
        ++w.counters.spawns;
        spend(w, Activity::kFrame, costs_.spawn_ps);
        return;
      }
      case Op::Kind::kJoin: join(w, f); return;
      case Op::Kind::kEnd: end(w); return;
    }
  }

  // Newest child first; inline if on top of our stack, else stolen (SIM4).
  void join(Worker& w, Activation& f) {
    if (w.children.size() == f.child_base) {
      throw ProgramError("task " + std::to_string(f.task) + " joins with no child left to join");
    }
    const std::uint32_t child = w.children.back();
    w.children.pop_back();
    if (!w.stack.empty() && w.stack.back() == child) {
      pop_top(w);
      ++w.counters.inline_joins;
      spend(w, Activity::kFrame, costs_.join_inline_ps);
      start_activation(w, child, 0);  // invalidates f
      return;
    }
    ++w.counters.stolen_joins;
    spend(w, Activity::kFrame, costs_.join_stolen_ps);
    if (tasks_[child].done) {
      merge_span(f.task, child);
      free_task(child);
    } else {
      f.waiting = child;
    }
  }

  void end(Worker& w) {
    Activation& f = w.activations.back();
    if (w.children.size() != f.child_base) {
      throw ProgramError("task " + std::to_string(f.task) + " ends with " +
                         std::to_string(w.children.size() - f.child_base) + " children not joined");
    }
    const std::uint32_t task = f.task;  // ends once (SIM3)
    if (f.claimed > 0) {
      // What the claim brought, per task, against what it cost (the adaptive policy's view).
      w.history.record(w.clock - f.stolen_at - f.claim_cost, f.claimed, f.claim_cost);
    }
    const bool ran_inline = tasks_[task].thief < 0 && task != root_;
    w.activations.pop_back();
    if (task == root_) root_end_ = w.clock;
    tasks_[task].done = true;
    if (ran_inline) {
      merge_span(w.activations.back().task,
                 task);  // an inline join's activation sits on its parent's
      free_task(task);   // its joiner has moved on; a stolen one is freed at its join
    }
  }

  // A join waiting for a stolen task: done, or a proxy of our own to run, or help.
  void wait_step(Worker& w, unsigned id) {
    if (w.requester >= 0) {
      answer(w, /*refuse=*/false);  // a waiting join serves requests too
      return;
    }
    Activation& f = w.activations.back();
    if (tasks_[f.waiting].done) {
      merge_span(f.task, f.waiting);
      free_task(f.waiting);
      f.waiting = kNone;
      spend(w, Activity::kIdle, costs_.poll_ps);  // the look that saw it done
      return;
    }
    // Our own proxies first, as weft's thief runs them right after the task it claimed
    // with them. Nothing of ours sits above them: the claimed task joined all it spawned.
    if (!w.stack.empty() && tasks_[w.stack.back()].proxy_holder == static_cast<std::int32_t>(id)) {
      run_claimed(w);
      return;
    }
    if (f.poll_next) {
      f.poll_next = false;
      spend(w, Activity::kIdle, costs_.poll_ps);
      return;
    }
    // Help: first from the thief of the awaited task (a leapfrog), then at random.
    const std::int32_t thief = tasks_[f.waiting].thief;
    Attempt a = Attempt::kFailed;
    if (thief >= 0 && !workers_[static_cast<unsigned>(thief)].stack.empty()) {
      a = attempt_on(w, id, static_cast<unsigned>(thief));
    }
    if (a == Attempt::kFailed) a = attempt_steal(w, id);
    if (a == Attempt::kFailed) w.activations.back().poll_next = true;
  }

  // An idle worker found work: it starts again at the first tier, and a watchman leaves
  // the role to a sleeper (SIM8).
  void took_while_idle(Worker& w, unsigned id) {
    w.tiers.reset();
    if (watchman_ == static_cast<int>(id)) {
      watchman_ = -1;
      wake_one(w.clock);
    }
  }

  // After a failed attempt: an idle worker backs off, a waiting join polls.
  static void failed_attempt(Worker& w) {
    if (w.activations.empty()) {
      w.back_off_next = true;
    } else {
      w.activations.back().poll_next = true;
    }
  }

  // The victim `v` answers the request at its port: with the tasks the policy gives the
  // thief (with the thief's history), or a refusal (when idle, or when that is none). The
  // thief, which waited from its post to now, runs on from the answer. The request ends
  // here, and the thief's deadline entry goes stale (SIM7).
  void answer(Worker& v, bool refuse) {
    const auto thief_id = static_cast<unsigned>(v.requester);
    Worker& t = workers_[thief_id];
    v.requester = -1;
    t.asked = -1;
    ++v.counters.requests_served;
    spend(v, Activity::kSwitch, costs_.answer_ps);
    if (t.clock < v.clock) spend(t, Activity::kSteal, v.clock - t.clock);
    const std::int64_t k = refuse ? 0
                                  : weft::detail::steal_amount(
                                        config_.policy, static_cast<std::int64_t>(v.stack.size()),
                                        t.history.task_work_per_cost(t.posted_at));
    took(t, thief_id, v, k, t.posted_at);
    schedule(thief_id, t.clock);
  }

  // The outcome of a thief's attempt that ended now (a request answered, a claim settled):
  // the k tasks it took from `v`, or nothing (k = 0). A take from the thief of the task its
  // join waits for is a leapfrog.
  void took(Worker& t, unsigned thief_id, Worker& v, std::int64_t k, std::uint64_t started) {
    if (k == 0) {
      ++t.counters.failed_steals;
      failed_attempt(t);
      return;
    }
    const auto victim = static_cast<int>(&v - workers_.data());
    const bool was_idle = t.activations.empty();
    const bool leapfrog = !was_idle && t.activations.back().waiting != kNone &&
                          tasks_[t.activations.back().waiting].thief == victim;
    hand_over(t, thief_id, v, k, started, t.clock - started);
    if (leapfrog) ++t.counters.leapfrogs;
    if (was_idle) took_while_idle(t, thief_id);
  }

  // The owner takes its newest task (its only way to take one off its stack: SIM3). If that
  // task is one a thief's standing mark claimed, the owner saw H past its top: it waits on the
  // port for the thief's decision (blocked, until the claim settles), and the thief,
  // re-reading T, backs off from it (SIM6).
  // On a fenced stack the pop costs its fence more, and a switching stack now and then asks
  // whether thieves still come. weft's profile charges each spawned task its process's frame
  // cost (frame_cost.hpp), measured on a fenced stack where every stack is fenced and on an
  // unfenced one otherwise: so the fence is frame time under Barrier::kFence and busy time
  // on a switching stack.
  void pop_top(Worker& w) {
    if (w.fenced) {
      spend(w, all_fenced_ ? Activity::kFrame : Activity::kBusy, costs_.fenced_join_ps);
      if (switching_) maybe_unfence(w);
    }
    if (w.claimed_k > 0 && static_cast<std::int64_t>(w.stack.size()) <= w.claimed_k) {
      w.crossed = true;
      w.blocked = true;
    }
    w.stack.pop_back();
  }

  // weft's TaskStack::maybe_unfence, at every recheck_pops-th fenced pop: back to membarrier
  // when no thief has taken the port for unfence_after_ps_. weft's owner takes the port to
  // switch; here a port under claim defers the switch to the next look (a thief holding it
  // took it within a claim's time, well inside the window, so weft's owner would not have
  // switched either).
  void maybe_unfence(Worker& w) {
    if (--w.fenced_pops_to_check != 0) return;
    w.fenced_pops_to_check = weft::detail::kRecheckPops;
    // Only while the port is free (SIM6, as BS1).
    if (w.clock < w.port_taken_at + unfence_after_ps_ || w.port_free_at > now_) return;
    w.fenced = false;
    ++w.counters.barrier_switches;
  }

  // The thief's next moment in its claim: the mark at the end of its look, or the settling
  // at the end of a barrier.
  void claim_step(Worker& w, unsigned id) {
    const auto victim = static_cast<unsigned>(w.claiming.victim);
    Worker& v = workers_[victim];
    if (w.claiming.marked && !v.crossed) {
      finish_claim(w, id, v, v.claimed_k);  // T, re-read, still covers the claim
      return;
    }
    // The mark, or a retry after a crossed claim: under the port the thief reads n afresh
    // (the owner, if blocked, holds the task it popped) and claims what the policy gives.
    if (w.claiming.marked && w.claiming.retries++ == kClaimRetries) {  // SIM6
      finish_claim(w, id, v, 0);
      return;
    }
    const auto n = static_cast<std::int64_t>(v.stack.size());
    const std::int64_t k = weft::detail::steal_amount(
        config_.policy, n, w.history.task_work_per_cost(w.claiming.started));
    if (k == 0) {
      finish_claim(w, id, v, 0);  // the owner's pops crossed the look: a lost race
      return;
    }
    w.claiming.marked = true;
    v.claimed_k = k;
    v.crossed = false;
    if (w.claiming.switch_now) {
      w.claiming.switch_now = false;
      v.fenced = true;
      ++v.counters.barrier_switches;
    }
    const std::uint64_t barrier = w.claiming.fenced ? costs_.fence_claim_ps : costs_.claim_ps;
    spend(w, Activity::kSteal, barrier + costs_.proxy_ps * static_cast<std::uint64_t>(k - 1));
    if (!w.claiming.fenced) v.membarrier_claim_at = w.clock;  // when its membarrier ended
  }

  // The claim is over: the thief releases the port, a blocked owner goes on (its wait was
  // part of its join, which weft's profile counts as busy time), and the thief takes k
  // (SIM6).
  void finish_claim(Worker& w, unsigned id, Worker& v, std::int64_t k) {
    const std::uint64_t started = w.claiming.started;
    if (k > 0 && w.claiming.fenced) ++w.counters.fenced_steals;
    w.claiming = ClaimUnderWay{};
    v.port_free_at = w.clock;
    v.claimed_k = 0;
    v.crossed = false;
    if (v.blocked) {
      v.blocked = false;
      if (v.clock < w.clock) spend(v, Activity::kBusy, w.clock - v.clock);
      schedule(static_cast<unsigned>(&v - workers_.data()), v.clock);
    }
    took(w, id, v, k, started);
  }

  // The thief's deadline passed unanswered: it withdraws its request and has failed. The
  // request ends here, never to be answered (SIM7).
  void withdraw(Worker& t) {
    workers_[static_cast<unsigned>(t.asked)].requester = -1;
    t.asked = -1;
    ++t.counters.request_timeouts;
    ++t.counters.failed_steals;
    if (t.clock < t.deadline) spend(t, Activity::kSteal, t.deadline - t.clock);
    failed_attempt(t);
  }

  // After a failed idle attempt: weft's tiers. The watchman naps; a worker past the yield
  // tier becomes the watchman if there is none, and otherwise parks (SIM8).
  void back_off(Worker& w, unsigned id) {
    w.back_off_next = false;
    if (watchman_ == static_cast<int>(id)) {
      spend(w, Activity::kIdle, w.tiers.next_nap_ps() + costs_.nap_extra_ps);
      return;
    }
    switch (w.tiers.failed(w.clock)) {
      case IdleTiers::Step::kSpin: spend(w, Activity::kIdle, costs_.spin_ps); return;
      case IdleTiers::Step::kYield: spend(w, Activity::kIdle, costs_.yield_ps); return;
      case IdleTiers::Step::kSleep:
        if (watchman_ < 0) {
          watchman_ = static_cast<int>(id);
          spend(w, Activity::kIdle, w.tiers.next_nap_ps() + costs_.nap_extra_ps);
        } else {
          w.parked = true;
          sleepers_.push_back(id);
        }
        return;
    }
  }

  // A thief that leaves work behind wakes one sleeper, which runs wake_ps later and starts
  // again at the first tier. The only way out of sleepers_, first in first out (SIM8).
  void wake_one(std::uint64_t now) {
    if (sleepers_.empty()) return;
    const unsigned id = sleepers_.front();
    sleepers_.pop_front();
    Worker& s = workers_[id];
    s.parked = false;
    const std::uint64_t at = now + costs_.wake_ps;
    if (s.clock < at) spend(s, Activity::kIdle, at - s.clock);
    s.tiers.reset();
    schedule(id, s.clock);
  }

  // The dag's join edge: the parent goes on after the later of its own path and the child's,
  // plus the cheaper of the two joins (so that no schedule beats the span).
  void merge_span(std::uint32_t parent, std::uint32_t child) {
    const std::uint64_t join = std::min(costs_.join_inline_ps, costs_.join_stolen_ps);
    Task& p = tasks_[parent];
    const Task& c = tasks_[child];
    p.span = std::max(p.span, c.span) + join;
    p.burdened = std::max(p.burdened, c.burdened) + join;
  }

  void run_claimed(Worker& w) {
    const std::uint32_t task = w.stack.back();
    pop_top(w);
    tasks_[task].proxy_holder = -1;
    spend(w, Activity::kFrame, costs_.join_inline_ps);
    start_activation(w, task, 0);
  }

  // One attempt on a random victim.
  Attempt attempt_steal(Worker& w, unsigned id) {
    if (workers_.size() < 2) {
      spend(w, Activity::kSteal, costs_.attempt_ps);  // nobody to steal from
      return Attempt::kFailed;
    }
    auto victim = static_cast<unsigned>(splitmix(w.rng) % (workers_.size() - 1));
    if (victim >= id) ++victim;
    return attempt_on(w, id, victim);
  }

  // One attempt on `victim`, by the configured mechanism: a claim, or a posted request
  // (whose outcome comes with the victim's answer or the thief's deadline).
  Attempt attempt_on(Worker& w, unsigned id, unsigned victim) {
    Worker& v = workers_[victim];
    ++w.counters.steal_attempts;
    // A claim's mark hides the tasks it covers from the look (they are below H).
    const auto n = static_cast<std::int64_t>(v.stack.size()) - v.claimed_k;
    ++w.counters.steal_sizes_seen[weft::steal_size_bucket(n)];
    const std::int64_t k =
        weft::detail::steal_amount(config_.policy, n, w.history.task_work_per_cost(w.clock));
    const bool request = config_.mechanism == weft::StealMechanism::kRequest;
    // Either mechanism needs the victim's port free: no request waiting at it, or no claim
    // under way through it (SIM6, SIM7).
    const bool port_busy = request ? v.requester >= 0 : v.port_free_at > now_;
    if (k > 0 && port_busy) ++w.counters.port_busy;
    if (k == 0 || port_busy) {
      ++w.counters.failed_steals;
      spend(w, Activity::kSteal, costs_.attempt_ps);
      return Attempt::kFailed;
    }
    if (request) {
      v.requester = static_cast<std::int32_t>(id);
      w.asked = static_cast<std::int32_t>(victim);
      w.posted_at = w.clock;
      spend(w, Activity::kSteal, costs_.post_ps);
      w.deadline = w.clock + config_.request_timeout_ps;
      return Attempt::kPending;
    }
    // The port is ours until the claim settles; the look runs first (claim_step goes on).
    // The stack's mode is stable while we hold it (BS1).
    v.port_free_at = kPortHeld;
    bool switch_now = false;
    if (switching_) {
      v.port_taken_at = w.clock;
      // kNoClaim, above every clock, never switches.
      switch_now = !v.fenced && w.clock >= v.membarrier_claim_at &&
                   w.clock - v.membarrier_claim_at < fence_within_ps_;
    }
    w.claiming = ClaimUnderWay{.victim = static_cast<std::int32_t>(victim),
                               .marked = false,
                               .fenced = v.fenced,
                               .switch_now = switch_now,
                               .retries = 0,
                               .started = w.clock};
    spend(w, Activity::kSteal, costs_.attempt_ps);
    return Attempt::kPending;
  }

  // The thief `w` takes the k oldest of `v`'s tasks; its attempt started at `started` and
  // cost it `cost` (for the adaptive policy's history).
  void hand_over(Worker& w, unsigned id, Worker& v, std::int64_t k, std::uint64_t started,
                 std::uint64_t cost) {
    // The k oldest (k at most the victim's tasks, SIM3): the newest of them runs now, the
    // others wait on our stack, oldest at the bottom, where other thieves may take them
    // again.
    std::uint32_t run_now = kNone;
    for (std::int64_t i = 0; i < k; ++i) {
      const std::uint32_t t = v.stack.front();
      v.stack.pop_front();
      tasks_[t].thief = static_cast<std::int32_t>(id);
      tasks_[t].proxy_holder = -1;
      if (i + 1 < k) {
        tasks_[t].proxy_holder = static_cast<std::int32_t>(id);
        w.stack.push_back(t);
      } else {
        run_now = t;
      }
    }
    ++w.counters.steals;
    w.counters.tasks_stolen += static_cast<std::uint64_t>(k);
    start_activation(w, run_now, k, cost, started);
    note_level(w, id);
    // The victim's stack shrinks as the claim (or the answer) hands the tasks over.
    const auto victim = static_cast<unsigned>(&v - workers_.data());
    occupancy_.set(victim, level(v), now_);
    if (!v.stack.empty() || k > 1) wake_one(w.clock);  // work left behind: one more helper
  }

  const EngineConfig& config_;
  const EngineCosts& costs_;
  const bool switching_;   // stacks change their barrier (concurrent, Barrier::kAuto)
  const bool all_fenced_;  // every stack fenced throughout (concurrent, Barrier::kFence)
  const std::uint64_t fence_within_ps_, unfence_after_ps_;
  std::vector<Worker> workers_;
  // (time, worker, version): smallest first, ties to the lower id; an entry whose version
  // is not its worker's newest is stale and skipped.
  using Entry = std::tuple<std::uint64_t, unsigned, std::uint32_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> ready_;  // the awake ones
  std::deque<unsigned> sleepers_;  // parked, woken first in, first out
  int watchman_ = -1;
  std::vector<Task> tasks_;
  std::vector<std::uint32_t> free_;
  std::uint32_t root_ = kNone;
  std::uint64_t root_end_ = 0;
  std::uint64_t tasks_made_ = 0;
  std::uint64_t work_ = 0;  // the program's own work, summed
  std::uint64_t now_ = 0;   // when the action being taken starts
  OccupancyRecorder occupancy_;
  static constexpr std::uint64_t kMaxStepsWithoutOp = 1'000'000'000;
  std::uint64_t steps_without_op_ = 0;
};

}  // namespace

SimResult simulate(std::unique_ptr<Strand> root, const EngineConfig& config) {
  if (config.workers < 1 || config.workers > 4096) {
    throw std::invalid_argument("workers must be in [1, 4096], not " +
                                std::to_string(config.workers));
  }
  const EngineCosts& c = config.costs;
  if (c.attempt_ps == 0 || c.claim_ps == 0 || c.poll_ps == 0) {
    // A zero-cost attempt or poll would let an idle worker's clock stand still forever.
    throw std::invalid_argument("attempt_ns, claim_ns and poll_ns must be positive");
  }
  Engine engine(std::move(root), config);
  return engine.run();
}

}  // namespace sim
