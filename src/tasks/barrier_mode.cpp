#include "tasks/barrier_mode.hpp"

#include <atomic>
#include <mutex>
#include <string>

#include "model/config_fields.hpp"
#include "platform/asymmetric_barrier.hpp"
#include "platform/monotonic_clock.hpp"
#include "weft/detail/sanitizers.hpp"
#include "weft/detail/task_stack.hpp"

namespace weft::detail {

// Starts true (safe) and is lowered once membarrier is known to work. relaxed loads suffice:
// it is written before any worker thread starts, and thread creation orders the two.
std::atomic<bool> g_pop_needs_fence{true};

namespace {
// The membarrier's cost, a running average of the thieves' timings (each new one weighs
// 1/8). relaxed: a statistic; a lost update only delays the average.
std::atomic<std::uint64_t> g_membarrier_ns{0};
// Windows fixed by a test (set_barrier_switching), and whether they are.
std::atomic<bool> g_switching_fixed{false};
std::atomic<std::uint64_t> g_fixed_fence_within_ns{0};
std::atomic<std::uint64_t> g_fixed_unfence_after_ns{0};
std::atomic<std::uint32_t> g_fixed_recheck_pops{kRecheckPops};

void note_membarrier_ns(std::uint64_t ns) noexcept {
  const std::uint64_t old = g_membarrier_ns.load(std::memory_order_relaxed);
  g_membarrier_ns.store(old == 0 ? ns : old - old / 8 + ns / 8, std::memory_order_relaxed);
}
}  // namespace

std::uint64_t thief_store_load_barrier(bool fenced) noexcept {
  if (fenced || g_pop_needs_fence.load(std::memory_order_relaxed)) {
    std::atomic_thread_fence(std::memory_order_seq_cst);  // pairs with the owner's fence
    return 0;
  }
  // Pairs with the owner's compiler barrier in TaskStack::pop_top().
  const std::uint64_t start = platform::monotonic_ns();
  platform::membarrier_all_threads();
  const std::uint64_t end = platform::monotonic_ns();  // never 0: the clock counts from boot
  note_membarrier_ns(end - start);
  return end;
}

std::uint64_t membarrier_cost_ns() noexcept {
  return g_membarrier_ns.load(std::memory_order_relaxed);
}

BarrierSwitching barrier_switching() noexcept {
  if (g_switching_fixed.load(std::memory_order_relaxed)) {
    return {g_fixed_fence_within_ns.load(std::memory_order_relaxed),
            g_fixed_unfence_after_ns.load(std::memory_order_relaxed),
            g_fixed_recheck_pops.load(std::memory_order_relaxed)};
  }
  const std::uint64_t cost = g_membarrier_ns.load(std::memory_order_relaxed);
  return {kFenceWithinCosts * cost, kUnfenceAfterCosts * cost, kRecheckPops};
}

void set_barrier_switching(const BarrierSwitching& fixed) noexcept {
  g_fixed_fence_within_ns.store(fixed.fence_within_ns, std::memory_order_relaxed);
  g_fixed_unfence_after_ns.store(fixed.unfence_after_ns, std::memory_order_relaxed);
  g_fixed_recheck_pops.store(fixed.recheck_pops == 0 ? 1 : fixed.recheck_pops,
                             std::memory_order_relaxed);
  g_switching_fixed.store(true, std::memory_order_relaxed);
}

void reset_barrier_switching() noexcept {
  g_switching_fixed.store(false, std::memory_order_relaxed);
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
