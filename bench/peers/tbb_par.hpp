// oneTBB as a backend of the compare workloads (../workloads/par.hpp): tbb::parallel_invoke
// for two children, a tbb::task_group for a scope, all inside a task_arena of the requested
// concurrency (the calling thread is one of its workers, as with weft and OpenMP).
#pragma once

#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_invoke.h>
#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/task_group.h>

#include <cstddef>
#include <string_view>
#include <utility>

namespace workloads {

class TbbPar {
 public:
  static constexpr std::string_view kName = "onetbb";

  explicit TbbPar(int workers)
      : limit_(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(workers)),
        stack_(tbb::global_control::thread_stack_size, kWorkerStackBytes),
        arena_(workers) {}

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

 private:
  // The deep UTS trees (B: depth 6,974; T3L: 17,844) recurse a frame per level and overflow
  // TBB's default worker stack; weft's workers get 64 MiB, so TBB's do too.
  static constexpr std::size_t kWorkerStackBytes = std::size_t{64} << 20;

  tbb::global_control limit_;
  tbb::global_control stack_;
  tbb::task_arena arena_;
};

}  // namespace workloads
