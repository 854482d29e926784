/* weft's C interface: a runtime, a root task, and spawn/join with the C++ interface's rules,
 * for C programs and for any language whose foreign-function interface speaks C. C11 or
 * C++; link with libweft (pkg-config --cflags --libs weft).
 *
 *   static void* fib(void* arg) {
 *     intptr_t n = (intptr_t)arg;
 *     if (n < 2) return arg;
 *     weft_future f = weft_spawn(fib, (void*)(n - 1));
 *     intptr_t b = (intptr_t)fib((void*)(n - 2));
 *     return (void*)((intptr_t)weft_join(&f) + b);
 *   }
 *   weft_config c = weft_config_default();
 *   c.workers = 2;
 *   weft_runtime* rt = weft_runtime_create(&c);     NULL: weft_last_error() says why
 *   void* result;
 *   if (weft_run(rt, fib, (void*)35, &result) != WEFT_OK) ...
 *   weft_runtime_destroy(rt);
 *
 * The rules of spawn and join are weft::spawn's (weft/future.hpp):
 *   - Join futures in the reverse order of their spawns (LIFO), in the task that spawned
 *     them. A violation ends the program with a message saying so, as in C++.
 *   - Outside a runtime, weft_spawn runs the task at once (serial elision) and weft_join
 *     returns its result; so does a spawn that finds its worker's task stack full.
 *   - A spawn costs a C++ spawn and a call: the task is the two words (fn, arg) in the
 *     worker's task stack, never allocated. weft_spawn_nothrow and weft_join_nothrow (at
 *     the end of this header) are the same, inline, for tasks that cannot throw.
 *   - Every future must be joined: C has no destructor to join it for you.
 * Errors are return codes; a call that fails also records, for the calling thread, its
 * status and message (weft_last_status(), weft_last_error()), which stay until the next
 * failure or weft_clear_error(), like errno. A C++ exception that a task throws (C++ code
 * called through this interface) never crosses into C: weft_join and weft_run catch it and
 * report it as WEFT_ERROR_EXCEPTION.
 */
#ifndef WEFT_WEFT_H
#define WEFT_WEFT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What a call can report. */
typedef enum weft_status {
  WEFT_OK = 0,
  WEFT_ERROR_ARGUMENT = 1,  /* a NULL or out-of-range argument */
  WEFT_ERROR_CONFIG = 2,    /* a configuration value weft refuses */
  WEFT_ERROR_EXCEPTION = 3, /* a task threw a C++ exception */
  WEFT_ERROR_TRUNCATED = 4, /* the output did not fit the buffer given */
  WEFT_ERROR_RESOURCE = 5   /* memory or threads could not be had */
} weft_status;

/* The settings a C program can choose; the others keep weft::Config's defaults (loops and
 * user-level threads are not part of this interface). Strings are NUL-terminated. */
typedef struct weft_config {
  unsigned workers;          /* worker threads; 0: one per hardware thread */
  char steal[32];            /* "adaptive" (default), "one", "half" or "fixed:D" */
  char mechanism[16];        /* "concurrent" (default) or "request" */
  uint64_t seed;             /* the victims' random streams */
  int pin;                   /* 0: never, 1: worker i on the i-th allowed CPU, 2: (default)
                                when the workers are as many as the allowed CPUs */
  size_t worker_stack_bytes; /* each worker's stack; 64 KiB to 1 GiB */
  size_t task_slots;         /* task slots per worker; 0: from the stack size */
  int profile;               /* 1: keep the busy/steal/idle/switch profile */
  int count_spawns;          /* 1: count spawns in the stats (implied by profile) */
} weft_config;

/* weft::Config's defaults. */
weft_config weft_config_default(void);

/* Reads the WEFT_* environment variables (WEFT_WORKERS, WEFT_STEAL, WEFT_MECHANISM,
 * WEFT_SEED, WEFT_PIN, WEFT_STACK_SIZE, WEFT_TASK_SLOTS, WEFT_PROFILE, WEFT_COUNT_SPAWNS,
 * and checks every other one weft reads) over the defaults into *config. WEFT_OK, or
 * WEFT_ERROR_CONFIG with the message (e.g. 'WEFT_WORKERS="abc": expected ...') in err[0..n),
 * NUL-terminated, truncated to fit; err may be NULL when n is 0. */
int weft_config_from_env(weft_config* config, char* err, size_t n);

typedef struct weft_runtime weft_runtime;

