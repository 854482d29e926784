// Runtime configuration: the worker count, the steal policy and the knobs a user may turn,
// set in code or read strictly from the environment (Config::from_env).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "weft/schedule.hpp"

namespace weft {

// Thrown for a bad Config value or environment variable; the message names the setting,
// the value given and what is allowed.
class ConfigError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// What the party deciding a steal's size can see: the victim's n, and what the thief knows
// of its own recent steals (used by the adaptive policy; the others look at n only). Under
// the concurrent mechanism the thief decides; under the request mechanism the victim
// decides, with the thief's part carried in the request.
struct StealView {
  std::int64_t available = 0;  // n: the victim's tasks spawned and not yet started
  // The thief's recent history: the mean time it spent running one stolen task (with all
  // the work that task spawned and kept), over the mean time one successful steal took it;
  // exponentially weighted over its last steals. Below 1 a steal costs more than a task
  // brings. Before the thief's first steal has ended, a lower bound from the steal it is
  // still running (its time so far over its tasks and its cost); 0 when it runs none.
  double task_work_per_steal_cost = 0.0;
};

// How thieves take tasks from a victim (docs/STEAL_REQUESTS.md).
//   kConcurrent  the thief claims under the victim's steal port while the owner keeps
//                running (THE protocol with an asymmetric barrier; no owner involvement).
//   kRequest     the thief posts a request at the victim's port and waits; the victim
//                notices it at its next spawn, join or weft::poll() and hands over the
//                tasks itself (seed paper section 3.2). No barrier anywhere.
enum class StealMechanism : std::uint8_t { kConcurrent, kRequest };
const char* mechanism_name(StealMechanism m) noexcept;
// Parses "concurrent" or "request"; throws ConfigError naming `setting` otherwise.
StealMechanism parse_mechanism(std::string_view spec, std::string_view setting = "mechanism");

// Which store-load barrier the concurrent mechanism's thieves use against an owner's pop
// (docs/TASK_STACK.md, "Why TS2 holds"). The mode is process-wide: the first Runtime of the
// process decides it, and a later Runtime that asks for the other mode explicitly gets a
// ConfigError (kAuto always takes what was decided).
//   kAuto        membarrier where the kernel offers it (not in ThreadSanitizer builds, which
//                do not model it), otherwise fence; with membarrier, a stack that thieves
//                claim from again within a few membarriers' time switches to the fence
//                until they stop coming (docs/BARRIERS.md, "Switching the barrier").
//   kMembarrier  membarrier on every claim, never switching; a ConfigError where it is
//                unavailable.
//   kFence       a seq_cst fence on both sides (Cilk-5's THE protocol), for testing.
enum class Barrier : std::uint8_t { kAuto, kMembarrier, kFence };
const char* barrier_name(Barrier b) noexcept;
// Parses "auto", "membarrier" or "fence"; throws ConfigError naming `setting` otherwise.
Barrier parse_barrier(std::string_view spec, std::string_view setting = "barrier");

// How many of the victim's oldest tasks a thief takes in one steal. A small immutable value
// object chosen at run time, so one binary sweeps every policy. The built-in policies live
// in src/model/steal_policy.cpp; adding one touches that file only.
class StealPolicy {
 public:
  class Strategy {
   public:
    virtual ~Strategy() = default;
    // The number of tasks to claim given the view; 0 declines (the steal fails).
    virtual std::int64_t amount(const StealView& view) const noexcept = 0;
    // The spec that parse() accepts back, e.g. "fixed:20".
    virtual std::string spec() const = 0;
    // True if amount() reads StealView::task_work_per_steal_cost: thieves then time their
    // steals to keep it (two clock reads per successful steal, none on the owner's path).
    virtual bool reads_thief_history() const noexcept { return false; }
  };

