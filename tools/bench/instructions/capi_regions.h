/* The C interface's regions of weft-instructions, compiled as C (so that weft_spawn_nothrow
 * and weft_join_nothrow are the inline forms weft.h gives C): fib(n) through weft_run on
 * `runtime`, with callgrind's collection on around the recursion only. */
#ifndef WEFT_BENCH_INSTRUCTIONS_CAPI_REGIONS_H
#define WEFT_BENCH_INSTRUCTIONS_CAPI_REGIONS_H

#include <stdint.h>

#include "weft/weft.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which fib: the plain C recursion (the baseline), weft_spawn/weft_join, or
 * weft_spawn_nothrow/weft_join_nothrow. */
enum weft_instructions_c_form {
  WEFT_INSTRUCTIONS_C_SERIAL = 0,
  WEFT_INSTRUCTIONS_C_SPAWN = 1,
  WEFT_INSTRUCTIONS_C_NOTHROW = 2
};

/* fib(n) in `form` as the root task of `runtime`, counted when `counted`; -1 if weft_run
 * fails. */
intptr_t weft_instructions_c_fib(weft_runtime* runtime, int form, intptr_t n, int counted);

#ifdef __cplusplus
}
#endif

#endif
