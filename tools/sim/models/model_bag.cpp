#include "tools/sim/models/model_bag.hpp"

#include <cmath>
#include <stdexcept>
#include <vector>

#include "model/steal_amount.hpp"
#include "tools/sim/models/model_random.hpp"

namespace sim {
namespace {

constexpr std::uint32_t kNoVictim = UINT32_MAX;

struct Processor {
  std::uint64_t tasks = 0;
  std::uint32_t victim = kNoVictim;  // the victim of the request in flight, if any
  std::uint64_t decided_at = 0;      // the step the victim answers in
  std::uint64_t delivered = 0;       // what the answer carries to the thief
};

}  // namespace

BagResult simulate_bag(const BagConfig& config) {
  if (config.tasks == 0) throw std::invalid_argument("bag model: no tasks");
  if (config.workers == 0) throw std::invalid_argument("bag model: no workers");
  if (config.latency == 0) throw std::invalid_argument("bag model: a zero latency");
  const std::uint32_t m = config.workers;
  std::vector<Processor> processors(m);
  processors[0].tasks = config.tasks;
  // Per victim, the requests that reached it this step and the one it answers: reservoir
  // sampling over the thieves in id order draws that one uniformly.
  std::vector<std::uint32_t> requests_seen(m, 0);
  std::vector<std::uint32_t> answered(m, kNoVictim);
  std::vector<std::uint32_t> victims_reached;
  ModelRandom random(config.seed);
  BagResult result;
  std::uint64_t left = config.tasks;  // not yet run, wherever they are
  for (std::uint64_t step = 0;; ++step) {
    // Answers arrive: the thief holds what it was given from this step on.
    for (Processor& p : processors) {
      if (p.victim != kNoVictim && p.decided_at + 1 == step) {
        p.tasks += p.delivered;
        p.delivered = 0;
        p.victim = kNoVictim;
      }
    }
    // The idle ask.
    if (m > 1) {
      for (std::uint32_t i = 0; i < m; ++i) {
        Processor& p = processors[i];
        if (p.tasks == 0 && p.victim == kNoVictim) {
          p.victim = random.other_than(i, m);
          p.decided_at = step + config.latency - 1;
          ++result.steal_requests;
        }
      }
    }
    // Requests reach their victims, each of which answers one.
    for (std::uint32_t i = 0; i < m; ++i) {
      const Processor& p = processors[i];
      if (p.victim == kNoVictim || p.decided_at != step) continue;
      if (requests_seen[p.victim]++ == 0) victims_reached.push_back(p.victim);
      if (random.below(requests_seen[p.victim]) == 0) answered[p.victim] = i;
    }
    for (std::uint32_t v : victims_reached) {
      Processor& victim = processors[v];
      const auto waiting = static_cast<std::int64_t>(victim.tasks) - 1;
      const auto amount =
          static_cast<std::uint64_t>(weft::detail::steal_amount(config.policy, waiting, 0.0));
      victim.tasks -= amount;
      processors[answered[v]].delivered = amount;
      if (amount > 0) ++result.steals;
      requests_seen[v] = 0;
      answered[v] = kNoVictim;
    }
    victims_reached.clear();
    // Every processor that holds a task runs one.
    for (Processor& p : processors) {
      if (p.tasks == 0) continue;
      --p.tasks;
      if (--left == 0) {
        result.makespan = step + 1;
        return result;
      }
    }
  }
}

double bag_bound(std::uint64_t tasks, unsigned workers) {
  return static_cast<double>(tasks) / workers + 3.65 * std::log2(static_cast<double>(tasks));
}

}  // namespace sim
