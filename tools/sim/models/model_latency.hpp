// Work stealing with latency (Gast, Khatiri, Trystram and Wagner, "Analysis of work
// stealing with latency"): the bag of W unit tasks of model_bag.hpp, where a steal takes
// λ time units from the request to the answer instead of one.
//
// The model, exactly: model_bag.hpp's, with BagConfig::latency = λ >= 1. An idle processor
// asks a victim drawn uniformly from the others; the request reaches the victim λ - 1 steps
// after it was sent, the victim answers one of the requests reaching it in that step
// (drawn uniformly) with the policy's amount of its waiting tasks (half, in the theorem),
// and the answer reaches the thief one step later, λ steps after the request left.
// Meanwhile the thief runs nothing and asks nobody else.
//
// The theorem: the expected makespan is W/m + O(λ log2(W/λ)). The paper's constant is not
// reproduced here; the check holds the excess over W/m to kLatencyConstant λ log2(W/λ) and
// reports the excess's ratio to λ log2(W/λ), which the theorem says stays bounded as W and λ
// grow.
#pragma once

#include <cstdint>

namespace sim {

// The constant the check multiplies λ log2(W/λ) by.
inline constexpr double kLatencyConstant = 4.0;

// (makespan - W/m) / (λ log2(W/λ)): the theorem's hidden constant, as one run measures it.
// Requires W >= 2λ, so that log2(W/λ) >= 1.
double latency_excess_ratio(std::uint64_t makespan, std::uint64_t tasks, unsigned workers,
                            std::uint64_t latency);
// W/m + kLatencyConstant λ log2(W/λ).
double latency_bound(std::uint64_t tasks, unsigned workers, std::uint64_t latency);

}  // namespace sim
