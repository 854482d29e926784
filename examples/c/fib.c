/* fib(n) through weft's C interface: the runtime, a root task, and spawn/join at every node.
 * Checks the result against an iterative fib and prints it with the time.
 *   usage: weft-c-fib [n] [workers]      (defaults: 35, the WEFT_* environment's) */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "weft/weft.h"

static void* fib(void* arg) {
  intptr_t n = (intptr_t)arg;
  if (n < 2) return arg;
  weft_future f = weft_spawn(fib, (void*)(n - 1));
  intptr_t b = (intptr_t)fib((void*)(n - 2));
  return (void*)((intptr_t)weft_join(&f) + b);
}

static intptr_t fib_iterative(intptr_t n) {
  intptr_t a = 0, b = 1;
  for (intptr_t i = 0; i < n; ++i) {
    intptr_t next = a + b;
    a = b;
    b = next;
  }
  return a;
}

int main(int argc, char** argv) {
  char* end = NULL;
  long n = argc > 1 ? strtol(argv[1], &end, 10) : 35;
  if (argc > 1 && (*end != '\0' || n < 0 || n > 60)) {
    fprintf(stderr, "weft-c-fib: n '%s': expected 0 to 60\n", argv[1]);
    return 2;
  }
  weft_config config;
  char err[256];
  if (weft_config_from_env(&config, err, sizeof err) != WEFT_OK) {
    fprintf(stderr, "weft-c-fib: %s\n", err);
    return 2;
  }
  if (argc > 2) config.workers = (unsigned)strtoul(argv[2], NULL, 10);
  weft_runtime* rt = weft_runtime_create(&config);
  if (rt == NULL) {
    fprintf(stderr, "weft-c-fib: %s\n", weft_last_error());
    return 2;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  void* result = NULL;
  int status = weft_run(rt, fib, (void*)(intptr_t)n, &result);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  weft_runtime_destroy(rt);
  if (status != WEFT_OK) {
    fprintf(stderr, "weft-c-fib: %s\n", weft_last_error());
    return 1;
  }
  const double seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  const intptr_t expected = fib_iterative(n);
  printf("fib(%ld) = %ld in %.4f s (%s)\n", n, (long)(intptr_t)result, seconds,
         (intptr_t)result == expected ? "correct" : "WRONG");
  return (intptr_t)result == expected ? 0 : 1;
}
