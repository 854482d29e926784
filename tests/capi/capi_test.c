/* weft's C interface, compiled as C11: every function, its bad arguments, serial elision, a
 * full task stack, the configuration from the environment, and the statistics buffer; the
 * inline weft_spawn_nothrow/weft_join_nothrow likewise, mixed with the others. With the
 * argument "stress", only the stress: fib and a full stack through the inline forms on 2 to 8
 * workers (oversubscribed) under both steal mechanisms, many times, so that thieves meet the
 * inline join's pop. A minimal harness: CHECK prints the failed condition and the test goes
 * on; the exit status is the number of failures. */
#define _POSIX_C_SOURCE 200809L /* setenv */

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "weft/weft.h"

static int failures = 0;
#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

static void* fib(void* arg) {
  intptr_t n = (intptr_t)arg;
  if (n < 2) return arg;
  weft_future f = weft_spawn(fib, (void*)(n - 1));
  intptr_t b = (intptr_t)fib((void*)(n - 2));
  return (void*)((intptr_t)weft_join(&f) + b);
}

/* fib through the inline forms, counting its calls: a task run twice, or lost, changes the
 * count. */
static atomic_llong calls;
static void* fib_counted(void* arg) {
  atomic_fetch_add_explicit(&calls, 1, memory_order_relaxed);
  intptr_t n = (intptr_t)arg;
  if (n < 2) return arg;
  weft_future f = weft_spawn_nothrow(fib_counted, (void*)(n - 1));
  intptr_t b = (intptr_t)fib_counted((void*)(n - 2));
  return (void*)((intptr_t)weft_join_nothrow(&f) + b);
}

static void* twice(void* arg) { return (void*)(2 * (intptr_t)arg); }

/* Spawns 100 tasks (more than the 16 slots the caller configures), joins them newest first. */
static void* many(void* arg) {
  (void)arg;
  weft_future f[100];
  for (intptr_t i = 0; i < 100; ++i) f[i] = weft_spawn(twice, (void*)i);
  intptr_t sum = 0, ok = 1;
  for (intptr_t i = 99; i >= 0; --i) {
    intptr_t v = (intptr_t)weft_join(&f[i]);
    ok = ok && v == 2 * i;
    sum += v;
  }
  return (void*)(ok ? sum : -1);
}

/* many() through the inline forms, every third future crossing over: spawned by one form and
 * joined by the other. */
static void* many_nothrow(void* arg) {
  (void)arg;
  weft_future f[100];
  for (intptr_t i = 0; i < 100; ++i)
    f[i] = i % 3 == 0 ? weft_spawn(twice, (void*)i) : weft_spawn_nothrow(twice, (void*)i);
  intptr_t sum = 0, ok = 1;
  for (intptr_t i = 99; i >= 0; --i) {
    intptr_t v = (intptr_t)(i % 3 == 1 ? weft_join(&f[i]) : weft_join_nothrow(&f[i]));
    ok = ok && v == 2 * i;
    sum += v;
  }
  return (void*)(ok ? sum : -1);
}

static void test_config_default(void) {
  weft_config c = weft_config_default();
  CHECK(c.workers == 0);
  CHECK(strcmp(c.steal, "adaptive") == 0);
  CHECK(strcmp(c.mechanism, "concurrent") == 0);
  CHECK(c.worker_stack_bytes == (size_t)64 << 20);
  CHECK(c.pin == 2 && c.profile == 0); /* pin: auto */
  CHECK(c.count_spawns == 0);
}

