/* fib(n) through weft's C interface on `runtime`, with weft_spawn/weft_join (nothrow 0) or
 * weft_spawn_nothrow/weft_join_nothrow (1); -1 if weft_run fails. */
#ifndef WEFT_BENCH_FIB_C_H
#define WEFT_BENCH_FIB_C_H

#include <stdint.h>

#include "weft/weft.h"

#ifdef __cplusplus
extern "C" {
#endif

intptr_t fib_c(weft_runtime* runtime, intptr_t n, int nothrow);

#ifdef __cplusplus
}
#endif

#endif
