// weft as a backend of the compare workloads (par.hpp): invoke is weft::invoke (g pushed, f here),
// scope is weft::scope, for_range is weft::parallel_for with the run's loop options (its
// schedule; the scheme, frame home and adaptive forking are the Runtime's Config). The Runtime is
// the caller's, so one runtime serves every run of a sweep, as a program would use it.
#pragma once

#include <cstddef>
#include <string_view>
#include <utility>
#include <weft/weft.hpp>

namespace kernels {

class WeftPar {
 public:
  static constexpr std::string_view kName = "weft";

  // With `stats`, each run() starts the runtime's counters and profile afresh and leaves in
  // *stats what they measured of that run alone (not of building or verifying the input).
  explicit WeftPar(weft::Runtime& runtime, weft::Stats* stats = nullptr,
                   weft::LoopOptions loops = {})
      : runtime_(&runtime), stats_(stats), loops_(loops) {}

  template <class F>
  void run(F&& f) {
    if (stats_ != nullptr) runtime_->reset_stats();
    runtime_->run(std::forward<F>(f));
    if (stats_ != nullptr) *stats_ = runtime_->stats();
  }
  template <class F, class G>
  void invoke(F&& f, G&& g) {
    // weft::invoke, weft's two-way fork as TBB's is parallel_invoke and Rayon's join: g is
    // pushed (a closure of one pointer: g lives in the caller's frame until the join), f runs
    // here. No Future lives in the frame, so nothing but a handler surrounds f's call.
    (void)weft::invoke([&g] { g(); }, [&f] { f(); });
  }
  template <class Body>
  void scope(Body&& body) {
    weft::scope(std::forward<Body>(body));  // weft::Scope::spawn(fn) is the child spawn
  }
  template <class Body>
  void for_range(int /*depth*/, std::size_t lo, std::size_t hi, const Body& body) {
    weft::parallel_for(lo, hi, body, loops_);  // nested loops nest in weft itself
  }

 private:
  weft::Runtime* runtime_;
  weft::Stats* stats_;
  weft::LoopOptions loops_;
};

}  // namespace kernels
