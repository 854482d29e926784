/* fib(n) through weft's C interface on `runtime`; -1 if weft_run fails. */
#ifndef WEFT_BENCH_FIB_C_H
#define WEFT_BENCH_FIB_C_H

#include <stdint.h>

#include "weft/weft.h"

#ifdef __cplusplus
extern "C" {
#endif

intptr_t fib_c(weft_runtime* runtime, intptr_t n);

#ifdef __cplusplus
}
#endif

#endif