/* Starts the workers; NULL on error (weft_last_error() says which). config NULL: defaults. */
weft_runtime* weft_runtime_create(const weft_config* config);
/* Joins the workers. No weft_run may be in progress. NULL is ignored. */
void weft_runtime_destroy(weft_runtime* runtime);

/* Runs fn(arg) as the root task on a worker, waits for it, and stores its return value in
 * *result (result may be NULL). Callable from any thread. */
int weft_run(weft_runtime* runtime, void* (*fn)(void*), void* arg, void** result);

/* A spawned task's handle: one word, kept by value; its contents are weft's. */
typedef struct weft_future {
  uintptr_t opaque;
} weft_future;

/* Makes fn(arg) a task that the current worker's thieves may steal. fn NULL: an empty future
 * (its join reports WEFT_ERROR_ARGUMENT) and WEFT_ERROR_ARGUMENT. */
weft_future weft_spawn(void* (*fn)(void*), void* arg);
/* Waits for the task and returns fn's value; runs it here if no thief took it, and empties
 * the future. Returns NULL and records WEFT_ERROR_EXCEPTION if the task threw a C++
 * exception, WEFT_ERROR_ARGUMENT for a NULL or empty (joined, zeroed) future: to tell those
 * from a task that returned NULL, call weft_clear_error() first. */
void* weft_join(weft_future* future);

/* Under the request mechanism, answers pending steal requests; call it in long stretches of
 * code without spawns or joins. Anywhere else it costs a load and a branch. */
void weft_poll(void);

/* The runtime's counters (and profile) as weft::Stats::json() writes them, NUL-terminated,
 * into buf[0..n). WEFT_ERROR_TRUNCATED (with as much as fits) when n is too small. */
int weft_stats_json(const weft_runtime* runtime, char* buf, size_t n);

/* The calling thread's last failure: its message ("" if none; valid until the thread's next
 * failure or clear) and its status (WEFT_OK if none). */
const char* weft_last_error(void);
int weft_last_status(void);
void weft_clear_error(void);

/* ---- Spawn and join inline, for tasks that never throw --------------------------------
 * weft_spawn_nothrow and weft_join_nothrow are weft_spawn and weft_join with their common
 * case compiled into the caller: no call into the library, and a join that calls the task
 * itself (through the pointer in its slot), with no library frame around it. What they give
 * up is the exception boundary. A task that weft_join_nothrow runs itself (one no thief
 * took) is called from the caller's frame, so a C++ exception from it would unwind through
 * C frames and leave their unjoined futures behind: use them only for tasks that cannot
 * throw (C functions, C++ that catches everything). A task that a thief ran is joined as
 * weft_join joins it, exception report included. In every other way they are weft_spawn and
 * weft_join: the same futures (either join takes a future from either spawn), the LIFO rule
 * and its abort, serial elision, a full task stack, NULL arguments.
 * The inline code reads the worker's task stack at the offsets below, those of the libweft
 * this header came with (src/capi/capi_spawn.cpp checks them when libweft is compiled); none
 * of the weft_detail_ names is API. In C++ translation units, and where the compiler is not
 * GCC or Clang with 64-bit pointers, the two are plain calls of weft_spawn and weft_join. */
#define WEFT_DETAIL_TAIL 0    /* the newest task's slot + 1 (TaskStack::tail_) */
#define WEFT_DETAIL_HEAD 128  /* H, or above every slot (TaskStack::head_) */
#define WEFT_DETAIL_LIMIT 136 /* below it a spawn may push (TaskStack::limit_) */
#define WEFT_DETAIL_SLOT_BYTES 64
#define WEFT_DETAIL_SLOT_FN 16 /* the C task in the slot's storage: fn, then arg */
#define WEFT_DETAIL_SLOT_ARG 24

#if !defined(__cplusplus) && defined(__GNUC__) && __SIZEOF_POINTER__ == 8
#if defined(__SANITIZE_THREAD__)
#define WEFT_DETAIL_INLINE_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define WEFT_DETAIL_INLINE_TSAN 1
#endif
#endif

/* The C++ runtime's pointer to the running worker (weft::detail::tls_worker). */
extern __thread char* weft_detail_worker __asm__("_ZN4weft6detail10tls_workerE")
    __attribute__((tls_model("initial-exec")));
