// The reference Barnes-Hut: the same tree code as the parallel versions, without threads or
// locks.
#include <cstdint>

#include "workloads/thread_apps/bh_simulation.hpp"
#include "workloads/thread_apps/centre_of_mass.hpp"

namespace thread_apps {

void simulate_serial(Simulation& sim) {
  std::span<Body> bodies = sim.span();
  for (int step = 0; step < sim.params.steps; ++step) {
    StepTimer timer;
    TreePtr root = make_root(bounding_box(bodies));
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      insert_body(root.get(), bodies, static_cast<std::uint32_t>(i));
    }
    summarize_subtree(*root, bodies);
    accelerate_subtree(*root, *root, bodies, sim.params.law);
    timer.pause();
    sim.verify(*root);
    timer.resume();
    advance(bodies, sim.params.dt);
    root.reset();
    sim.result.step_seconds.push_back(timer.seconds());
  }
}

}  // namespace thread_apps