static void test_config_from_env(void) {
  weft_config c;
  char err[256];
  setenv("WEFT_WORKERS", "3", 1);
  setenv("WEFT_STEAL", "half", 1);
  CHECK(weft_config_from_env(&c, err, sizeof err) == WEFT_OK);
  CHECK(c.workers == 3 && strcmp(c.steal, "half") == 0);
  CHECK(err[0] == '\0');
  setenv("WEFT_WORKERS", "abc", 1);
  CHECK(weft_config_from_env(&c, err, sizeof err) == WEFT_ERROR_CONFIG);
  CHECK(strstr(err, "WEFT_WORKERS=\"abc\"") != NULL);
  CHECK(weft_last_status() == WEFT_ERROR_CONFIG);
  char tiny[8];
  CHECK(weft_config_from_env(&c, tiny, sizeof tiny) == WEFT_ERROR_CONFIG);
  CHECK(strlen(tiny) == 7); /* truncated, terminated */
  CHECK(weft_config_from_env(&c, NULL, 0) == WEFT_ERROR_CONFIG);
  unsetenv("WEFT_WORKERS");
  unsetenv("WEFT_STEAL");
  CHECK(weft_config_from_env(NULL, err, sizeof err) == WEFT_ERROR_ARGUMENT);
}

static void test_bad_configs(void) {
  weft_config c = weft_config_default();
  strcpy(c.steal, "bogus");
  weft_clear_error();
  CHECK(weft_runtime_create(&c) == NULL);
  CHECK(weft_last_status() == WEFT_ERROR_CONFIG);
  CHECK(strstr(weft_last_error(), "bogus") != NULL);
  c = weft_config_default();
  memset(c.mechanism, 'x', sizeof c.mechanism); /* no NUL within the field */
  CHECK(weft_runtime_create(&c) == NULL);
  CHECK(strstr(weft_last_error(), "NUL") != NULL);
  c = weft_config_default();
  c.pin = 3;
  CHECK(weft_runtime_create(&c) == NULL);
  CHECK(strstr(weft_last_error(), "pin") != NULL);
  c = weft_config_default();
  c.worker_stack_bytes = 1024; /* below 64 KiB */
  CHECK(weft_runtime_create(&c) == NULL);
  CHECK(weft_last_status() == WEFT_ERROR_CONFIG);
  weft_runtime_destroy(NULL); /* ignored */
}

static void test_run(void) {
  weft_config c = weft_config_default();
  c.workers = 2;
  c.profile = 1;
  weft_runtime* rt = weft_runtime_create(&c);
  CHECK(rt != NULL);
  if (rt == NULL) return;
  void* result = NULL;
  CHECK(weft_run(rt, fib, (void*)20, &result) == WEFT_OK);
  CHECK((intptr_t)result == 6765);
  CHECK(weft_run(rt, fib, (void*)10, NULL) == WEFT_OK);
  weft_clear_error();
  CHECK(weft_run(NULL, fib, (void*)10, &result) == WEFT_ERROR_ARGUMENT);
  CHECK(weft_last_status() == WEFT_ERROR_ARGUMENT);
  CHECK(weft_run(rt, NULL, NULL, &result) == WEFT_ERROR_ARGUMENT);
  char json[8192];
  CHECK(weft_stats_json(rt, json, sizeof json) == WEFT_OK);
  CHECK(json[0] == '{' && strstr(json, "\"spawns\"") != NULL);
  char small[4];
  CHECK(weft_stats_json(rt, small, sizeof small) == WEFT_ERROR_TRUNCATED);
  CHECK(strlen(small) == 3);
  CHECK(weft_stats_json(NULL, json, sizeof json) == WEFT_ERROR_ARGUMENT);
  CHECK(weft_stats_json(rt, NULL, 0) == WEFT_ERROR_ARGUMENT);
  weft_runtime_destroy(rt);
}

static void test_workers_zero_means_every_core(void) {
  weft_config c = weft_config_default();
  c.workers = 0;
  weft_runtime* rt = weft_runtime_create(&c);
  CHECK(rt != NULL);
  void* result = NULL;
  CHECK(weft_run(rt, fib, (void*)15, &result) == WEFT_OK && (intptr_t)result == 610);
  weft_runtime_destroy(rt);
}

