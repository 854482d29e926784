#include "tools/sim/models/model_generator.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "model/steal_amount.hpp"
#include "tools/sim/models/model_random.hpp"

namespace sim {

GeneratorResult simulate_generator(const GeneratorConfig& config) {
  if (config.processors < 2)
    throw std::invalid_argument("generator model: fewer than 2 processors");
  if (!(config.lambda > 0.0 && config.lambda < 1.0))
    throw std::invalid_argument("generator model: lambda outside (0, 1)");
  if (config.steps < 2) throw std::invalid_argument("generator model: fewer than 2 steps");
  const std::uint32_t n = config.processors;
  std::vector<std::uint64_t> load(n, 0);
  std::vector<std::uint32_t> requests_seen(n, 0);
  std::vector<std::uint32_t> answered(n, 0);
  std::vector<bool> asked(n, false);  // this step
  std::vector<std::uint32_t> victims_reached;
  ModelRandom random(config.seed);
  GeneratorResult result;
  std::uint64_t total = 0;
  double second_half_sum = 0.0;
  for (std::uint64_t step = 1; step <= config.steps; ++step) {
    for (std::uint32_t g = 0; g < n; ++g) {
      if (random.bernoulli(config.lambda)) ++load[0];
    }
    // The idle ask; each victim answers one of the requests that reached it, drawn by
    // reservoir sampling over the thieves in id order.
    for (std::uint32_t i = 0; i < n; ++i) {
      asked[i] = load[i] == 0;
      if (!asked[i]) continue;
      const std::uint32_t v = random.other_than(i, n);
      ++result.steal_requests;
      if (requests_seen[v]++ == 0) victims_reached.push_back(v);
      if (random.below(requests_seen[v]) == 0) answered[v] = i;
    }
    for (std::uint32_t v : victims_reached) {
      // The requests are answered together, on the loads as the step found them: a victim
      // that asked too held nothing then, whatever its own answer has brought it since.
      const std::int64_t held = asked[v] ? 0 : static_cast<std::int64_t>(load[v]);
      const auto amount =
          static_cast<std::uint64_t>(weft::detail::steal_amount(config.policy, held - 1, 0.0));
      load[v] -= amount;
      load[answered[v]] += amount;
      if (amount > 0) ++result.steals;
      requests_seen[v] = 0;
    }
    victims_reached.clear();
    std::uint64_t load_after = 0;
    for (std::uint64_t& w : load) {
      if (w > 0) {
        --w;
        ++result.served;
      }
      load_after += w;
    }
    total = load_after;
    if (step <= config.steps / 2) {
      result.max_load_first_half = std::max(result.max_load_first_half, total);
    } else {
      result.max_load_second_half = std::max(result.max_load_second_half, total);
      second_half_sum += static_cast<double>(total);
    }
  }
  result.generated = result.served + total;
  result.final_load = total;
  result.mean_load_second_half =
      second_half_sum / static_cast<double>(config.steps - config.steps / 2);
  return result;
}

bool load_stays_bounded(const GeneratorResult& result, unsigned processors) {
  return static_cast<double>(result.max_load_second_half) <=
         kBoundedGrowth * static_cast<double>(result.max_load_first_half) + processors;
}

}  // namespace sim
