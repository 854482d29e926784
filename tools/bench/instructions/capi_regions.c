/* The C interface's regions (capi_regions.h): the fib of tools/bench/capi/fib_c.c, and the plain C
 * recursion with the same signature as its baseline. */
#include "capi_regions.h"

#include <valgrind/callgrind.h>

static void* fib_serial(void* arg) {
  intptr_t n = (intptr_t)arg;
  if (n < 2) return arg;
  return (void*)((intptr_t)fib_serial((void*)(n - 1)) + (intptr_t)fib_serial((void*)(n - 2)));
}

static void* fib_spawn(void* arg) {
  intptr_t n = (intptr_t)arg;
  if (n < 2) return arg;
  weft_future f = weft_spawn(fib_spawn, (void*)(n - 1));
  intptr_t b = (intptr_t)fib_spawn((void*)(n - 2));
  return (void*)((intptr_t)weft_join(&f) + b);
}

static void* fib_nothrow(void* arg) {
  intptr_t n = (intptr_t)arg;
  if (n < 2) return arg;
  weft_future f = weft_spawn_nothrow(fib_nothrow, (void*)(n - 1));
  intptr_t b = (intptr_t)fib_nothrow((void*)(n - 2));
  return (void*)((intptr_t)weft_join_nothrow(&f) + b);
}

/* The root task's argument: the form, n, and whether to count. */
struct root_arg {
  void* (*fib)(void*);
  intptr_t n;
  int counted;
};

/* The empty asm statements pin the recursion between the two toggles: n comes out of one
 * after the first toggle, and the result goes into one before the second (GCC may find
 * fib_serial pure and move a call of it across a toggle otherwise). */
static void* root(void* p) {
  const struct root_arg* a = (const struct root_arg*)p;
  void* n = (void*)a->n;
  if (a->counted) CALLGRIND_TOGGLE_COLLECT;
  __asm__ volatile("" : "+r"(n));
  void* r = a->fib(n);
  __asm__ volatile("" : : "r"(r));
  if (a->counted) CALLGRIND_TOGGLE_COLLECT;
  return r;
}

intptr_t weft_instructions_c_fib(weft_runtime* runtime, int form, intptr_t n, int counted) {
  struct root_arg a;
  a.fib = form == WEFT_INSTRUCTIONS_C_NOTHROW ? fib_nothrow
          : form == WEFT_INSTRUCTIONS_C_SPAWN ? fib_spawn
                                              : fib_serial;
  a.n = n;
  a.counted = counted;
  void* result = NULL;
  if (weft_run(runtime, root, &a, &result) != WEFT_OK) return -1;
  return (intptr_t)result;
}
