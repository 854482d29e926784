// Which CPU each worker is bound to, from Config::pin and the CPUs the process may use
// (Pinning in weft/config.hpp says why kAuto binds exactly when it does).
#pragma once

#include <cstddef>
#include <vector>

#include "weft/config.hpp"

namespace weft::detail {

// One entry per worker: the CPU to bind it to, or -1 to leave it to the kernel. `allowed` is
// the process's affinity mask in increasing order; empty (unknown) binds nobody.
inline std::vector<int> worker_cpus(Pinning pin, unsigned workers,
                                    const std::vector<int>& allowed) {
  std::vector<int> cpus(workers, -1);
  const bool bind = !allowed.empty() &&
                    (pin == Pinning::kOn ||
                     (pin == Pinning::kAuto && allowed.size() >= 2 && workers == allowed.size()));
  if (!bind) return cpus;
  for (std::size_t i = 0; i < cpus.size(); ++i) cpus[i] = allowed[i % allowed.size()];
  return cpus;
}

}  // namespace weft::detail
