// The Lace side of weft-lace-fib: Fibonacci written with Lace's SPAWN/CALL/SYNC, compiled as
// C against the Lace checkout the user supplies (scripts/bench_lace.sh). Kept behind plain C
// functions so the C++ driver never sees Lace's macros.
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

// Starts Lace's workers (suspended between runs, so they do not compete with weft's).
void lace_fib_start(unsigned workers);
// fib(n) on Lace's workers, from the calling (non-Lace) thread.
long lace_fib_run(int n);
void lace_fib_stop(void);

#ifdef __cplusplus
}
#endif
