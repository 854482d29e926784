#include "platform/fork_generation.hpp"

#include <pthread.h>

#include <atomic>

namespace weft::platform {
namespace {

// relaxed: the child handler runs on the child's only thread before fork() returns there.
std::atomic<std::uint32_t> g_generation{0};

void count_child() noexcept { g_generation.fetch_add(1, std::memory_order_relaxed); }

}  // namespace

std::uint32_t fork_generation() noexcept {
  static const bool registered = [] {
    return pthread_atfork(nullptr, nullptr, &count_child) == 0;
  }();
  (void)registered;
  return g_generation.load(std::memory_order_relaxed);
}

}  // namespace weft::platform
