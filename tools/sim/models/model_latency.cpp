#include "tools/sim/models/model_latency.hpp"

#include <cmath>

namespace sim {
namespace {

double latency_term(std::uint64_t tasks, std::uint64_t latency) {
  const auto lambda = static_cast<double>(latency);
  return lambda * std::log2(static_cast<double>(tasks) / lambda);
}

}  // namespace

double latency_excess_ratio(std::uint64_t makespan, std::uint64_t tasks, unsigned workers,
                            std::uint64_t latency) {
  return (static_cast<double>(makespan) - static_cast<double>(tasks) / workers) /
         latency_term(tasks, latency);
}

double latency_bound(std::uint64_t tasks, unsigned workers, std::uint64_t latency) {
  return static_cast<double>(tasks) / workers + kLatencyConstant * latency_term(tasks, latency);
}

}  // namespace sim
