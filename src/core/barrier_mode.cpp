#include "core/barrier_mode.hpp"

#include <atomic>
#include <mutex>
#include <string>

#include "core/config_fields.hpp"
#include "platform/asymmetric_barrier.hpp"
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

bool membarrier_usable() {
  return !kSanitizerNeedsFence && platform::expedited_membarrier_available();
}

std::string requested_text(Barrier requested) {
  return setting_names(config_field("barrier")) + " = " + barrier_name(requested);
}

std::mutex g_mutex;
bool g_decided = false;  // under g_mutex; the mode itself is g_pop_needs_fence

}  // namespace

BarrierMode init_barrier_mode(Barrier requested) {
  std::lock_guard lock(g_mutex);
  if (!g_decided) {
    BarrierMode mode = BarrierMode::kFence;
    if (requested != Barrier::kFence && membarrier_usable()) {
      mode = BarrierMode::kMembarrier;
    } else if (requested == Barrier::kMembarrier) {
      throw ConfigError(requested_text(requested) +
                        ": membarrier is unavailable here (the kernel lacks expedited private "
                        "membarrier, or this is a ThreadSanitizer build); use auto or fence");
    }
    g_pop_needs_fence.store(mode == BarrierMode::kFence, std::memory_order_relaxed);
    g_decided = true;
    return mode;
  }
  const BarrierMode mode = barrier_mode();
  const bool conflict = (requested == Barrier::kFence && mode != BarrierMode::kFence) ||
                        (requested == Barrier::kMembarrier && mode != BarrierMode::kMembarrier);
  if (conflict) {
    throw ConfigError(requested_text(requested) + ": this process already uses the " +
                      barrier_mode_name(mode) +
                      " barrier, decided by its first runtime; the barrier mode is "
                      "process-wide, so a later runtime may ask for auto or " +
                      barrier_mode_name(mode) + " only");
  }
  return mode;
}

BarrierMode barrier_mode() noexcept {
  return g_pop_needs_fence.load(std::memory_order_relaxed) ? BarrierMode::kFence
                                                           : BarrierMode::kMembarrier;
}

const char* barrier_mode_name(BarrierMode mode) noexcept {
  return mode == BarrierMode::kMembarrier ? "membarrier" : "fence";
}

}  // namespace weft::detail
