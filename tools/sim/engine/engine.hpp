// The discrete-event engine: P simulated workers run one program under weft's concurrent or
// request steal mechanism, in one OS thread, reproducibly (the same inputs and seed give the
// same result bit for bit). docs/SIMULATOR.md says what is modelled and what is not yet.
//
// Time is integer picoseconds (a calibrated cost of 1.7 ns is not rounded to 2). Each worker has
// its own clock; the engine always advances the worker whose clock is smallest (ties: the lowest
// id), by one action: an op of its running task, a pop of a task it claimed, or a step of a steal
// attempt. So every action sees the state that all earlier actions left, and takes effect when
// it starts. A concurrent claim has three such steps (the look, the mark, the settling after its
// barrier), so an owner's pop can cross it as in weft.
//
// Invariants (docs/SIMULATOR.md, "Invariants"):
//   SIM1 A run is a function of its inputs: the same program, EngineConfig and seed give the
//        same SimResult, bit for bit. The engine is one thread; its only randomness is each
//        worker's SplitMix64 stream, seeded from the seed and the worker's id; the next
//        action is the least (time, worker id) of a priority queue, a total order; it reads
//        no clock, no address and no unordered container.
//   SIM2 Time never goes back. Every entry is queued at or after the start of the action
//        that queues it, so actions are taken in nondecreasing time; a worker's clock only
//        grows (spend() is its one writer, and adds). A worker has at most one live entry
//        (its newest version; older ones are skipped): at its clock or, for a thief waiting
//        for an answer, at its deadline. Parked and blocked workers have none. So a worker
//        acts at its own clock, after every action that started earlier.
//   SIM3 Every task runs exactly once. Until it starts, a spawned task is in one place: its
//        spawner's stack, or a thief's as a proxy. It leaves a stack only by its owner's pop
//        of the newest (a join, or a proxy run) or in a thief's take of the k oldest, k at
//        most the tasks there; each leaving starts its one activation or moves it to the
//        thief's stack. It ends once (done), and its record is recycled only after it has
//        ended and been joined.
//   SIM4 Joins are weft's: an activation joins its own children, newest first; a child on
//        top of the worker's stack is popped and run inline, any other counts as stolen and
//        is waited for. A join with no child left, or an end with children not joined, is a
//        ProgramError.
//   SIM5 The shares add up: spend() adds the same amount to a worker's clock and to one of
//        its shares, so they sum to its clock at every moment; at the end each worker is
//        brought to the makespan (idle added, or its last action's overshoot cut), so all
//        the workers' shares sum to workers x makespan_ps exactly.
//   SIM6 One claim at a time per victim (concurrent mechanism): a thief holds the victim's
//        port from its look to its settling, and another attempt there fails (port_busy).
//        The claim decides k from the victim's n at its mark; if the owner's pop crosses it
//        during the barrier, the owner is blocked until the claim settles and the thief
//        claims again from the new n, at most kClaimRetries times. A stack's mode changes
//        only under its port, as BS1: at the mark of a claim that switches it to fenced, or
//        by the owner's maybe_unfence while the port is free.
//   SIM7 One request at a time per victim and per thief (request mechanism). A request ends
//        exactly once: answered by the victim (at its next spawn or join, in a waiting join,
//        or refused while idle) or withdrawn at the thief's deadline. Either clears both
//        sides; an answer reschedules the thief, so its deadline entry goes stale.
//   SIM8 At most one watchman. A worker parks only while another holds the role, and is
//        woken (first parked, first woken) only by wake_one: from a thief that leaves work
//        behind, or from a watchman that takes work and so leaves the role.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "tools/sim/engine/occupancy.hpp"
#include "tools/sim/engine/program.hpp"
#include "weft/config.hpp"
#include "weft/stats.hpp"

