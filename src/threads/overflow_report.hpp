// A user-level thread that overflows its stack dies with a sentence naming it, its stack's
// size and the variable that sets it, instead of a bare SIGSEGV: the core's lookup for the
// platform's guard-fault handler (platform/guard_fault.hpp).
#pragma once

namespace weft::detail {

// Installs the handler once per process (every Runtime calls it; the first one installs).
// Under AddressSanitizer nothing is installed: ASan reports the overflow itself.
void install_overflow_report() noexcept;

}  // namespace weft::detail
