/* fib through weft's C interface, compiled as C: what weft-capi-fib times against the same
 * fib written with weft::spawn in C++. */
#include "fib_c.h"

static void* fib_task(void* arg) {
  intptr_t n = (intptr_t)arg;
  if (n < 2) return arg;
  weft_future f = weft_spawn(fib_task, (void*)(n - 1));
  intptr_t b = (intptr_t)fib_task((void*)(n - 2));
  return (void*)((intptr_t)weft_join(&f) + b);
}

intptr_t fib_c(weft_runtime* runtime, intptr_t n) {
  void* result = NULL;
  if (weft_run(runtime, fib_task, (void*)n, &result) != WEFT_OK) return -1;
  return (intptr_t)result;
}
