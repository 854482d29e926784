// A body of the N-body simulation.
#pragma once

#include "workloads/thread_apps/vec3.hpp"

namespace thread_apps {

struct Body {
  Vec3 pos;
  Vec3 vel;
  Vec3 acc;  // from the last force phase
  double mass = 0.0;
};

}  // namespace thread_apps
