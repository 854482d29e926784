#include "platform/futex.hpp"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <climits>

namespace weft::platform {
namespace {
static_assert(sizeof(std::atomic<std::uint32_t>) == sizeof(std::uint32_t));

long futex(std::atomic<std::uint32_t>& word, int op, std::uint32_t value,
           const timespec* timeout) noexcept {
  return syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), op, value, timeout, nullptr,
                 0);
}
}  // namespace

void futex_wait(std::atomic<std::uint32_t>& word, std::uint32_t expected,
                std::chrono::microseconds timeout) noexcept {
  if (timeout.count() > 0) {
    timespec ts{};
    ts.tv_sec = static_cast<time_t>(timeout.count() / 1'000'000);
    ts.tv_nsec = static_cast<long>((timeout.count() % 1'000'000) * 1000);
    futex(word, FUTEX_WAIT_PRIVATE, expected, &ts);
  } else {
    futex(word, FUTEX_WAIT_PRIVATE, expected, nullptr);
  }
}

void futex_wake(std::atomic<std::uint32_t>& word, int count) noexcept {
  futex(word, FUTEX_WAKE_PRIVATE, static_cast<std::uint32_t>(count), nullptr);
}

}  // namespace weft::platform
