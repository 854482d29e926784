/* Joins two futures oldest first inside a task: weft ends the program with the same message
 * as a C++ out-of-order join (the test expects it on stderr). With the argument "nothrow",
 * through weft_spawn_nothrow and weft_join_nothrow. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "weft/weft.h"

static void* identity(void* arg) { return arg; }

/* arg non-NULL: through the inline forms. */
static void* out_of_order(void* arg) {
  const int nothrow = arg != NULL;
  weft_future a = nothrow ? weft_spawn_nothrow(identity, (void*)1) : weft_spawn(identity, (void*)1);
  weft_future b = nothrow ? weft_spawn_nothrow(identity, (void*)2) : weft_spawn(identity, (void*)2);
  /* b is newer: joining a first is out of order */
  intptr_t x = (intptr_t)(nothrow ? weft_join_nothrow(&a) : weft_join(&a));
  intptr_t y = (intptr_t)(nothrow ? weft_join_nothrow(&b) : weft_join(&b));
  return (void*)(x + y);
}

int main(int argc, char** argv) {
  const int nothrow = argc > 1 && strcmp(argv[1], "nothrow") == 0;
  weft_config c = weft_config_default();
  c.workers = 1;
  weft_runtime* rt = weft_runtime_create(&c);
  if (rt == NULL) return 1;
  void* result = NULL;
  weft_run(rt, out_of_order, nothrow ? (void*)1 : NULL, &result);
  weft_runtime_destroy(rt);
  printf("capi_lifo_violation: the out-of-order join was not caught\n");
  return 0;
}
