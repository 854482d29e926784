// The heavy half of an asymmetric store-load barrier: membarrier(2) makes every running
// thread of the process execute a full memory barrier before it returns, so the other side
// of a Dekker pair may get away with a compiler barrier. Only the primitive lives here; which
// protocol uses it, and when a seq_cst fence stands in for it, is core's decision
// (src/tasks/barrier_mode.*).
#pragma once

namespace weft::platform {

// Whether this kernel has MEMBARRIER_CMD_PRIVATE_EXPEDITED, registering the process for it
// the first time it is asked (thread-safe; the answer does not change afterwards).
bool expedited_membarrier_available() noexcept;

// Every running thread of this process executes a full memory barrier before this returns.
// Only after expedited_membarrier_available() said true.
void membarrier_all_threads() noexcept;

}  // namespace weft::platform
