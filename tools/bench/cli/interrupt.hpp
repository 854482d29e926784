// What an interrupted weft-bench does with the peer it is running. The peers are separate
// processes (peer_process.hpp): a SIGINT, SIGTERM or SIGHUP sent to weft-bench alone (kill,
// timeout(1), a CI runner) would otherwise end weft-bench and leave the peer running with
// nobody to wait for it. With the handlers installed, weft-bench passes the signal on to the
// running peer and then dies of that same signal, so its exit status still says why. A
// SIGKILL has no handler: for it, each peer is started with a parent-death signal
// (peer_process.cpp), so the kernel ends the peer when weft-bench dies.
#pragma once

#include <sys/types.h>

namespace bench_cli {

// Installs the handlers for SIGINT, SIGTERM and SIGHUP (main calls it once). A signal that
// was ignored when weft-bench started (nohup, a background job) stays ignored.
void forward_interrupts_to_children();

// The running child's record, kept by run_program. Between begin_child_spawn() and
// child_started() a signal is held back rather than lost: child_started() then sends it to
// the new child and ends weft-bench with it, and child_not_started() ends weft-bench with
// it (neither then returns).
void begin_child_spawn();
void child_started(pid_t pid);
void child_not_started();
// After the child has exited and before it is reaped, so that its pid, which is free again
// after the reaping, is never signalled.
void child_finished();

}  // namespace bench_cli
