// Barnes-Hut N-body simulation (Narlikar & Blelloch, section 5.1.1) in three versions:
//   kSerial  plain loops and recursion, no threads: the reference S1 and T1 are measured on;
//   kFine    a weft::thread per subtree or per range of bodies, down to a cutoff, in every
//            phase; the octree is built by threads inserting concurrently into one shared
//            tree under weft::mutex locks on the cells they change;
//   kCoarse  one thread per worker with a weft::barrier between phases, each owning a static
//            share of the bodies (SPLASH-2's structure; its shares are equal counts of bodies
//            in tree order, where SPLASH-2 weighs bodies by their last step's work).
// Each step builds the octree, summarises cells (mass, centre of mass), computes every
// body's acceleration by the theta criterion and advances the bodies (symplectic Euler).
// Every step is verified, outside the time measured: the tree's structure and summaries,
// a sample of bodies' accelerations against direct summation, and at the end the drift of
// the total momentum.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "weft/config.hpp"
#include "weft/stats.hpp"
#include "workloads/thread_apps/body.hpp"
#include "workloads/thread_apps/force_walk.hpp"
#include "workloads/thread_apps/octree.hpp"

namespace thread_apps {

enum class BhVersion { kSerial, kFine, kCoarse };
const char* bh_version_name(BhVersion version) noexcept;

struct BarnesHutParams {
  std::size_t bodies = 100000;
  int steps = 4;  // the paper times the last two: drop step_seconds[0] and [1]
  std::uint64_t seed = 1;
  ForceLaw law;
  double dt = 0.025;
  // kFine: a subtree or range of at most this many bodies is one thread's work (the paper
  // stops forking at about 8 leaves; leaves hold up to 8 bodies).
  std::size_t thread_cutoff = 64;
  // kCoarse: how many threads (required: barnes_hut cannot see the worker count;
  // run_barnes_hut passes the Config's).
  unsigned coarse_threads = 0;
  // Verification: how many bodies' accelerations are checked against direct summation per
  // step, and the relative errors allowed (theta 0.5 without quadrupoles errs by ~1e-3 on
  // average; a missing or misplaced cell errs by far more).
  std::size_t force_sample = 32;
  double max_force_error = 0.05;
  double mean_force_error = 0.01;
  // |total momentum| / sum of |m v|, after the last step.
  double max_momentum_drift = 1e-3;
  // Keep the bodies after the last step in the result (to compare versions).
  bool keep_final_bodies = false;
};

struct BarnesHutResult {
  std::vector<double> step_seconds;  // verification excluded
  bool verified = false;
  std::string failure;  // the first check that failed; empty when verified
  std::size_t bodies = 0;
  TreeShape last_tree;                  // the octree of the last step
  double worst_force_error = 0.0;       // largest relative error of a sampled body, any step
  double worst_mean_force_error = 0.0;  // largest per-step mean over the sample
  double momentum_drift = 0.0;
  std::vector<Body> final_bodies;  // with keep_final_bodies
};

// Generates the bodies and runs the simulation. kFine and kCoarse must run under a Runtime
// (inside Runtime::run); kSerial runs anywhere and uses no weft primitive.
BarnesHutResult barnes_hut(const BarnesHutParams& params, BhVersion version);

struct BarnesHutRun {
  BarnesHutResult result;
  weft::ThreadStats threads;  // of the run's Runtime (default for kSerial, which has none)
};
// Runs `version` under a Runtime made from `config` (kSerial: without one).
BarnesHutRun run_barnes_hut(const BarnesHutParams& params, BhVersion version,
                            const weft::Config& config);

}  // namespace thread_apps