  // Bottommost-first: one task whenever n >= 1 (StackThreads/MP st_org, Cilk).
  static StealPolicy one();
  // Exactly d tasks when n >= d, otherwise the steal fails (st_sta). Requires d >= 1.
  static StealPolicy fixed(std::int64_t d);
  // ceil(n/2) tasks when n >= 1 (st_dyn: floor(n_total/2) with n_total = n + 1).
  static StealPolicy half();
  // Ours: half when the thief's recent steals brought little work for their cost, one
  // otherwise (the rule and its measurements: docs/STRATEGIES.md).
  static StealPolicy adaptive();
  // Parses "one", "half", "adaptive" or "fixed:D"; throws ConfigError naming `setting` otherwise.
  static StealPolicy parse(std::string_view spec, std::string_view setting = "steal policy");
  // The specs parse() accepts, for error messages and --help texts.
  static std::string allowed_specs();

  StealPolicy() : StealPolicy(one()) {}
  explicit StealPolicy(std::shared_ptr<const Strategy> strategy) : strategy_(std::move(strategy)) {}

  std::int64_t amount(const StealView& view) const noexcept { return strategy_->amount(view); }
  std::string spec() const { return strategy_->spec(); }
  bool reads_thief_history() const noexcept { return strategy_->reads_thief_history(); }

