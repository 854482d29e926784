// Fibonacci on Lace, the way Lace's own documentation writes a fork-join task: spawn
// fib(n-1), call fib(n-2) directly, sync. Same types as the serial and weft versions.
#include "fib_lace.h"

#include <lace.h>

TASK_1(long, lace_fib, int, n) {
  if (n < 2) return n;
  SPAWN(lace_fib, n - 1);
  const long b = CALL(lace_fib, n - 2);
  const long a = SYNC(lace_fib);
  return a + b;
}

void lace_fib_start(unsigned workers) {
  // 0: Lace's default task deque size. Lace starts its workers awake (stealing); suspend
  // them until a run wakes them (RUN resumes and suspends again around each run).
  lace_start(workers, 0);
  lace_suspend();
}

long lace_fib_run(int n) { return RUN(lace_fib, n); }

void lace_fib_stop(void) { lace_stop(); }
