// What the three Barnes-Hut versions share: the bodies and parameters of one run, the step
// timer that leaves verification out, the verification hook, and the integrator.
#pragma once

#include <chrono>
#include <span>
#include <vector>

#include "workloads/thread_apps/barnes_hut.hpp"
#include "workloads/thread_apps/bh_verify.hpp"

namespace thread_apps {

// Measures one step, leaving out the stretches between pause() and resume().
class StepTimer {
 public:
  StepTimer() : start_(Clock::now()) {}
  void pause() { paused_at_ = Clock::now(); }
  void resume() { excluded_ += Clock::now() - paused_at_; }
  double seconds() const {
    return std::chrono::duration<double>(Clock::now() - start_ - excluded_).count();
  }

 private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point start_;
  Clock::time_point paused_at_;
  Clock::duration excluded_{};
};

struct Simulation {
  std::vector<Body>& bodies;
  const BarnesHutParams& params;
  BarnesHutResult& result;

  std::span<Body> span() { return bodies; }

  // Checks the step's tree and accelerations (before the bodies move), keeping the first
  // failure and the tree's shape.
  void verify(const OctCell& root) {
    std::string problem = check_step(root, bodies, params, result);
    if (!problem.empty() && result.failure.empty()) result.failure = std::move(problem);
    result.last_tree = tree_shape(root);
  }
};

inline void advance(std::span<Body> bodies, double dt) {
  for (Body& b : bodies) {
    b.vel += dt * b.acc;
    b.pos += dt * b.vel;
  }
}

void simulate_serial(Simulation& sim);
void simulate_fine(Simulation& sim);
void simulate_coarse(Simulation& sim);

}  // namespace thread_apps
