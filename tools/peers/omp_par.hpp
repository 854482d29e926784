// OpenMP as a backend of the compare workloads (../workloads/par.hpp). Tasks are written the
// way the Barcelona OpenMP Tasks Suite writes them: `task` for the child, the parent
// continues, `taskwait` to join. Loops come in three variants, chosen per run (--loops):
//   taskloop  `taskloop` at every depth inside one parallel region (the default, and the one
//             the fork-join workloads' run() needs: a team with one thread running the work);
//   outer     a `parallel` region with a worksharing `for` at depth 0; nested loops run
//             serially, as OpenMP programs usually nest (max-active-levels 1);
//   nested    the same at every depth with omp_set_max_active_levels(2): each thread of the
//             outer team forks its own inner team, so the threads multiply; threads_used()
//             reports how many distinct threads ran a region of the run.
// The schedule (--schedule, loop_schedule.hpp) maps onto OpenMP's as follows; OpenMP has no
// factoring, so factoring goes to the runtime's own choice, as auto does:
//                 outer, nested: `for schedule(runtime)` with      taskloop
//   default       no worksharing: the natural `for` without a       no clause
//                 schedule clause (static on libgomp and libomp),
//                 one contiguous block per thread handed to the
//                 body whole, so that its innermost loop compiles
//                 to one vectorisable loop as written inline
//   static        omp_set_schedule(omp_sched_static, 0)            num_tasks(workers)
//   dynamic:K     omp_set_schedule(omp_sched_dynamic, K)           grainsize(K): tasks of K
//                                                                  to 2K-1 iterations
//   guided:K      omp_set_schedule(omp_sched_guided, K)            no clause (no counterpart)
//   factoring     omp_set_schedule(omp_sched_auto, 0)              no clause
//   auto          omp_set_schedule(omp_sched_auto, 0)              no clause
// (K above INT_MAX is capped there.) A worksharing `for` does not tell its body where its
// chunks begin and end, so under a schedule the body runs per iteration, body(i, i + 1), as
// taskloop's does: a chunk of K iterations of OpenMP's loop is K such calls, which the
// compiler inlines into one loop over the chunk. run-sched-var is set once, on the initial
// thread, before any region: every team's implicit tasks inherit it, the nested ones too.
// The same object code runs on GCC's libgomp and on LLVM's libomp (which implements the
// GOMP_* entry points GCC emits), so the two differ only in runtime.
#pragma once

#include <omp.h>

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>

#include "tools/peers/loop_schedule.hpp"
#include "workloads/kernels/par.hpp"

namespace kernels {

class OmpPar {
 public:
  static constexpr std::string_view kName = "openmp";
  // In the order compare runs them.
  static constexpr std::array<std::string_view, 3> kLoopVariants = {"taskloop", "outer", "nested"};

  // Every variant runs every schedule.
  static bool runs_under(std::string_view /*variant*/, const peers::LoopSchedule& /*schedule*/) {
    return true;
  }

  // `loops` is one of kLoopVariants, or "" for the first, taskloop.
  explicit OmpPar(int workers, std::string_view loops = "", peers::LoopSchedule schedule = {})
      : workers_(workers),
        loops_(static_cast<Loops>(loop_variant(kLoopVariants, loops, "OpenMP"))),
        schedule_(schedule) {
    omp_set_max_active_levels(loops_ == Loops::kNested ? 2 : 1);
    set_run_schedule(schedule_);
    if (loops_ == Loops::kTaskloop) return;
      // run() opens no region for the `parallel for` variants, so the warm-up run of the peer
      // protocol would not start the teams: start them here (both levels for nested), so that
      // no timed run pays for thread creation.
#pragma omp parallel num_threads(workers_)
    {
#pragma omp parallel num_threads(workers_)
      { note_thread(); }
    }
  }

  class Scope {
   public:
    template <class F>
    void spawn(F fn) {
#pragma omp task firstprivate(fn)
      fn();
    }
  };

