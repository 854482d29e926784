// Which CPU each worker is bound to, from Config::pin and the CPUs the process may use
// (Pinning in weft/config.hpp says why kAuto binds exactly when it does).
#pragma once

#include <cstddef>
#include <vector>

#include "weft/config.hpp"

namespace weft::detail {

// Where each worker may run. A bound worker gets its one CPU; the others get all of
// `allowed`, the process's CPUs in increasing order, rather than what the thread making the
// runtime has (a runtime made in a task would otherwise crowd its workers onto the one CPU
// that task's worker is bound to). `allowed` empty (unknown): nobody bound, nothing set.
struct WorkerCpus {
  bool bound = false;
  std::vector<std::vector<int>> cpus;  // one entry per worker
};

inline WorkerCpus worker_cpus(Pinning pin, unsigned workers, const std::vector<int>& allowed) {
  WorkerCpus w;
  w.bound = !allowed.empty() &&
            (pin == Pinning::kOn ||
             (pin == Pinning::kAuto && allowed.size() >= 2 && workers == allowed.size()));
  w.cpus.assign(workers, allowed);
  if (w.bound) {
    for (std::size_t i = 0; i < w.cpus.size(); ++i) w.cpus[i] = {allowed[i % allowed.size()]};
  }
  return w;
}

}  // namespace weft::detail
