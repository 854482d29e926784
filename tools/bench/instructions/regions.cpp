#include "regions.hpp"

#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <valgrind/callgrind.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <utility>
#include <weft/context.hpp>
#include <weft/weft.hpp>

#include "capi_regions.h"
#include "workloads/common/fib_reference.hpp"

namespace bench_instructions {
namespace {

// ---- The fork-join forms: fib as tools/bench/lace/weft_lace_fib.cpp writes it ------------------

long serial_fib(int n) {
  if (n < 2) return n;
  return serial_fib(n - 1) + serial_fib(n - 2);
}

long spawn_fib(int n) {
  if (n < 2) return n;
  auto a = weft::spawn([n] { return spawn_fib(n - 1); });
  const long b = spawn_fib(n - 2);
  return a.join() + b;
}

long noexcept_fib(int n) noexcept {
  if (n < 2) return n;
  auto a = weft::spawn([n]() noexcept { return noexcept_fib(n - 1); });
  const long b = noexcept_fib(n - 2);
  return a.join() + b;
}

// spawn_fib with the Future's exception cleanup compiled out: the future kept as its bare word
// (weft's internal form), so nothing would join it if fib(n - 2) threw. Not a form to use; it
// measures what the cleanup alone costs the spawn/join form.
long no_cleanup_fib(int n) {
  if (n < 2) return n;
  const auto task = [n] { return no_cleanup_fib(n - 1); };
  const std::uintptr_t word = weft::detail::spawn_word(task);
  const long b = no_cleanup_fib(n - 2);
  return weft::detail::FutureAccess::join_word<weft::SpawnedFuture<decltype(task)>>(word) + b;
}

long invoke_fib(int n) {
  if (n < 2) return n;
  const auto [a, b] =
      weft::invoke([n] { return invoke_fib(n - 1); }, [n] { return invoke_fib(n - 2); });
  return a + b;
}

// The explicit-context forms (weft/context.hpp): the top of the task stack passed to each
// task in a register.
long ctx_invoke_fib(weft::Ctx c, int n) {
  if (n < 2) return n;
  const auto [a, b] = weft::invoke(
      c, [n](weft::Ctx c) { return ctx_invoke_fib(c, n - 1); },
      [n](weft::Ctx c) { return ctx_invoke_fib(c, n - 2); });
  return a + b;
}
long ctx_invoke_entry(int n) { return ctx_invoke_fib(weft::context(), n); }

long ctx_spawn_fib(weft::Ctx c, int n) {
  if (n < 2) return n;
  auto a = weft::spawn(c, [n](weft::Ctx c) { return ctx_spawn_fib(c, n - 1); });
  const long b = ctx_spawn_fib(c, n - 2);
  return weft::join(c, a) + b;
}
long ctx_spawn_entry(int n) { return ctx_spawn_fib(weft::context(), n); }

// invoke_if whose condition fails at every node (a variable, as a program's cutoff is): against
// the serial recursion, what the test and the untaken parallel branch add to two plain calls.
int g_never = 1 << 30;

long invoke_if_fib(int n) {
  if (n < 2) return n;
  const auto [a, b] = weft::invoke_if(
      n > g_never, [n] { return invoke_if_fib(n - 1); }, [n] { return invoke_if_fib(n - 2); });
  return a + b;
}

// A scope of one child, which writes its result through a capture.
long scope_fib(int n) {
  if (n < 2) return n;
  long a = 0;
  long b = 0;
  weft::scope([&](weft::Scope& s) {
    s.spawn([&a, n] { a = scope_fib(n - 1); });
    b = scope_fib(n - 2);
  });
  return a + b;
}

// A cutoff that never cuts: the spawn path of spawn_if and its MaybeFuture. The bound is a
// variable, as a program's cutoff is, so the compiler cannot decide the test for it.
int g_cutoff = 1;

long spawn_if_fib(int n) {
  if (n < 2) return n;
  auto a = weft::spawn_if(n > g_cutoff, [n] { return spawn_if_fib(n - 1); });
  const long b = spawn_if_fib(n - 2);
  return a.join() + b;
}

// A FutureVector of one future: its vectors' allocations are part of the form's cost.
long future_vector_fib(int n) {
  if (n < 2) return n;
  weft::FutureVector<long> futures;
  futures.spawn([n] { return future_vector_fib(n - 1); });
  const long b = future_vector_fib(n - 2);
  return futures.join_all()[0] + b;
}

// Collection on around f(n) only. The empty asm statements pin the work between the two
// toggles: n comes out of one after the first toggle and the result goes into one before
// the second (GCC may find serial_fib pure and move a call of it across a toggle otherwise).
template <class N, class F>
[[gnu::noinline]] auto counted(bool on, N n, F&& f) {
  if (on) CALLGRIND_TOGGLE_COLLECT;
  asm volatile("" : "+r"(n));
  auto r = f(n);
  asm volatile("" : : "r"(r));
  if (on) CALLGRIND_TOGGLE_COLLECT;
  return r;
}

// ---- Loop chunks --------------------------------------------------------------------------

std::atomic<long> g_sum{0};

// The body: one call of this per iteration, in the loop and in its serial baseline alike.
[[gnu::noinline]] void consume(long i) {
  g_sum.store(g_sum.load(std::memory_order_relaxed) + i, std::memory_order_relaxed);
}

// ---- Regions ------------------------------------------------------------------------------

enum class Kind {
  kSerial,
  kSpawn,
  kNoexcept,
  kNoCleanup,
  kInvoke,
  kCtxInvoke,
  kCtxSpawn,
  kScope,
  kSpawnIf,
  kFutureVector,
  kInvokeIf,
  kCSerial,
  kCSpawn,
  kCNothrow,
  kLoopSerial,
  kLoop,
  kYieldFifo,
  kYieldLifo,
  kYieldDf,
  kYieldDfd,
};

struct RegionKind {
  Region region;
  Kind kind;
};

const std::vector<RegionKind>& table() {
  static const std::vector<RegionKind> t{
      {{"serial", Unit::kFibSpawns, "the plain recursive fib (the fork-join forms' baseline)"},
       Kind::kSerial},
      {{"spawn", Unit::kFibSpawns, "fib with weft::spawn and Future::join"}, Kind::kSpawn},
      {{"noexcept", Unit::kFibSpawns, "the same in a noexcept function with a noexcept task"},
       Kind::kNoexcept},
      {{"no-cleanup", Unit::kFibSpawns, "spawn's fib with the Future's cleanup compiled out"},
       Kind::kNoCleanup},
      {{"invoke", Unit::kFibSpawns, "fib with weft::invoke"}, Kind::kInvoke},
      {{"ctx-invoke", Unit::kFibSpawns, "fib with weft::invoke(Ctx, f, g), the explicit context"},
       Kind::kCtxInvoke},
      {{"ctx-spawn", Unit::kFibSpawns,
        "fib with weft::spawn(Ctx&, f) and weft::join(Ctx&, future)"},
       Kind::kCtxSpawn},
      {{"scope", Unit::kFibSpawns, "fib with a weft::scope of one child"}, Kind::kScope},
      {{"spawn_if", Unit::kFibSpawns, "fib with weft::spawn_if whose condition holds"},
       Kind::kSpawnIf},
      {{"future_vector", Unit::kFibSpawns, "fib with a weft::FutureVector of one future"},
       Kind::kFutureVector},
      {{"invoke-if", Unit::kFibSpawns, "fib with weft::invoke_if whose condition fails"},
       Kind::kInvokeIf},
      {{"c-serial", Unit::kFibSpawns, "the plain recursive fib in C (the C forms' baseline)"},
       Kind::kCSerial},
      {{"c-spawn", Unit::kFibSpawns, "fib in C with weft_spawn and weft_join"}, Kind::kCSpawn},
      {{"c-nothrow", Unit::kFibSpawns, "fib in C with weft_spawn_nothrow and weft_join_nothrow"},
       Kind::kCNothrow},
      {{"loop-serial", Unit::kChunks, "a plain loop calling the loop's body (its baseline)"},
       Kind::kLoopSerial},
      {{"loop", Unit::kChunks, "weft::parallel_for under dynamic:1, adaptive forking off"},
       Kind::kLoop},
      {{"yield-fifo", Unit::kYieldSwitches, "two weft::threads yielding to each other, fifo"},
       Kind::kYieldFifo},
      {{"yield-lifo", Unit::kYieldSwitches, "the same under thread_sched lifo"}, Kind::kYieldLifo},
      {{"yield-df", Unit::kYieldSwitches, "the same under thread_sched df (the default)"},
       Kind::kYieldDf},
      {{"yield-dfd", Unit::kYieldSwitches, "the same under thread_sched dfd"}, Kind::kYieldDfd},
  };
  return t;
}

Kind kind_of(const Region& region) {
  for (const RegionKind& r : table())
    if (&r.region == &region) return r.kind;
  return Kind::kSerial;  // not reached: every Region comes from table()
}

// The defaults, not WEFT_*: the counts are the default configuration's, whatever the
// environment says.
weft::Config base_config(const std::string& mechanism) {
  weft::Config c;
  c.workers = 1;
  c.mechanism = weft::parse_mechanism(mechanism, "--mechanism");
  return c;
}

// What callgrind's caller needs to know about the concurrent mechanism here: whether this
// kernel, as valgrind passes it through, offers the expedited membarrier (the test of
// src/platform/asymmetric_barrier.cpp); without it that mechanism runs in its fence mode.
bool membarrier_offered() {
  const long supported = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
  return supported >= 0 && (supported & MEMBARRIER_CMD_PRIVATE_EXPEDITED) != 0;
}

long fib_region(Kind kind, const std::string& mechanism, int n, bool on) {
  if (kind == Kind::kCSerial || kind == Kind::kCSpawn || kind == Kind::kCNothrow) {
    weft_config c = weft_config_default();
    c.workers = 1;
    std::snprintf(c.mechanism, sizeof c.mechanism, "%s", mechanism.c_str());
    weft_runtime* rt = weft_runtime_create(&c);
    if (rt == nullptr) {
      std::fprintf(stderr, "weft-instructions: %s\n", weft_last_error());
      return -1;
    }
    const int form = kind == Kind::kCSerial  ? WEFT_INSTRUCTIONS_C_SERIAL
                     : kind == Kind::kCSpawn ? WEFT_INSTRUCTIONS_C_SPAWN
                                             : WEFT_INSTRUCTIONS_C_NOTHROW;
    (void)weft_instructions_c_fib(rt, form, 2, 0);  // the first run's lazy set-up, uncounted
    const long r = static_cast<long>(weft_instructions_c_fib(rt, form, n, on ? 1 : 0));
    weft_runtime_destroy(rt);
    return r;
  }
  long (*fib)(int) = nullptr;
  switch (kind) {
    case Kind::kSpawn: fib = spawn_fib; break;
    case Kind::kNoexcept: fib = noexcept_fib; break;
    case Kind::kNoCleanup: fib = no_cleanup_fib; break;
    case Kind::kInvoke: fib = invoke_fib; break;
    case Kind::kCtxInvoke: fib = ctx_invoke_entry; break;
    case Kind::kCtxSpawn: fib = ctx_spawn_entry; break;
    case Kind::kScope: fib = scope_fib; break;
    case Kind::kSpawnIf: fib = spawn_if_fib; break;
    case Kind::kFutureVector: fib = future_vector_fib; break;
    case Kind::kInvokeIf: fib = invoke_if_fib; break;
    default: fib = serial_fib; break;
  }
  weft::Runtime rt{base_config(mechanism)};
  (void)rt.run([fib] { return fib(2); });
  return rt.run([fib, n, on] { return counted(on, n, fib); });
}

bool loop_region(Kind kind, const std::string& mechanism, long n) {
  weft::Config c = base_config(mechanism);
  // Off: with one worker nobody is ever idle, and adaptive forking would run every loop as a
  // plain call of its body.
  c.adaptive_fork = weft::AdaptiveFork::kOff;
  weft::Runtime rt{c};
  weft::LoopOptions options;
  options.schedule = weft::Schedule::dynamic(1);
  const auto body = [](long i) { consume(i); };
  const auto run = [&](long k) {
    if (kind == Kind::kLoopSerial) {
      for (long i = 0; i < k; ++i) body(i);
    } else {
      weft::parallel_for(long{0}, k, body, options);
    }
    return k;
  };
  rt.run([&] { (void)counted(false, long{2}, run); });
  g_sum.store(0);
  rt.run([&] { (void)counted(true, n, run); });
  return g_sum.load() == n * (n - 1) / 2;
}

// Two threads yield to each other n times each: 2n switches, each checked to have handed
// over (as weft-bench threads' yield ping-pong checks them under fifo; every scheduler
// alternates two threads on one worker).
bool yield_region(Kind kind, const std::string& mechanism, long n) {
  const weft::ThreadSched sched = kind == Kind::kYieldLifo  ? weft::ThreadSched::kLifo
                                  : kind == Kind::kYieldDf  ? weft::ThreadSched::kDf
                                  : kind == Kind::kYieldDfd ? weft::ThreadSched::kDfd
                                                            : weft::ThreadSched::kFifo;
  weft::Config c = base_config(mechanism);
  c.thread_sched = sched;
  weft::Runtime rt{c};
  int last = -1;
  long alternations = 0;
  const auto run = [&](long k) {
    const auto body = [&, k](int me) {
      for (long i = 0; i < k; ++i) {
        alternations += last != me ? 1 : 0;
        last = me;
        weft::this_thread::yield();
      }
    };
    weft::thread a(body, 0);
    weft::thread b(body, 1);
    a.join();
    b.join();
    return k;
  };
  rt.run([&] { (void)counted(false, long{2}, run); });
  last = -1;
  alternations = 0;
  rt.run([&] { (void)counted(true, n, run); });
  return alternations == 2 * n;
}

}  // namespace

const std::vector<Region>& regions() {
  static const std::vector<Region> list = [] {
    std::vector<Region> r;
    for (const RegionKind& k : table()) r.push_back(k.region);
    return r;
  }();
  return list;
}

const Region* find_region(const std::string& name) {
  for (const RegionKind& r : table())
    if (name == r.region.name) return &r.region;
  return nullptr;
}

long operations(const Region& region, long size) {
  switch (region.unit) {
    case Unit::kFibSpawns:  // the internal nodes of fib(size)'s call tree
      return common::fib_by_iteration(static_cast<int>(size) + 1) - 1;
    case Unit::kChunks: return size;
    case Unit::kYieldSwitches: return 2 * size;
  }
  return 0;
}

long max_size(const Region& region) { return region.unit == Unit::kFibSpawns ? 32 : 10'000'000; }

int run_region(const Region& region, long size, const std::string& mechanism) {
  const Kind kind = kind_of(region);
  long result = 0;
  bool ok = false;
  switch (region.unit) {
    case Unit::kFibSpawns:
      result = fib_region(kind, mechanism, static_cast<int>(size), true);
      ok = result == common::fib_by_iteration(static_cast<int>(size));
      break;
    case Unit::kChunks:
      ok = loop_region(kind, mechanism, size);
      result = g_sum.load();
      break;
    case Unit::kYieldSwitches:
      ok = yield_region(kind, mechanism, size);
      result = operations(region, size);
      break;
  }
  std::printf("region %s size %ld result %ld membarrier %s\n", region.name, size, result,
              membarrier_offered() ? "yes" : "no");
  if (!ok) {
    std::fprintf(stderr, "weft-instructions: WRONG RESULT in region %s at size %ld (%ld)\n",
                 region.name, size, result);
    return 1;
  }
  return 0;
}

}  // namespace bench_instructions
