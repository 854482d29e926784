// The barrier mode of the task stacks (see task_stack.hpp): with membarrier, stacks are
// biased towards their owners (no fence on the owner's pop) and a thief revokes a bias with
// detail::revoke_bias_barrier(); without it, every pop and claim uses a seq_cst fence.
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