/* What a thief calls to run a C task (its type is C++'s; only its address is taken here). */
void weft_detail_c_exec(void);
/* The join's slow path after the inline pop found a thief at the slot. */
void* weft_detail_join_popped(uintptr_t word);
/* weft_join of a future's word (the caller has emptied the future): by value, so that the
 * caller's future need not live in memory. */
void* weft_detail_join_word(uintptr_t word);

/* a >= *word and a == *word, *word read relaxed. On x86-64 one compare against memory, as the
 * C++ task stack's checks are (task_stack.hpp: compilers fold no atomic load into a compare;
 * an aligned 8-byte read is single-copy atomic there); elsewhere, and under ThreadSanitizer,
 * the atomic load. */
#if defined(__x86_64__) && !defined(WEFT_DETAIL_INLINE_TSAN)
static inline int weft_detail_at_or_above(const char* a, char* const* word) {
  _Bool r;
  __asm__ __volatile__("cmpq %2, %1" : "=@ccae"(r) : "r"(a), "m"(*word));
  return r;
}
static inline int weft_detail_equals(const char* a, char* const* word) {
  _Bool r;
  __asm__ __volatile__("cmpq %2, %1" : "=@cce"(r) : "r"(a), "m"(*word));
  return r;
}
#else
static inline int weft_detail_at_or_above(const char* a, char* const* word) {
  return a >= __atomic_load_n(word, __ATOMIC_RELAXED);
}
static inline int weft_detail_equals(const char* a, char* const* word) {
  return a == __atomic_load_n(word, __ATOMIC_RELAXED);
}
#endif

static inline weft_future weft_spawn_nothrow(void* (*fn)(void*), void* arg) {
  char* const w = weft_detail_worker;
  /* relaxed: the owner's own variable, and a thief's limit seen late is seen next time. */
  char* const top = __atomic_load_n((char**)(w + WEFT_DETAIL_TAIL), __ATOMIC_RELAXED);
  if (__builtin_expect(fn == NULL || weft_detail_at_or_above(top, (char**)(w + WEFT_DETAIL_LIMIT)),
                       0))
    return weft_spawn(fn, arg);
  *(void* (**)(void*))(top + WEFT_DETAIL_SLOT_FN) = fn;
  *(void**)(top + WEFT_DETAIL_SLOT_ARG) = arg;
  *(void (**)(void))top = weft_detail_c_exec;
  /* release: the task written above happens-before a thief's acquire load of the tail. */
  __atomic_store_n((char**)(w + WEFT_DETAIL_TAIL), top + WEFT_DETAIL_SLOT_BYTES, __ATOMIC_RELEASE);
  weft_future f = {(uintptr_t)top};
  return f;
}

static inline void* weft_join_nothrow(weft_future* future) {
  if (__builtin_expect(future != NULL, 1)) {
    const uintptr_t word = future->opaque;
    future->opaque = 1; /* empty */
    char* const w = weft_detail_worker;
    /* The newest task's slot, and only it, may be popped here; any other word (empty, a
     * task that ran at its spawn, an out-of-order join) goes to weft_join. */
    if (__builtin_expect(weft_detail_equals((char*)(word + WEFT_DETAIL_SLOT_BYTES),
                                            (char**)(w + WEFT_DETAIL_TAIL)),
                         1)) {
      char* const slot = (char*)word;
      /* relaxed, then a compiler barrier before the head's load: the thief's membarrier
       * pairs with it (docs/TASK_STACK.md). On a stack whose pop needs a full fence the head
       * read here is above every slot, so weft_detail_join_popped fences and decides. */
      __atomic_store_n((char**)(w + WEFT_DETAIL_TAIL), slot, __ATOMIC_RELAXED);
      __atomic_signal_fence(__ATOMIC_SEQ_CST);
      if (__builtin_expect(weft_detail_at_or_above(slot, (char**)(w + WEFT_DETAIL_HEAD)), 1)) {
        void* (*const fn)(void*) = *(void* (**)(void*))(slot + WEFT_DETAIL_SLOT_FN);
        return fn(*(void**)(slot + WEFT_DETAIL_SLOT_ARG));
      }
      return weft_detail_join_popped(word);
    }
    return weft_detail_join_word(word);
  }
  return weft_join(future);
}
#else
static inline weft_future weft_spawn_nothrow(void* (*fn)(void*), void* arg) {
  return weft_spawn(fn, arg);
}
static inline void* weft_join_nothrow(weft_future* future) { return weft_join(future); }
#endif

#ifdef __cplusplus
}
#endif

#endif /* WEFT_WEFT_H */