  template <class F>
  void run(F&& f) {
    epoch_.fetch_add(1, std::memory_order_relaxed);
    seen_.store(0, std::memory_order_relaxed);
    if (loops_ != Loops::kTaskloop) {
      std::forward<F>(f)();  // each loop forks its own team
      return;
    }
#pragma omp parallel num_threads(workers_)
#pragma omp single
    f();
  }
  template <class F, class G>
  void invoke(F&& f, G&& g) {
    // A pointer, not the reference: a reference's data-sharing in an orphaned task is a
    // corner of the standard compilers have read differently.
    auto* other = &g;
#pragma omp task firstprivate(other)
    (*other)();
    std::forward<F>(f)();
#pragma omp taskwait
  }
  template <class Body>
  void scope(Body&& body) {
    Scope s;
    std::forward<Body>(body)(s);
#pragma omp taskwait
  }
  template <class Body>
  void for_range(int depth, std::size_t lo, std::size_t hi, const Body& body) {
    if (lo >= hi) return;
    if (loops_ == Loops::kTaskloop) {
      taskloop(lo, hi, body);
      return;
    }
    if (loops_ == Loops::kOuter && depth > 0) {
      body(lo, hi);
      return;
    }
    if (schedule_.is_default()) {
#pragma omp parallel num_threads(workers_)
      {
        note_thread();
        const auto t = static_cast<std::size_t>(omp_get_thread_num());
        const auto team = static_cast<std::size_t>(omp_get_num_threads());
        const std::size_t n = hi - lo;
        const std::size_t b = lo + n * t / team, e = lo + n * (t + 1) / team;
        if (b < e) body(b, e);
      }
      return;
    }
#pragma omp parallel num_threads(workers_)
    {
      note_thread();
      // One call per iteration: `omp for` keeps its chunks' bounds to itself (see the top).
#pragma omp for schedule(runtime)
      for (std::size_t i = lo; i < hi; ++i) body(i, i + 1);
    }
  }
  // The nested variant: the distinct threads that ran a loop region in the last run, the
  // threads its nested teams cost (libgomp starts fresh threads for every nested team, so
  // this grows with the number of inner regions; a runtime that pools them stays near
  // workers²); 0 for the others, whose team is the workers.
  unsigned threads_used() const {
    return loops_ == Loops::kNested ? seen_.load(std::memory_order_relaxed) : 0;
  }

 private:
  enum class Loops : std::uint8_t { kTaskloop, kOuter, kNested };  // in kLoopVariants' order

  // run-sched-var for the worksharing loops of the outer and nested variants (see the top).
  static void set_run_schedule(const peers::LoopSchedule& s) {
    using Kind = peers::LoopSchedule::Kind;
    switch (s.kind) {
      case Kind::kDefault: return;  // no schedule(runtime) loop runs
      case Kind::kStatic: omp_set_schedule(omp_sched_static, 0); return;
      case Kind::kDynamic: omp_set_schedule(omp_sched_dynamic, s.int_chunk()); return;
      case Kind::kGuided: omp_set_schedule(omp_sched_guided, s.int_chunk()); return;
      case Kind::kFactoring:  // no factoring in OpenMP: the runtime's choice
      case Kind::kAuto: omp_set_schedule(omp_sched_auto, 0); return;
    }
  }

  // The taskloop variant's loop, its clause chosen by the schedule (see the top).
  template <class Body>
  void taskloop(std::size_t lo, std::size_t hi, const Body& body) {
    const Body* b = &body;  // a pointer, as in invoke
    using Kind = peers::LoopSchedule::Kind;
    if (schedule_.kind == Kind::kDynamic) {
      const int grain = schedule_.int_chunk();
#pragma omp taskloop firstprivate(b) grainsize(grain)
      for (std::size_t i = lo; i < hi; ++i) (*b)(i, i + 1);
    } else if (schedule_.kind == Kind::kStatic) {
      const int tasks = workers_;
#pragma omp taskloop firstprivate(b) num_tasks(tasks)
      for (std::size_t i = lo; i < hi; ++i) (*b)(i, i + 1);
    } else {
#pragma omp taskloop firstprivate(b)
      for (std::size_t i = lo; i < hi; ++i) (*b)(i, i + 1);
    }
  }

  // Counts this thread once per run: a thread-local mark of the run it was last counted in.
  void note_thread() {
    thread_local std::uint64_t counted_in = 0;
    const std::uint64_t epoch = epoch_.load(std::memory_order_relaxed);
    if (counted_in == epoch) return;
    counted_in = epoch;
    seen_.fetch_add(1, std::memory_order_relaxed);
  }

  int workers_;
  Loops loops_;
  peers::LoopSchedule schedule_;
  // Relaxed: written before a run's regions start and read after they end; the regions'
  // fork and join order them.
  std::atomic<std::uint64_t> epoch_{1};
  std::atomic<unsigned> seen_{0};
};

}  // namespace kernels
