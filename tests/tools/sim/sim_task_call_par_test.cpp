// TaskCallPar (tools/sim/dag/task_call_par.hpp), the serial run that `weft-sim record` scales its
// recordings to: every compare workload verifies on it, and a scope child runs at its spawn,
// once, as in the serial elision, its closure destroyed.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tools/sim/dag/task_call_par.hpp"
#include "workloads/kernels/suite.hpp"

namespace {

using sim::TaskCallPar;

TEST(TaskCallPar, EveryCompareWorkloadVerifies) {
  for (const char* spec :
       {"fib:18", "uts:T5", "nqueens:7", "strassen:128", "sparselu:8x8", "fft:2^12", "sort:20000",
        "matmul:64", "matmul-loops:40:kji", "gauss-jordan:20"}) {
    TaskCallPar par;
    const kernels::Outcome outcome = kernels::run_spec(kernels::parse_spec(spec), par);
    EXPECT_EQ(outcome.error, "") << spec;
  }
}

// A closure that counts its live copies and its calls.
struct Counted {
  int* live;
  int* calls;
  Counted(int* l, int* c) : live(l), calls(c) { ++*live; }
  Counted(const Counted& o) : live(o.live), calls(o.calls) { ++*live; }
  Counted& operator=(const Counted&) = delete;
  ~Counted() { --*live; }
  void operator()() const { ++*calls; }
};

TEST(TaskCallPar, EachChildRunsAtItsSpawnOnceAndIsDestroyed) {
  TaskCallPar par;
  std::vector<std::string> order;
  int live = 0;
  int calls = 0;
  par.scope([&](auto& s) {
    for (int i = 0; i < 2; ++i) {
      s.spawn([&order, &par, i] {
        order.push_back("child " + std::to_string(i));
        par.scope([&](auto& inner) {
          inner.spawn([&order, i] { order.push_back("grandchild of " + std::to_string(i)); });
        });
      });
    }
    order.push_back("body");
    s.spawn(Counted(&live, &calls));
  });
  const std::vector<std::string> expected = {"child 0", "grandchild of 0", "child 1",
                                             "grandchild of 1", "body"};
  EXPECT_EQ(order, expected);
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(live, 0);
}

}  // namespace
