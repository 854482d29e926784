// A test-only backend for the compare workloads: weft, with the root task held back once
// per run until a task has started on another worker, so that small multi-worker runs
// really run in parallel (and ThreadSanitizer sees them do so) even on a loaded machine.
#pragma once

#include <atomic>
#include <chrono>
#include <string_view>
#include <thread>
#include <type_traits>

#include "weft/weft.hpp"
#include "workloads/kernels/weft_par.hpp"

namespace kernels {

// WeftPar, except that once per run the root task is held back at the first fork point
// where at least two tasks wait on its stack (so that fixed:2 can steal too) until some
// task has started on another worker. Runs this small last well under a millisecond, and on
// a loaded machine the other workers may not wake up in that time: without the hold the
// multi-worker runs (and ThreadSanitizer's view of them) could all be serial in fact.
class StealForcingPar {
 public:
  static constexpr std::string_view kName = "weft-held";
  explicit StealForcingPar(weft::Runtime& runtime) : inner_(runtime) {}

  template <class Scope>
  class HeldScope {
   public:
    HeldScope(Scope& scope, StealForcingPar& par) : scope_(&scope), par_(&par) {}
    template <class F>
    void spawn(F fn) {
      StealForcingPar* par = par_;
      scope_->spawn([fn, par] {
        par->note_start();
        fn();
      });
    }

   private:
    Scope* scope_;
    StealForcingPar* par_;
  };

  template <class F>
  void run(F&& f) {
    armed_ = true;
    inner_.run([&] {
      root_ = std::this_thread::get_id();
      f();
    });
  }
  template <class F, class G>
  void invoke(F&& f, G&& g) {
    inner_.invoke(
        [&] {
          hold_root();
          f();
        },
        [&] {
          note_start();
          g();
        });
  }
  template <class Body>
  void scope(Body&& body) {
    inner_.scope([&](auto& scope) {
      HeldScope<std::remove_reference_t<decltype(scope)>> held(scope, *this);
      body(held);
      hold_root();
    });
  }

  bool held() const { return held_; }            // a hold happened in the last run
  bool timed_out() const { return timed_out_; }  // and no task started elsewhere in time

 private:
  void note_start() {
    if (std::this_thread::get_id() != root_) started_elsewhere_.store(true);
  }
  void hold_root() {
    // Only the root's thread reads or writes armed_ during a run, so test the thread first.
    if (std::this_thread::get_id() != root_ || !armed_ || weft::pending_tasks() < 2) return;
    armed_ = false;
    held_ = true;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!started_elsewhere_.load()) {
      if (std::chrono::steady_clock::now() > deadline) {
        timed_out_ = true;
        return;
      }
      std::this_thread::yield();
    }
  }

  kernels::WeftPar inner_;
  std::thread::id root_;
  bool armed_ = false;
  bool held_ = false;
  bool timed_out_ = false;
  std::atomic<bool> started_elsewhere_{false};
};

}  // namespace kernels
