#include "core/barrier_mode.hpp"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

#include "platform/asymmetric_barrier.hpp"
#include "weft/config.hpp"
#include "weft/detail/sanitizers.hpp"
#include "weft/detail/task_stack.hpp"

namespace weft::detail {

// Starts true (safe) and is lowered once membarrier is known to work. relaxed loads suffice:
// it is written before any worker thread starts, and thread creation orders the two.
std::atomic<bool> g_pop_needs_fence{true};

void thief_store_load_barrier() noexcept {
  if (g_pop_needs_fence.load(std::memory_order_relaxed)) {
    std::atomic_thread_fence(std::memory_order_seq_cst);  // pairs with the owner's fence
    return;
  }
  // Pairs with the owner's compiler barrier in TaskStack::pop_top().
  platform::membarrier_all_threads();
}

namespace {

// ThreadSanitizer does not model membarrier: its builds use the fence mode.
constexpr bool kSanitizerNeedsFence = WEFT_DETAIL_TSAN == 1;

BarrierMode decide() {
  const char* env = std::getenv("WEFT_BARRIER");
  if (env != nullptr && *env != '\0') {
    if (std::strcmp(env, "fence") == 0) return BarrierMode::kFence;
    if (std::strcmp(env, "membarrier") != 0) {
      throw ConfigError(std::string("WEFT_BARRIER=\"") + env +
                        "\": expected \"membarrier\" or \"fence\"");
    }
  }
  if (kSanitizerNeedsFence) return BarrierMode::kFence;
  return platform::expedited_membarrier_available() ? BarrierMode::kMembarrier
                                                    : BarrierMode::kFence;
}

std::once_flag g_once;
std::atomic<BarrierMode> g_mode{BarrierMode::kFence};

}  // namespace

BarrierMode init_barrier_mode() {
  std::call_once(g_once, [] {
    const BarrierMode mode = decide();
    g_mode.store(mode, std::memory_order_relaxed);
    g_pop_needs_fence.store(mode == BarrierMode::kFence, std::memory_order_relaxed);
  });
  return g_mode.load(std::memory_order_relaxed);
}

BarrierMode barrier_mode() noexcept { return g_mode.load(std::memory_order_relaxed); }

const char* barrier_mode_name(BarrierMode mode) noexcept {
  return mode == BarrierMode::kMembarrier ? "membarrier" : "fence";
}

}  // namespace weft::detail
