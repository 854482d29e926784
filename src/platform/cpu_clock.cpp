#include "platform/cpu_clock.hpp"

#include <pthread.h>
#include <time.h>

namespace weft::platform {

int thread_cpu_clock() noexcept {
  clockid_t id{};
  if (pthread_getcpuclockid(pthread_self(), &id) != 0) return -1;
  return static_cast<int>(id);
}

std::uint64_t cpu_clock_ns(int clock) noexcept {
  if (clock == -1) return 0;
  timespec ts{};
  if (clock_gettime(static_cast<clockid_t>(clock), &ts) != 0) return 0;
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000u +
         static_cast<std::uint64_t>(ts.tv_nsec);
}

}  // namespace weft::platform
