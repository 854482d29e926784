// Mitzenmacher's dynamic load-stealing model ("Analyses of load stealing models based on
// differential equations", SPAA 1998), simulated on n processors and compared with the
// fixed point of its differential equations, the n -> infinity limit.
//
// The model, exactly:
// - Continuous time. Tasks arrive at each processor as a Poisson process of rate λ < 1; each
//   processor serves its own tasks one at a time, each service exponential with mean 1.
// - Stealing costs no time. Only a processor whose last task has just completed steals: it
//   draws one victim uniformly from the other n - 1 processors, once, and if that victim
//   holds at least T tasks (T >= 2, the one in service counted) it takes the policy's amount
//   of the victim's T - 1 or more waiting tasks, one task in the model (weft's "one"). If the
//   victim holds fewer, the thief stays empty until its next arrival; it does not try again.
//
// s_i is the fraction of processors holding at least i tasks (s_0 = 1). As n grows the
// s_i(t) follow, with p_i = s_i - s_(i+1) the fraction holding exactly i:
//   ds_1/dt = λ (1 - s_1) - p_1 (1 - s_T)
//   ds_i/dt = λ (s_(i-1) - s_i) - p_i                          for 2 <= i < T
//   ds_i/dt = λ (s_(i-1) - s_i) - p_i - p_1 p_i                for i >= T
// Each equation is a flux across the boundary between i - 1 and i tasks: arrivals carry
// processors up at λ p_(i-1); a completion carries one down at p_i; a processor at 1 whose
// steal succeeds (probability s_T) comes straight back to 1, so only p_1 (1 - s_T) leave 1;
// and thieves appear at rate p_1, each hitting a processor holding exactly i >= T with
// probability p_i, which then drops to i - 1. The theory checked: the simulated, time
// averaged s_i at n = 1024 lie within 0.01 of the fixed point (mitzenmacher_fixed_point).
#pragma once

#include <cstdint>
#include <vector>

#include "weft/config.hpp"

namespace sim {

struct MitzenmacherConfig {
  unsigned processors = 1024;  // n
  double lambda = 0.9;         // arrival rate per processor, in (0, 1)
  unsigned threshold = 2;      // T: the least a victim must hold, T >= 2
  double time = 2000;          // simulated time, in mean service times
  // s_i are averaged over (time / 5, time]: the first fifth lets the empty start settle.
  weft::StealPolicy policy = weft::StealPolicy::one();
  std::uint64_t seed = 1;
};

struct MitzenmacherResult {
  std::vector<double> tail;  // s_0, s_1, ...: time-averaged, up to the most any processor held
  std::uint64_t arrivals = 0;
  std::uint64_t completions = 0;
  std::uint64_t steal_attempts = 0;
  std::uint64_t steals = 0;
};

// Throws std::invalid_argument for fewer than 2 processors, λ outside (0, 1), T < 2 or a
// time that is not positive.
MitzenmacherResult simulate_mitzenmacher(const MitzenmacherConfig& config);

// The equations' fixed point s_0, s_1, ..., up to the first s_i below `smallest`.
std::vector<double> mitzenmacher_fixed_point(double lambda, unsigned threshold,
                                             double smallest = 1e-12);

// The equations integrated from the empty system (s_i = 0 for i >= 1) over `time`, with
// `levels` levels (s_0 .. s_levels; s beyond is taken as 0): a check of the fixed point.
std::vector<double> integrate_mitzenmacher_equations(double lambda, unsigned threshold, double time,
                                                     std::size_t levels);

}  // namespace sim
