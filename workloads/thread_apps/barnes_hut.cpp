#include "workloads/thread_apps/barnes_hut.hpp"

#include <stdexcept>
#include <utility>

#include "weft/memory.hpp"
#include "weft/runtime.hpp"
#include "workloads/thread_apps/bh_simulation.hpp"
#include "workloads/thread_apps/plummer.hpp"

namespace thread_apps {

const char* bh_version_name(BhVersion version) noexcept {
  switch (version) {
    case BhVersion::kSerial: return "serial";
    case BhVersion::kFine: return "fine";
    case BhVersion::kCoarse: return "coarse";
  }
  return "?";
}

BarnesHutResult barnes_hut(const BarnesHutParams& params, BhVersion version) {
  if (version == BhVersion::kCoarse && params.coarse_threads == 0) {
    throw std::invalid_argument("barnes_hut: the coarse version needs coarse_threads > 0");
  }
  if (params.thread_cutoff == 0) throw std::invalid_argument("barnes_hut: thread_cutoff is 0");
  std::vector<Body> bodies = plummer_bodies(params.bodies, params.seed);
  BarnesHutResult result;
  result.bodies = bodies.size();
  Simulation sim{bodies, params, result};
  switch (version) {
    case BhVersion::kSerial: simulate_serial(sim); break;
    case BhVersion::kFine: simulate_fine(sim); break;
    case BhVersion::kCoarse: simulate_coarse(sim); break;
  }
  result.momentum_drift = momentum_drift(bodies);
  if (result.failure.empty() && result.momentum_drift > params.max_momentum_drift) {
    result.failure = "momentum drift " + std::to_string(result.momentum_drift) + " exceeds " +
                     std::to_string(params.max_momentum_drift);
  }
  result.verified = result.failure.empty();
  if (params.keep_final_bodies) result.final_bodies = std::move(bodies);
  return result;
}

BarnesHutRun run_barnes_hut(const BarnesHutParams& params, BhVersion version,
                            const weft::Config& config) {
  BarnesHutRun run;
  if (version == BhVersion::kSerial) {
    // No runtime: the process's heap figures are the serial run's (S1).
    weft::reset_heap_high_water();
    run.result = barnes_hut(params, version);
    const weft::HeapUsage heap = weft::heap_usage();
    run.threads.heap_in_use = heap.in_use;
    run.threads.heap_high_water = heap.high_water;
    return run;
  }
  BarnesHutParams adjusted = params;
  if (adjusted.coarse_threads == 0) adjusted.coarse_threads = config.resolved_workers();
  weft::Runtime rt(config);
  rt.reset_stats();
  run.result = rt.run([&] { return barnes_hut(adjusted, version); });
  run.threads = rt.stats().threads;
  return run;
}

}  // namespace thread_apps