 private:
  std::shared_ptr<const Strategy> strategy_;
};

// How parallel loops are scheduled (docs/LOOPS.md).
//   kPcb    parallel control blocks on the workers' PCB stacks, found by idle workers through
//           a non-locking multi-item queue (Hummel & Schonberg).
//   kDlist  the same blocks on a doubly-linked queue under a lock, removed when emptied.
//   kSplit  lazy binary splitting: a loop is a task on weft's task stack that splits off half
//           of what is left whenever its worker has nothing stealable (Tzannes et al.).
enum class LoopScheme : std::uint8_t { kPcb, kDlist, kSplit };
// Where a loop's per-worker private state (init(), a reduction's accumulator) lives:
// kStack on the worker's own LIFO loop frame stack, kPool in one locked pool shared by all.
enum class LoopFrames : std::uint8_t { kStack, kPool };
// Whether a loop forks only while some worker is idle: kOff always forks; kOn runs the loop
// serially when nobody is idle; kLazy starts serially and hands the rest of the range out
// as soon as a worker goes idle.
enum class AdaptiveFork : std::uint8_t { kOff, kOn, kLazy };
// Whether each worker thread is bound to one CPU of the process's affinity mask (worker i to
// its i-th CPU, round robin): kOff never, kOn always, kAuto when there are exactly as many
// workers as CPUs in the mask, two or more. There the kernel, left to itself, lets a
// worker that is looking for work share the CPU of the worker that has it while another CPU
// is idle: idle workers that stay awake across a serial stretch of the thread calling run()
// are crowded onto the CPUs it leaves free, and one that keeps yielding looks cache-hot to
// the load balancer, which leaves it there for milliseconds after that thread blocks
// (docs/SLEEP.md, "Pinning"). Fewer workers than CPUs leave room for that thread;
// more share the CPUs anyway, and the kernel balances them better than a fixed binding.
enum class Pinning : std::uint8_t { kOff, kOn, kAuto };
// Which ready user-level thread (weft::thread) an idle worker runs next
// (docs/THREADS.md, "Scheduling"):
//   kFifo  the oldest ready thread: a created child is queued and its creator runs on
//          (breadth-first, as Solaris threads are scheduled).
//   kLifo  the newest ready thread, from one global stack.
//   kDf    the leftmost ready thread of one list of live threads kept in the serial
//          program's depth-first order: a created child goes just left of its creator and
//          runs at once, the creator waiting ready beside it (Narlikar & Blelloch's AsyncDF).
//   kDfd   the same order kept without a global lock on fork, join, park or wake: each
//          worker runs from a deque of its own, and the deques sit in one depth-first list
//          that only steals and preemptions touch (Narlikar's DFDeques).
enum class ThreadSched : std::uint8_t { kFifo, kLifo, kDf, kDfd };
// What the deadlock detector does when every worker is idle or waiting, no user-level thread
// is ready and some thread or task waits on a weft primitive, with nothing changing for
// Config::deadlock_ms (docs/THREADS.md, "Misuse diagnostics"):
//   kAbort   lists each waiting thread and task and what it waits on to stderr, then aborts.
//   kReport  prints the same list once per deadlock and keeps waiting (something outside the
//            runtime, a run() from another OS thread, may still end it).
//   kOff     does nothing.
enum class DeadlockAction : std::uint8_t { kAbort, kReport, kOff };
// The names WEFT_LOOPS, WEFT_LOOP_FRAMES and WEFT_ADAPTIVE_FORK take ("pcb", "pool", "lazy"),
// for tools that label runs; the parsers accept exactly those names and throw ConfigError
// naming `setting`, the value given and the names allowed otherwise.
const char* loop_scheme_name(LoopScheme s) noexcept;
const char* loop_frames_name(LoopFrames f) noexcept;
const char* adaptive_fork_name(AdaptiveFork a) noexcept;
const char* thread_sched_name(ThreadSched s) noexcept;
LoopScheme parse_loop_scheme(std::string_view spec, std::string_view setting = "loops");
LoopFrames parse_loop_frames(std::string_view spec, std::string_view setting = "loop_frames");
AdaptiveFork parse_adaptive_fork(std::string_view spec, std::string_view setting = "adaptive_fork");
ThreadSched parse_thread_sched(std::string_view spec, std::string_view setting = "thread_sched");

struct Config {
  // Worker threads; 0 means std::thread::hardware_concurrency(). (WEFT_WORKERS)
  unsigned workers = 0;
  // The defaults are the configuration that came within 5% of the best mechanism x policy on
  // every workload we measure (docs/STRATEGIES.md, "Defaults"): `one` trails by 15% on UTS
  // and collapses where workers outnumber cores (a membarrier per claim), `half` trails on
  // fib and FFT, `request` on Sparse-LU.
  StealPolicy steal = StealPolicy::adaptive();             // (WEFT_STEAL)
  StealMechanism mechanism = StealMechanism::kConcurrent;  // (WEFT_MECHANISM)
  // Request mechanism: a thief whose request the victim has not taken up after this many
  // microseconds (the victim is in a long stretch without spawns, joins or polls) withdraws
  // it and tries elsewhere. (WEFT_REQUEST_TIMEOUT_US, 1 to 1000000)
  std::uint32_t request_timeout_us = 50;
  // How long a worker that ran out of work stays awake, looking for work between
  // sched_yield calls, before it sleeps. A sleeping worker costs no CPU but takes a futex
  // wake-up to come back, which can take milliseconds on a VM. A program that calls run()
  // for short parallel phases a few milliseconds apart can keep its workers awake across the
  // gaps (like OpenMP's KMP_BLOCKTIME), at the cost of up to this much CPU per idle worker
  // and gap (docs/SLEEP.md, "The idle tiers"). (WEFT_IDLE_AWAKE_US, 0 to 10000000)
  std::uint32_t idle_awake_us = 200;
  // Seeds each worker's victim-selection generator (mixed with the worker id). (WEFT_SEED)
  std::uint64_t seed = 0x5eedf00d;
  // Bind worker i to the i-th CPU (mod their number) of the process's affinity mask: never,
  // always, or when the workers are exactly as many as those CPUs (Pinning).
  // (WEFT_PIN=0|1|auto; 0 and 1 also as false/true, no/yes, off/on)
  Pinning pin = Pinning::kAuto;
  // At most this many workers busy before an idle one stops looking for work and sleeps; 0
  // means as many as the CPUs of the process's affinity mask. It only matters where the
  // workers outnumber it: there a thief would spread the work over more threads than CPUs,
  // and the kernel would then time-slice the busy ones (docs/SLEEP.md,
  // "Oversubscription"). A task blocked in the kernel counts as busy too, so the limit is
  // lifted for a few milliseconds whenever the workers' threads are seen to use fewer CPUs
  // than it allows; a program whose tasks block in system calls loses little, and can set
  // this to its worker count to lose nothing. (WEFT_BUSY_LIMIT, 0 to 4096)
  unsigned busy_limit = 0;
  // Task slots per worker (64 bytes each); 0 derives them from worker_stack_bytes (one per
  // 64 bytes of stack: 1 Mi slots for 64 MiB). The slots are reserved address space, and
  // only the pages a program reaches are touched. A full stack runs further spawns at once,
  // serially, so this bounds memory, never correctness. (WEFT_TASK_SLOTS)
  std::size_t task_slots = 0;
  // Stack size of each worker thread. Deep recursion needs it; it is reserved, not touched.
  // (WEFT_STACK_SIZE, bytes, with an optional K, M or G suffix; 64 KiB to 1 GiB)
  std::size_t worker_stack_bytes = std::size_t{64} << 20;
  // A worker waiting for a stolen task helps by stealing only while its stack use is below
  // this fraction of worker_stack_bytes (see docs/TASK_STACK.md, "Join and its bound").
  double help_stack_fraction = 0.5;
  // The execution profile: each worker charges its time to busy / steal / idle / switch,
  // reported by Runtime::stats() (weft/profile.hpp). Off, it costs a predictable branch at
  // each steal and idle step, never on spawn or join. (WEFT_PROFILE=0|1)
  bool profile = false;
  // Timeline events kept per worker for Runtime::trace() (busy intervals, steals); 0 keeps
  // none. Implies profile. At most 16777216 (32 bytes each). (WEFT_TRACE_EVENTS)
  std::size_t trace_events = 0;
  // Count spawns: Stats' spawns and inline_joins, and the profile's frame management, which
  // charges each pushed task. Counting sends every spawn through its out-of-line path (a call
  // and a few checks more a spawn); off, spawn and join touch no counter, and Stats says the
  // spawns were not counted. The profile implies it. (WEFT_COUNT_SPAWNS=0|1)
  bool count_spawns = false;
  // The concurrent mechanism's barrier (see Barrier: process-wide, decided by the first
  // Runtime). (WEFT_BARRIER=auto|membarrier|fence)
  Barrier barrier = Barrier::kAuto;
  // Parallel loops: the schedule a loop uses when its LoopOptions name none, the scheme, the
  // private state's home and adaptive forking. (WEFT_SCHEDULE, WEFT_LOOPS, WEFT_LOOP_FRAMES,
  // WEFT_ADAPTIVE_FORK=0|1|lazy)
  Schedule schedule = Schedule::automatic();
  LoopScheme loops = LoopScheme::kPcb;
  LoopFrames loop_frames = LoopFrames::kStack;
  AdaptiveFork adaptive_fork = AdaptiveFork::kOn;
  // User-level threads (weft/thread.hpp): the stack a weft::thread gets when its options
  // name none, mapped under a guard page and pooled (WEFT_THREAD_STACK, 4K to 1G), and the
  // order ready threads run in (WEFT_THREAD_SCHED=fifo|lifo|df|dfd), and the memory quota
  // K of the df and dfd schedulers: a thread whose weft::allocate would take its net bytes
  // since it was scheduled past K is preempted before it (WEFT_MEM_QUOTA; 0 = no quota;
  // weft/memory.hpp).
  std::size_t thread_stack_bytes = std::size_t{16} << 10;
  ThreadSched thread_sched = ThreadSched::kDf;
  std::size_t mem_quota_bytes = 0;
  // The deadlock detector: what it does (WEFT_DEADLOCK=abort|report|off) once the pool has
  // been stuck for deadlock_ms milliseconds (WEFT_DEADLOCK_MS, 1 to 3600000).
  DeadlockAction deadlock = DeadlockAction::kAbort;
  std::uint32_t deadlock_ms = 2000;
  // Each thread records a backtrace when it parks, which Runtime::dump_threads() and the
  // deadlock report print; off, it costs one predictable branch per park.
  // (WEFT_THREAD_DEBUG=0|1)
  bool thread_debug = false;

  // Reads the WEFT_* variables over the defaults above. Throws ConfigError for a bad value.
  // (The variables, their defaults and what each allows: src/model/config_fields.hpp's table,
  // and the README's configuration table, which a test keeps equal to it.)
  static Config from_env();
  // Throws ConfigError if a field is out of range. Runtime's constructor calls it.
  void validate() const;
  // The worker count after resolving 0 to the hardware's.
  unsigned resolved_workers() const noexcept;
  // The task slots per worker after resolving 0 from worker_stack_bytes.
  std::size_t resolved_task_slots() const noexcept;
  // Whether workers count spawns: count_spawns, or a profile (profile, trace_events).
  bool counts_spawns() const noexcept { return count_spawns || profile || trace_events > 0; }
};

}  // namespace weft
