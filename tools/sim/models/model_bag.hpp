// A bag of W independent unit tasks on m processors, balanced by work stealing: the model
// of Tchiboukdjian, Gast, Trystram et al.'s analysis ("A tighter analysis of work
// stealing"), which this file also generalises to a steal latency λ (model_latency.hpp).
//
// The model, exactly:
// - Time advances in unit steps; a task takes one step. At time 0 processor 0 holds all W
//   tasks and the others none.
// - A processor that holds no task and waits for no answer is idle: it sends a steal
//   request to a victim drawn uniformly from the other m - 1 processors.
// - A request sent at step t reaches its victim at step t + λ - 1. A victim that several
//   requests reach in the same step answers one of them, drawn uniformly, and the others
//   fail. It gives the thief the policy's amount (weft::StealPolicy, "half" by default) of
//   its n = w - 1 waiting tasks (the one it runs in that step is not offered): half gives
//   floor(w / 2). The answer, tasks or a failure, reaches the thief at step t + λ, and only
//   then can it run what it got or ask again. So a steal costs the thief λ steps, and one
//   step in the classic model (λ = 1).
// - In each step every processor that holds a task runs one. The makespan is the number of
//   steps until the last task has run.
//
// The theorem (λ = 1, steal half): the expected makespan is at most W/m + 3.65 log2 W plus
// a term that does not grow with W; bag_bound() is W/m + 3.65 log2 W, as the check holds a
// single run to it.
#pragma once

#include <cstdint>

#include "weft/config.hpp"

namespace sim {

struct BagConfig {
  std::uint64_t tasks = 1000;  // W
  unsigned workers = 16;       // m
  weft::StealPolicy policy = weft::StealPolicy::half();
  std::uint64_t latency = 1;  // λ: steps from a request's sending to its answer's arrival
  std::uint64_t seed = 1;
};

struct BagResult {
  std::uint64_t makespan = 0;        // steps until the last task has run
  std::uint64_t steal_requests = 0;  // requests sent
  std::uint64_t steals = 0;          // requests answered with tasks
};

// Throws std::invalid_argument for no tasks, no workers or a zero latency.
BagResult simulate_bag(const BagConfig& config);

// W/m + 3.65 log2 W: the classic model's bound on the makespan.
double bag_bound(std::uint64_t tasks, unsigned workers);

}  // namespace sim
