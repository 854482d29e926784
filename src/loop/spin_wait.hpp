// A bounded spin, then yields: the loop scheme's short waits (a dequeue in progress, an
// enqueuer between its two steps, helpers finishing their chunks) must not starve the
// thread they wait for when workers outnumber cores.
#pragma once

#include <sched.h>

#include "platform/cpu.hpp"

namespace weft::detail {

class SpinWait {
 public:
  void once() noexcept {
    if (spins_ < kSpinsBeforeYield) {
      ++spins_;
      platform::cpu_relax();
    } else {
      sched_yield();
    }
  }
  void reset() noexcept { spins_ = 0; }

 private:
  static constexpr unsigned kSpinsBeforeYield = 64;
  unsigned spins_ = 0;
};

}  // namespace weft::detail
