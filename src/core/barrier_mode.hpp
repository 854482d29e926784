// Which store-load barrier the concurrent steal protocol's thieves use (task_stack.hpp, "Why
// I2 holds"): membarrier, so that owners need only a compiler barrier, or a seq_cst fence on
// both sides (Cilk-5's THE protocol) where membarrier is unavailable, in ThreadSanitizer
// builds (TSan does not model it), or when WEFT_BARRIER=fence asks for it (for testing).
#pragma once

namespace weft::detail {

enum class BarrierMode { kMembarrier, kFence };

// Decides the mode once per process and publishes it to g_pop_needs_fence. Idempotent and
// thread-safe; call before starting workers. Throws ConfigError for a bad WEFT_BARRIER.
BarrierMode init_barrier_mode();

BarrierMode barrier_mode() noexcept;
const char* barrier_mode_name(BarrierMode mode) noexcept;

}  // namespace weft::detail
