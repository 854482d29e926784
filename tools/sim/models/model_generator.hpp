// Berenbrink, Friedetzky and Goldberg's work-generation model ("The natural work-stealing
// algorithm is stable"), simulated on n processors.
//
// The model, exactly:
// - Time advances in unit steps; a task takes one step to serve. There are n generators,
//   all hosted by processor 0: the allocation that the paper names as one under which the
//   load grows without bound when nobody steals, although λ < 1.
// - In each step, first each generator, independently with probability λ, puts one task
//   on its host's queue. Then each processor with an empty queue is idle and sends a steal
//   request to a victim drawn uniformly from the other n - 1 processors; a victim that
//   requests reach answers one of them, drawn uniformly, with the policy's amount
//   (weft::StealPolicy; the algorithm analysed takes half) of its n = w - 1 waiting tasks
//   (the one it serves in this step is not offered). All requests are answered together,
//   on the loads the step began with, so tasks move at most once a step. A steal costs no
//   time: the thief serves a stolen task in the same step. Last, every processor with a
//   task serves one.
//
// The theorem (steal half, any allocation of the generators, λ < 1): the system is stable,
// the total load staying bounded in expectation for all time. The check: the largest
// total load over the run's second half is at most 1.5 times the largest over its first
// half, plus n. A stationary load gives about 1 (the largest of 30 seeds at n = 1024 and
// λ from 0.3 to 0.97, over 10000 steps: 1.23); a load growing linearly from the empty
// start gives 2. The n, one task per processor, keeps a few tasks' noise at small n from
// reading as growth.
#pragma once

#include <cstdint>

#include "weft/config.hpp"

namespace sim {

struct GeneratorConfig {
  unsigned processors = 1024;  // n, and as many generators
  double lambda = 0.9;         // each generator's probability of a task per step, in (0, 1)
  std::uint64_t steps = 10000;
  weft::StealPolicy policy = weft::StealPolicy::half();
  std::uint64_t seed = 1;
};

struct GeneratorResult {
  std::uint64_t generated = 0;
  std::uint64_t served = 0;
  std::uint64_t steal_requests = 0;
  std::uint64_t steals = 0;
  std::uint64_t max_load_first_half = 0;   // the total load after a step, steps 1 .. S/2
  std::uint64_t max_load_second_half = 0;  // and S/2 + 1 .. S
  double mean_load_second_half = 0.0;
  std::uint64_t final_load = 0;
};

// Throws std::invalid_argument for fewer than 2 processors, λ outside (0, 1) or fewer than 2
// steps.
GeneratorResult simulate_generator(const GeneratorConfig& config);

// The check above.
inline constexpr double kBoundedGrowth = 1.5;
bool load_stays_bounded(const GeneratorResult& result, unsigned processors);

}  // namespace sim
