// The fine-grained Barnes-Hut of Narlikar & Blelloch: no partitioning and no per-processor
// state; every phase forks a weft::thread per subtree or range of bodies down to
// params.thread_cutoff bodies and leaves the balancing to the thread scheduler. The tree is
// built by all those threads at once, locking the cells they change (octree.hpp).
#include <cstdint>

#include "workloads/thread_apps/bh_simulation.hpp"
#include "workloads/thread_apps/centre_of_mass.hpp"
#include "workloads/thread_apps/thread_fork.hpp"

namespace thread_apps {
namespace {

BoundingBox bounding_box_forking(std::span<const Body> bodies, std::size_t cutoff) {
  if (bodies.size() <= cutoff) return bounding_box(bodies);
  const std::size_t half = bodies.size() / 2;
  BoundingBox first, second;
  fork_join(
      true, [&] { first = bounding_box_forking(bodies.first(half), cutoff); },
      [&] { second = bounding_box_forking(bodies.subspan(half), cutoff); });
  first.merge(second);
  return first;
}

// The levels of the upward pass to fork at: while an average subtree still holds more than
// `cutoff` bodies (the pass forks before it knows the counts it computes).
std::size_t summary_fork_levels(std::size_t bodies, std::size_t cutoff) {
  std::size_t levels = 0;
  for (std::size_t per_subtree = bodies / 8; per_subtree >= cutoff; per_subtree /= 8) ++levels;
  return levels;
}

void fine_step(Simulation& sim) {
  std::span<Body> bodies = sim.span();
  const std::size_t cutoff = sim.params.thread_cutoff;
  StepTimer timer;
  TreePtr root = make_root(bounding_box_forking(bodies, cutoff));
  for_range_forking(true, 0, bodies.size(), cutoff, [&](std::size_t lo, std::size_t hi) {
    for (std::size_t i = lo; i < hi; ++i) {
      insert_body_locked(root.get(), bodies, static_cast<std::uint32_t>(i));
    }
  });
  summarize_subtree_forking(*root, bodies, summary_fork_levels(bodies.size(), cutoff));
  accelerate_subtree_forking(*root, *root, bodies, sim.params.law, cutoff);
  timer.pause();
  sim.verify(*root);
  timer.resume();
  for_range_forking(true, 0, bodies.size(), cutoff, [&](std::size_t lo, std::size_t hi) {
    advance(bodies.subspan(lo, hi - lo), sim.params.dt);
  });
  root.reset();
  sim.result.step_seconds.push_back(timer.seconds());
}

}  // namespace

void simulate_fine(Simulation& sim) {
  // The whole simulation runs in a thread, so that every piece of it is scheduled as a thread
  // (the caller's root is a task).
  weft::thread main([&] {
    for (int step = 0; step < sim.params.steps; ++step) fine_step(sim);
  });
  main.join();
}

}  // namespace thread_apps
