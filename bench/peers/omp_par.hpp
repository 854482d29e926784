// OpenMP tasks as a backend of the compare workloads (../workloads/par.hpp), written the way
// the Barcelona OpenMP Tasks Suite writes them: `task` for the child, the parent continues,
// `taskwait` to join. The same object code runs on GCC's libgomp and on LLVM's libomp
// (which implements the GOMP_* entry points GCC emits), so the two differ only in runtime.
#pragma once

#include <string_view>
#include <utility>

namespace workloads {

class OmpPar {
 public:
  static constexpr std::string_view kName = "openmp";

  explicit OmpPar(int workers) : workers_(workers) {}

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

 private:
  int workers_;
};

}  // namespace workloads
