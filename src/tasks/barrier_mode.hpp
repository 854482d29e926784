// Which store-load barrier the concurrent steal protocol's thieves use (task_stack.hpp, "Why
// TS2 holds"): membarrier, so that owners need only a compiler barrier, or a seq_cst fence on
// both sides (Cilk-5's THE protocol) where membarrier is unavailable, in ThreadSanitizer
// builds (TSan does not model it), or when Config::barrier (WEFT_BARRIER) asks for it.
#pragma once

#include <atomic>
#include <cstdint>

#include "model/barrier_switching.hpp"
#include "weft/config.hpp"

namespace weft::detail {

// Set once per process before any worker runs: true when the owner's pop must use a real
// store-load fence because the asymmetric (membarrier) barrier is unavailable or not wanted.
extern std::atomic<bool> g_pop_needs_fence;

// The thief's half of the Dekker pair against a stack that is `fenced`: a seq_cst fence
// there, membarrier elsewhere. Returns 0 for a fence, and for a membarrier the monotonic_ns()
// it ended at; its duration feeds the switching windows' estimate below.
std::uint64_t thief_store_load_barrier(bool fenced) noexcept;

// The windows now in force (the rule and its constants: model/barrier_switching.hpp).
BarrierSwitching barrier_switching() noexcept;
// M itself, in ns: the process's running average of its thieves' membarrier timings (0 until
// one has been timed). Stats::membarrier_ns reports it.
std::uint64_t membarrier_cost_ns() noexcept;
// Tests: fixes the windows (no estimate) until reset_barrier_switching(). Call while no
// runtime runs.
void set_barrier_switching(const BarrierSwitching& fixed) noexcept;
void reset_barrier_switching() noexcept;

enum class BarrierMode { kMembarrier, kFence };

// The process's mode, decided by the first call from `requested` (kAuto: membarrier where it
// works) and published to g_pop_needs_fence; Pool's constructor calls it before starting
// workers. Thread-safe. Throws ConfigError, naming Config::barrier and WEFT_BARRIER, when
// `requested` is kMembarrier and membarrier is unavailable, or when the mode was already
// decided and `requested` names the other one (the mode is process-wide; kAuto accepts
// either). A call that throws decides nothing.
BarrierMode init_barrier_mode(Barrier requested);

// The mode decided (kFence before any init_barrier_mode).
BarrierMode barrier_mode() noexcept;
const char* barrier_mode_name(BarrierMode mode) noexcept;

}  // namespace weft::detail
