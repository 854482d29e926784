// TaskCallPar: the serial elision with each scope child compiled as a function of its own, a
// backend of the compare workloads (workloads/kernels/par.hpp). `weft-sim record` scales a
// recording's work to its time (docs/SIMULATOR.md, "Recorded DAGs").
//
// Why not the serial elision itself (kernels::SerialPar): there a scope child is a call the
// compiler may inline, and on a recursion it does, several levels deep into itself. In weft a
// scope child is called through its slot's function pointer, a call no compiler can inline,
// so the tasks run their own code, not the inlined elision's. On nqueens:12, 856,189 tasks of
// a few dozen nanoseconds, the elision is 8 % faster than the same program with its children
// kept out of line: time the engine would otherwise take from the tasks' work.
//
//   invoke(f, g)  the serial elision's, f() then g(): weft's invoke spawns g in a closure
//                 whose type its join knows, and calls it directly, where the compiler may
//                 inline it just the same.
//   scope(body)   body(s); each s.spawn(fn) calls fn at once through a call kept out of line.
//   run, for_range the serial elision's.
// Nothing of weft's own costs (slots, spawns, joins) is here: the engine and RecordPar add
// those (tools/sim/calibrate/spawn_overhead.hpp).
#pragma once

#include <string_view>
#include <utility>

#include "workloads/kernels/par.hpp"

namespace sim {

// The serial elision's run, invoke and for_range; its own scope.
class TaskCallPar : public kernels::SerialPar {
 public:
  static constexpr std::string_view kName = "task-call";

  class Scope {
   public:
    template <class F>
    void spawn(F&& fn) {
      call(fn);
    }

   private:
    template <class F>
    [[gnu::noinline]] static void call(F& fn) {
      fn();
    }
  };

  template <class Body>
  void scope(Body&& body) {
    Scope s;
    std::forward<Body>(body)(s);
  }
};

}  // namespace sim
