// Initial conditions for the N-body simulation: the Plummer model, a spherical cluster
// concentrated at its centre, in the standard N-body units (G = 1, total mass 1, total energy
// -1/4), so that Barnes-Hut's octree is deep in the core and shallow at the edge.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "workloads/thread_apps/body.hpp"

namespace thread_apps {

// `count` equal-mass bodies, a pure function of (count, seed), with their centre of mass at
// the origin and zero total momentum.
std::vector<Body> plummer_bodies(std::size_t count, std::uint64_t seed);

}  // namespace thread_apps