static void test_full_task_stack(void) {
  weft_config c = weft_config_default();
  c.workers = 1;
  c.task_slots = 16;
  weft_runtime* rt = weft_runtime_create(&c);
  CHECK(rt != NULL);
  void* result = NULL;
  CHECK(weft_run(rt, many, NULL, &result) == WEFT_OK);
  CHECK((intptr_t)result == 9900);
  weft_runtime_destroy(rt);
}

static void test_serial_elision(void) {
  weft_future f = weft_spawn(twice, (void*)21); /* no runtime: runs at once */
  weft_poll();
  CHECK((intptr_t)weft_join(&f) == 42);
  CHECK((intptr_t)fib((void*)15) == 610);
}

static void test_bad_futures(void) {
  weft_clear_error();
  weft_future f = weft_spawn(NULL, NULL);
  CHECK(weft_last_status() == WEFT_ERROR_ARGUMENT);
  weft_clear_error();
  CHECK(weft_join(&f) == NULL && weft_last_status() == WEFT_ERROR_ARGUMENT);
  weft_future g = weft_spawn(twice, (void*)1);
  CHECK((intptr_t)weft_join(&g) == 2);
  weft_clear_error();
  CHECK(weft_join(&g) == NULL && weft_last_status() == WEFT_ERROR_ARGUMENT); /* twice */
  CHECK(strstr(weft_last_error(), "empty") != NULL);
  weft_future zeroed = {0};
  weft_clear_error();
  CHECK(weft_join(&zeroed) == NULL && weft_last_status() == WEFT_ERROR_ARGUMENT);
  CHECK(weft_join(NULL) == NULL);
  weft_clear_error();
  CHECK(weft_last_status() == WEFT_OK && weft_last_error()[0] == '\0');
}

static void test_nothrow(void) {
  weft_config c = weft_config_default();
  c.workers = 2;
  weft_runtime* rt = weft_runtime_create(&c);
  CHECK(rt != NULL);
  if (rt == NULL) return;
  void* result = NULL;
  CHECK(weft_run(rt, fib_counted, (void*)20, &result) == WEFT_OK && (intptr_t)result == 6765);
  CHECK(weft_run(rt, many_nothrow, NULL, &result) == WEFT_OK && (intptr_t)result == 9900);
  char json[8192];
  CHECK(weft_stats_json(rt, json, sizeof json) == WEFT_OK);
  CHECK(strstr(json, "\"spawns_counted\":false,") != NULL);
  CHECK(strstr(json, "\"total\":{\"spawns\":null,") != NULL);
  weft_runtime_destroy(rt);
  /* Counting: the inline spawn diverts to weft_spawn, which counts; 10945 = fib(20)'s spawns
   * (fib(21) - 1), plus many_nothrow's 100. */
  c.count_spawns = 1;
  rt = weft_runtime_create(&c);
  CHECK(rt != NULL);
  if (rt == NULL) return;
  CHECK(weft_run(rt, fib_counted, (void*)20, &result) == WEFT_OK && (intptr_t)result == 6765);
  CHECK(weft_run(rt, many_nothrow, NULL, &result) == WEFT_OK && (intptr_t)result == 9900);
  CHECK(weft_stats_json(rt, json, sizeof json) == WEFT_OK);
  CHECK(strstr(json, "\"total\":{\"spawns\":11045,") != NULL);
  weft_runtime_destroy(rt);
  c.count_spawns = 2;
  CHECK(weft_runtime_create(&c) == NULL && weft_last_status() == WEFT_ERROR_CONFIG);
  c.count_spawns = 0;
  c.workers = 1;
  c.task_slots = 16; /* many_nothrow spawns 100: the rest run at their spawn */
  rt = weft_runtime_create(&c);
  CHECK(rt != NULL);
  if (rt == NULL) return;
  CHECK(weft_run(rt, many_nothrow, NULL, &result) == WEFT_OK && (intptr_t)result == 9900);
  weft_runtime_destroy(rt);
  /* Outside a runtime: serial elision. */
  weft_future f = weft_spawn_nothrow(twice, (void*)21);
  CHECK((intptr_t)weft_join_nothrow(&f) == 42);
  CHECK((intptr_t)fib_counted((void*)15) == 610);
  /* Bad arguments, as weft_spawn and weft_join report them. */
  weft_clear_error();
  weft_future g = weft_spawn_nothrow(NULL, NULL);
  CHECK(weft_last_status() == WEFT_ERROR_ARGUMENT);
  weft_clear_error();
  CHECK(weft_join_nothrow(&g) == NULL && weft_last_status() == WEFT_ERROR_ARGUMENT);
  weft_clear_error();
  CHECK(weft_join_nothrow(&f) == NULL && weft_last_status() == WEFT_ERROR_ARGUMENT);
  CHECK(strstr(weft_last_error(), "empty") != NULL);
  weft_future zeroed = {0};
  weft_clear_error();
  CHECK(weft_join_nothrow(&zeroed) == NULL && weft_last_status() == WEFT_ERROR_ARGUMENT);
  weft_clear_error();
  CHECK(weft_join_nothrow(NULL) == NULL && weft_last_status() == WEFT_ERROR_ARGUMENT);
  weft_clear_error();
}

