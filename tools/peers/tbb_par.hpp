// oneTBB as a backend of the compare workloads (../workloads/par.hpp): tbb::parallel_invoke
// for two children, a tbb::task_group for a scope, tbb::parallel_for over a blocked_range
// for a loop (nested loops nest in TBB itself), all inside a task_arena of the requested
// concurrency (the calling thread is one of its workers, as with weft and OpenMP). The loop
// variants (--loops) are the partitioners: auto (the default), simple (splits down to single
// iterations), static, and affinity. An affinity_partitioner pays off only when reused by
// the same loop, and must not be shared by loops running at once: the depth-0 loops (run one
// after another by the workload's serial code) share one for the whole run; nested loops,
// which run concurrently, each get a fresh one.
// The schedule (--schedule, loop_schedule.hpp) maps onto oneTBB's as follows, at every depth:
//   default, factoring, auto  blocked_range's default grainsize (1): the partitioner decides
//                             (oneTBB has no factoring; its auto_partitioner is its own
//                             adaptive choice)
//   dynamic:K, guided:K       grainsize K: simple_partitioner splits down to chunks of K/2 to K
//                             iterations (a range of more than K is divisible), auto_partitioner,
//                             affinity_partitioner and static_partitioner use K as the minimum
//                             (oneTBB has no guided order of chunk sizes: K is its floor)
//   static                    static_partitioner, one chunk per thread, and so only the static
//                             variant runs under it (runs_under; --list-loops lists just it)
#pragma once

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/parallel_invoke.h>
#include <oneapi/tbb/partitioner.h>
#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/task_group.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "tools/peers/loop_schedule.hpp"
#include "workloads/kernels/par.hpp"

namespace kernels {

class TbbPar {
 public:
  static constexpr std::string_view kName = "onetbb";
  // In the order compare runs them.
  static constexpr std::array<std::string_view, 4> kLoopVariants = {"auto", "simple", "static",
                                                                    "affinity"};

  // The static schedule is the static partitioner: the other variants do not run under it.
  static bool runs_under(std::string_view variant, const peers::LoopSchedule& schedule) {
    return schedule.kind != peers::LoopSchedule::Kind::kStatic || variant == "static";
  }

  // `loops` is one of kLoopVariants, or "" for auto; under the static schedule it must be
  // static (runs_under; peer_cli checks it first).
  explicit TbbPar(int workers, std::string_view loops = "", peers::LoopSchedule schedule = {})
      : limit_(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(workers)),
        stack_(tbb::global_control::thread_stack_size, kWorkerStackBytes),
        arena_(workers),
        loops_(static_cast<Loops>(loop_variant(kLoopVariants, loops, "oneTBB"))),
        grainsize_(grainsize_of(schedule)) {
    if (!runs_under(kLoopVariants[static_cast<std::size_t>(loops_)], schedule)) {
      throw std::invalid_argument("oneTBB runs only its static variant under the static schedule");
    }
  }

  class Scope {
   public:
    explicit Scope(tbb::task_group& group) : group_(&group) {}
    template <class F>
    void spawn(F fn) {
      group_->run(std::move(fn));
    }

   private:
    tbb::task_group* group_;
  };

  template <class F>
  void run(F&& f) {
    arena_.execute(std::forward<F>(f));
  }
  template <class F, class G>
  void invoke(F&& f, G&& g) {
    tbb::parallel_invoke(f, g);
  }
  template <class Body>
  void scope(Body&& body) {
    tbb::task_group group;
    Scope s(group);
    std::forward<Body>(body)(s);
    group.wait();
  }
  template <class Body>
  void for_range(int depth, std::size_t lo, std::size_t hi, const Body& body) {
    const tbb::blocked_range<std::size_t> range(lo, hi, grainsize_);
    const auto chunk = [&body](const tbb::blocked_range<std::size_t>& r) {
      body(r.begin(), r.end());
    };
    switch (loops_) {
      case Loops::kAuto: tbb::parallel_for(range, chunk, tbb::auto_partitioner()); return;
      case Loops::kSimple: tbb::parallel_for(range, chunk, tbb::simple_partitioner()); return;
      case Loops::kStatic: tbb::parallel_for(range, chunk, tbb::static_partitioner()); return;
      case Loops::kAffinity:
        if (depth == 0) {
          tbb::parallel_for(range, chunk, outer_affinity_);
        } else {
          tbb::affinity_partitioner fresh;
          tbb::parallel_for(range, chunk, fresh);
        }
        return;
    }
  }

 private:
  // The deep UTS trees (B: depth 6,974; T3L: 17,844) recurse a frame per level and overflow
  // TBB's default worker stack; weft's workers get 64 MiB, so TBB's do too.
  static constexpr std::size_t kWorkerStackBytes = std::size_t{64} << 20;

  enum class Loops : std::uint8_t {
    kAuto,
    kSimple,
    kStatic,
    kAffinity
  };  // in kLoopVariants' order

  // blocked_range's grainsize for a schedule (see the top).
  static std::size_t grainsize_of(const peers::LoopSchedule& s) {
    using Kind = peers::LoopSchedule::Kind;
    if (s.kind != Kind::kDynamic && s.kind != Kind::kGuided) return 1;
    return static_cast<std::size_t>(s.chunk);
  }

  tbb::global_control limit_;
  tbb::global_control stack_;
  tbb::task_arena arena_;
  Loops loops_;
  std::size_t grainsize_;
  tbb::affinity_partitioner outer_affinity_;  // the depth-0 loops'
};

}  // namespace kernels
