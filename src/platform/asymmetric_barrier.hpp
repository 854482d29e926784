// The heavy half of an asymmetric store-load barrier (see task_stack.hpp): a thief calls
// heavy_barrier() where a symmetric protocol would put a seq_cst fence, and the owner gets
// away with a compiler barrier.
#pragma once

namespace weft::platform {

enum class BarrierMode { kMembarrier, kFence };

// Decides the mode once per process (membarrier if the kernel has
// MEMBARRIER_CMD_PRIVATE_EXPEDITED and WEFT_BARRIER does not say "fence"; a seq_cst fence
// in ThreadSanitizer builds, which do not model membarrier) and publishes it to
// detail::g_pop_needs_fence. Idempotent and thread-safe; call before starting workers.
BarrierMode init_asymmetric_barrier();

BarrierMode barrier_mode() noexcept;
const char* barrier_mode_name(BarrierMode mode) noexcept;

}  // namespace weft::platform
