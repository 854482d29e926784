// Barnes-Hut's checks, as functions of a tree and the bodies, so that a test can hand them a
// corrupted tree and see them fail. Each returns an empty string when the check passes and
// otherwise says what is wrong.
#pragma once

#include <cstddef>
#include <span>
#include <string>

#include "workloads/thread_apps/barnes_hut.hpp"

namespace thread_apps {

// Every body in exactly one leaf, inside its cells' cubes; leaves neither empty nor over
// capacity; every cell's body count, mass and centre of mass equal to its children's.
std::string check_tree(const OctCell& root, std::span<const Body> bodies);

struct ForceErrors {
  double max_relative = 0.0;
  double mean_relative = 0.0;
};
// The accelerations stored in `sample` evenly spaced bodies against direct summation.
ForceErrors force_errors(std::span<const Body> bodies, std::size_t sample, double softening);

// check_tree, then force_errors against the params' bounds; records the errors in result.
std::string check_step(const OctCell& root, std::span<const Body> bodies,
                       const BarnesHutParams& params, BarnesHutResult& result);

// |sum m v| / sum m |v|.
double momentum_drift(std::span<const Body> bodies);

}  // namespace thread_apps
