#include "platform/asymmetric_barrier.hpp"

#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace weft::platform {

bool expedited_membarrier_available() noexcept {
  // A function-local static: the query and the registration happen once, thread-safely.
  static const bool available = [] {
    const long supported = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    if (supported < 0 || (supported & MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0) return false;
    return syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
  }();
  return available;
}

void membarrier_all_threads() noexcept {
  // The caller's own accesses are ordered by the system call itself.
  syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
}

}  // namespace weft::platform
