// The fork-join interface every workload of weft-bench compare is written against, once, so
// that weft and each peer run the same algorithm with the same base cases and cutoffs; only
// the runtime differs. A backend ("Par") is a small class with three members:
//
//   par.run(f)            enters the backend's parallel region with its worker count and
//                         calls f there (weft: Runtime::run; OpenMP: parallel + single;
//                         oneTBB: task_arena::execute). The timed part of a run is one call.
//   par.invoke(f, g)      f() and g() may run in parallel; both have finished on return.
//                         g is the one offered to thieves, f runs at once on the caller.
//   par.scope(body)       calls body(s); s.spawn(fn) starts a void() child that may run in
//                         parallel (fn is copied); all children have finished on return.
//   par.for_range(depth, lo, hi, body)
//                         the loop workloads' parallel loop over [lo, hi) (std::size_t):
//                         body(b, e) runs the iterations [b, e), chunks possibly in
//                         parallel; all have finished on return. `depth` counts the parallel
//                         loops around this one (0: the outermost), for the backends whose
//                         variants treat nested loops differently (OpenMP's outer-only
//                         `parallel for` runs depth >= 1 serially; oneTBB keeps an
//                         affinity_partitioner for depth 0 only).
//
// Children capture the caller's frame by reference: every backend finishes them before
// invoke or scope returns. Workloads throw nothing inside tasks (OpenMP would terminate).
//
// This file has the serial elision; weft_par.hpp, ../peers/omp_par.hpp and
// ../peers/tbb_par.hpp the parallel backends.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace kernels {

// The index of `name` in a backend's loop variants (its kLoopVariants), "" meaning the
// first; throws std::invalid_argument naming `backend` for an unknown one.
template <std::size_t N>
std::size_t loop_variant(const std::array<std::string_view, N>& variants, std::string_view name,
                         std::string_view backend) {
  if (name.empty()) return 0;
  const auto* it = std::find(variants.begin(), variants.end(), name);
  if (it == variants.end()) {
    throw std::invalid_argument("unknown " + std::string(backend) + " loop variant '" +
                                std::string(name) + "'");
  }
  return static_cast<std::size_t>(it - variants.begin());
}

// The serial elision: every spawn becomes a call, in program order. It is the baseline of
// every speedup, and the reference the parallel outputs are checked against.
class SerialPar {
 public:
  static constexpr std::string_view kName = "serial";

  class Scope {
   public:
    template <class F>
    void spawn(F&& fn) {
      std::forward<F>(fn)();
    }
  };

  template <class F>
  void run(F&& f) {
    std::forward<F>(f)();
  }
  template <class F, class G>
  void invoke(F&& f, G&& g) {
    std::forward<F>(f)();
    std::forward<G>(g)();
  }
  template <class Body>
  void scope(Body&& body) {
    Scope s;
    std::forward<Body>(body)(s);
  }
  template <class Body>
  void for_range(int /*depth*/, std::size_t lo, std::size_t hi, const Body& body) {
    if (lo < hi) body(lo, hi);
  }
};

}  // namespace kernels