/* The tasks thieves took in all of the runtime's runs so far. */
static unsigned long long tasks_stolen(const weft_runtime* rt) {
  char json[8192];
  CHECK(weft_stats_json(rt, json, sizeof json) == WEFT_OK);
  const char* key = "\"tasks_stolen\":";
  const char* at = strstr(json, key);
  CHECK(at != NULL);
  return at == NULL ? 0 : strtoull(at + strlen(key), NULL, 10);
}

/* The inline forms against thieves: each run's result and number of calls are checked, and
 * a configuration runs until its thieves have taken tasks (at least 10 rounds, at most 500:
 * on a loaded machine a sleeping thief may miss a short run), else the inline join's
 * contended path went untested and the test fails. */
static void stress_nothrow(void) {
  static const char* const mechanisms[] = {"concurrent", "request"};
  static const unsigned workers[] = {2, 4, 8};
  for (size_t m = 0; m < 2; ++m) {
    for (size_t k = 0; k < 3; ++k) {
      weft_config c = weft_config_default();
      c.workers = workers[k];
      strcpy(c.mechanism, mechanisms[m]);
      strcpy(c.steal, "one");
      weft_runtime* rt = weft_runtime_create(&c);
      CHECK(rt != NULL);
      if (rt == NULL) continue;
      int round = 0;
      for (; round < 500 && (round < 10 || tasks_stolen(rt) == 0); ++round) {
        void* result = NULL;
        atomic_store(&calls, 0);
        CHECK(weft_run(rt, fib_counted, (void*)25, &result) == WEFT_OK &&
              (intptr_t)result == 75025);
        CHECK(atomic_load(&calls) == 2 * 121393 - 1); /* fib(26) = 121393 */
        CHECK(weft_run(rt, many_nothrow, NULL, &result) == WEFT_OK && (intptr_t)result == 9900);
      }
      const unsigned long long stolen = tasks_stolen(rt);
      printf("%s, %u workers: %llu tasks stolen in %d rounds\n", mechanisms[m], workers[k], stolen,
             round);
      if (stolen == 0) {
        fprintf(stderr, "no task was stolen: %s, %u workers\n", mechanisms[m], workers[k]);
        ++failures;
      }
      weft_runtime_destroy(rt);
    }
  }
}

int main(int argc, char** argv) {
  if (argc > 1 && strcmp(argv[1], "stress") == 0) {
    stress_nothrow();
    if (failures == 0) printf("capi_test stress: all checks passed\n");
    return failures;
  }
  test_config_default();
  test_config_from_env();
  test_bad_configs();
  test_run();
  test_workers_zero_means_every_core();
  test_full_task_stack();
  test_serial_elision();
  test_bad_futures();
  test_nothrow();
  if (failures == 0) printf("capi_test: all checks passed\n");
  return failures;
}
