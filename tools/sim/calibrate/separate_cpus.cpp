#include "tools/sim/calibrate/separate_cpus.hpp"

#include <sched.h>

#include <algorithm>

#include "platform/native_thread.hpp"

namespace sim {

SeparateCpus::SeparateCpus() : saved_(weft::platform::thread_cpus()) {
  if (saved_.size() < 2) return;  // nothing to separate from
  const int current = sched_getcpu();
  const int own =
      std::find(saved_.begin(), saved_.end(), current) != saved_.end() ? current : saved_.front();
  if (!weft::platform::set_thread_cpus({own})) return;
  own_ = own;
  for (const int cpu : saved_) {
    if (cpu != own) others_.push_back(cpu);
  }
}

SeparateCpus::~SeparateCpus() {
  if (own_ >= 0) (void)weft::platform::set_thread_cpus(saved_);
}

bool SeparateCpus::place_helper(int cpu) { return weft::platform::set_thread_cpus({cpu}); }

}  // namespace sim
