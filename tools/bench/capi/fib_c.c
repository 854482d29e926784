/* fib through weft's C interface, compiled as C: what weft-capi-fib times against the same
 * fib written with weft::spawn in C++, once with weft_spawn/weft_join (the exception boundary
 * in the library) and once with weft_spawn_nothrow/weft_join_nothrow (inline). */
#include "fib_c.h"

static void* fib_task(void* arg) {
  intptr_t n = (intptr_t)arg;
  if (n < 2) return arg;
  weft_future f = weft_spawn(fib_task, (void*)(n - 1));
  intptr_t b = (intptr_t)fib_task((void*)(n - 2));
  return (void*)((intptr_t)weft_join(&f) + b);
}

static void* fib_task_nothrow(void* arg) {
  intptr_t n = (intptr_t)arg;
  if (n < 2) return arg;
  weft_future f = weft_spawn_nothrow(fib_task_nothrow, (void*)(n - 1));
  intptr_t b = (intptr_t)fib_task_nothrow((void*)(n - 2));
  return (void*)((intptr_t)weft_join_nothrow(&f) + b);
}

intptr_t fib_c(weft_runtime* runtime, intptr_t n, int nothrow) {
  void* result = NULL;
  if (weft_run(runtime, nothrow ? fib_task_nothrow : fib_task, (void*)n, &result) != WEFT_OK)
    return -1;
  return (intptr_t)result;
}