namespace sim {

// What each runtime action costs, in picoseconds (not the program's own work: that is in its ops).
struct EngineCosts {
  std::uint64_t spawn_ps = 0;        // push a task on the worker's stack
  std::uint64_t join_inline_ps = 0;  // pop the joined task and start it inline
  std::uint64_t join_stolen_ps = 0;  // a join that finds its task taken by a thief
  std::uint64_t attempt_ps = 0;      // a steal attempt that takes nothing
  std::uint64_t claim_ps = 0;        // a steal attempt that takes tasks
  std::uint64_t proxy_ps = 0;        // each task of a claim beyond the first
  std::uint64_t poll_ps = 0;         // a waiting join's look at its task, between helps
  std::uint64_t spin_ps = 0;         // the pause after a failed attempt in the spin tier
  std::uint64_t yield_ps = 0;        // a sched_yield after a failed attempt in the yield tier
  std::uint64_t wake_ps = 0;         // from a futex wake to the parked worker running
  std::uint64_t nap_extra_ps = 0;    // what a watchman's timed nap sleeps past its length
  std::uint64_t post_ps = 0;         // request mechanism: a thief posts its request at the port
  std::uint64_t answer_ps = 0;       // and the victim answers it (weft's profile: switch time)
  // Concurrent mechanism, a fenced stack (weft's Config::barrier, task_stack.hpp BS1-BS3): a
  // claim's barrier there is a fence, not a membarrier (claim_ps), and every pop of the
  // owner's costs this much more than join_inline_ps (its store, fence and true H, out of
  // line).
  std::uint64_t fence_claim_ps = 0;
  std::uint64_t fenced_join_ps = 0;
};

struct EngineConfig {
  unsigned workers = 1;
  weft::StealPolicy policy = weft::StealPolicy::one();
  // kConcurrent: the thief claims while the victim runs on. kRequest: the thief posts a
  // request at the victim's port (one at a time) and waits; the victim answers at its next
  // spawn or join, or while it waits in a join (amount decided by the victim, with the
  // thief's history), refuses when idle, and the thief withdraws after request_timeout_ps.
  weft::StealMechanism mechanism = weft::StealMechanism::kConcurrent;
  std::uint64_t request_timeout_ps = 50'000'000;  // Config::request_timeout_us's default
  // Concurrent mechanism: which barrier a claim pays, as weft's Config::barrier with
  // membarrier available. kAuto (weft's default): a stack starts unfenced and switches as
  // weft's do (barrier_mode.hpp's BarrierSwitching, with claim_ps as the membarrier's cost);
  // kMembarrier: never fenced; kFence: fenced throughout.
  weft::Barrier barrier = weft::Barrier::kAuto;
  std::uint64_t seed = 1;
  EngineCosts costs;
};

// weft's counters (weft/stats.hpp), summed over the workers.
struct SimCounters {
  std::uint64_t spawns = 0;
  std::uint64_t inline_joins = 0;
  std::uint64_t stolen_joins = 0;
  std::uint64_t steal_attempts = 0;
  std::uint64_t steals = 0;
  std::uint64_t tasks_stolen = 0;
  std::uint64_t failed_steals = 0;
  std::uint64_t leapfrogs = 0;         // steals from the thief of the task a join waits for
  std::uint64_t requests_served = 0;   // request mechanism: answers given, as a victim
  std::uint64_t request_timeouts = 0;  // and requests withdrawn unanswered, as a thief
  std::uint64_t port_busy = 0;         // failed attempts that found another thief at the port
  std::uint64_t fenced_steals = 0;     // steals whose claim fenced rather than paid a membarrier
  std::uint64_t barrier_switches = 0;  // a stack's changes of barrier, either way
  // n (the victim's tasks waiting) at each attempt, in weft's log2 buckets
  // (weft::steal_size_bucket); they add up to steal_attempts.
  std::array<std::uint64_t, weft::kStealSizeBuckets> steal_sizes_seen{};
};

// Where the workers' time went, summed over the workers up to the makespan; the four add up
// to workers x makespan_ps exactly.
struct SimShares {
  std::uint64_t busy_ps = 0;    // the program's own work
  std::uint64_t frame_ps = 0;   // spawns and joins
  std::uint64_t steal_ps = 0;   // steal attempts and claims
  std::uint64_t idle_ps = 0;    // backing off, asleep, a waiting join's polls
  std::uint64_t switch_ps = 0;  // answering requests (request mechanism)
};

struct SimResult {
  std::uint64_t makespan_ps = 0;  // T_P: when the root task ends
  std::uint64_t tasks = 0;        // tasks run, the root included
  // T1: the program's work plus a spawn and an inline join per spawned task, what one worker
  // takes. T∞ (span_ps): the dag's longest path, with the spawns and joins on it (a join at
  // the cheaper of its two costs), a bound no schedule beats: T_P >= T∞. The burdened span
  // adds a claim's cost to every continuation after a spawn (Cilkview's burdened dag).
  std::uint64_t work_ps = 0;
  std::uint64_t span_ps = 0;
  std::uint64_t burdened_span_ps = 0;
  SimCounters counters;
  SimShares shares;
  OccupancyResult occupancy;  // s_i: averaged over the run, and over time
};

// A program that is not one: a join with no child left to join, or a task that ends with
// children not joined. The message names the task and what it did.
class ProgramError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Runs `root` on config.workers simulated workers. Throws std::invalid_argument for a
// config out of range (no workers, more than 4096, a zero attempt, claim, poll, spin or
// yield cost) and ProgramError.
SimResult simulate(std::unique_ptr<Strand> root, const EngineConfig& config);

}  // namespace sim
