/* A walk of an unbalanced tree through weft's C interface, every child a task. The tree has
 * the shape of UTS's geometric trees (each node's children follow a geometric distribution
 * whose mean shrinks linearly with depth, to nothing at the maximum depth), but its node ids
 * come from a splitmix64 stream instead of SHA-1, so the example needs nothing but weft.
 * The parallel count is checked against the same walk outside any runtime, where weft_spawn
 * runs each task at once (serial elision).
 *   usage: weft-c-uts-walk [depth] [workers]      (defaults: 18, the WEFT_* environment's) */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "weft/weft.h"

enum { kMaxChildren = 64 };
static const double kRootMean = 4.0; /* children of the root, on average */
static int max_depth = 18;

typedef struct node {
  uint64_t id;
  int depth;
} node;

static uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/* Geometric with mean m: count successes of trials that go on with probability m / (1 + m). */
static int children_of(const node* n) {
  const double mean = kRootMean * (1.0 - (double)n->depth / (double)max_depth);
  if (mean <= 0) return 0;
  const double go_on = mean / (1.0 + mean);
  uint64_t stream = n->id;
  int k = 0;
  while (k < kMaxChildren) {
    stream = splitmix64(stream);
    if ((double)(stream >> 11) * (1.0 / 9007199254740992.0) >= go_on) break;
    ++k;
  }
  return k;
}

static void* walk(void* arg) {
  const node* n = (const node*)arg;
  const int k = children_of(n);
  node kids[kMaxChildren];
  weft_future f[kMaxChildren];
  for (int i = 0; i < k; ++i) {
    kids[i].id = splitmix64(n->id ^ (uint64_t)(i + 1) * 0xD1B54A32D192ED03ull);
    kids[i].depth = n->depth + 1;
    f[i] = weft_spawn(walk, &kids[i]);
  }
  uintptr_t count = 1;
  for (int i = k - 1; i >= 0; --i) count += (uintptr_t)weft_join(&f[i]); /* newest first */
  return (void*)count;
}

int main(int argc, char** argv) {
  if (argc > 1) {
    char* end = NULL;
    const long d = strtol(argv[1], &end, 10);
    if (*end != '\0' || d < 1 || d > 24) {
      fprintf(stderr, "weft-c-uts-walk: depth '%s': expected 1 to 24\n", argv[1]);
      return 2;
    }
    max_depth = (int)d;
  }
  weft_config config;
  char err[256];
  if (weft_config_from_env(&config, err, sizeof err) != WEFT_OK) {
    fprintf(stderr, "weft-c-uts-walk: %s\n", err);
    return 2;
  }
  if (argc > 2) config.workers = (unsigned)strtoul(argv[2], NULL, 10);
  node root = {0x5eed, 0};
  const uintptr_t serial = (uintptr_t)walk(&root); /* no runtime: serial elision */
  weft_runtime* rt = weft_runtime_create(&config);
  if (rt == NULL) {
    fprintf(stderr, "weft-c-uts-walk: %s\n", weft_last_error());
    return 2;
  }
  void* parallel = NULL;
  const int status = weft_run(rt, walk, &root, &parallel);
  char stats[4096];
  weft_stats_json(rt, stats, sizeof stats);
  weft_runtime_destroy(rt);
  if (status != WEFT_OK) {
    fprintf(stderr, "weft-c-uts-walk: %s\n", weft_last_error());
    return 1;
  }
  printf("depth %d: %lu nodes in parallel, %lu serially (%s)\n%s\n", max_depth,
         (unsigned long)(uintptr_t)parallel, (unsigned long)serial,
         (uintptr_t)parallel == serial ? "equal" : "DIFFERENT", stats);
  return (uintptr_t)parallel == serial ? 0 : 1;
}
