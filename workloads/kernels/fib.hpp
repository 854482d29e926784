// Fibonacci, the spawn-overhead workload: fib(n) by the doubly recursive definition, every
// call a task, no cutoff (seed 000 Sect. 4.1.2). Verified against the iterative value.
#pragma once

#include <string>
#include <string_view>

#include "workloads/common/fib_reference.hpp"
#include "workloads/kernels/workload.hpp"

namespace kernels {

// fib(n) by iteration: the reference every Fibonacci run is checked against.
using common::fib_by_iteration;

class Fib {
 public:
  static constexpr std::string_view kName = "fib";
  static constexpr std::string_view kDefault = "35";
  struct Params {
    int n = 35;
  };
  static Params parse(std::string_view size);

  explicit Fib(const Params& params) : n_(params.n) {}

  template <class Par>
  void compute(Par& par) {
    value_ = fib(par, n_);
  }
  std::string verify() const;
  std::string result() const;

 private:
  template <class Par>
  static long fib(Par& par, int n) {
    if (n < 2) return n;
    long a = 0, b = 0;
    par.invoke([&] { a = fib(par, n - 2); }, [&] { b = fib(par, n - 1); });
    return a + b;
  }

  int n_;
  long value_ = -1;
};

}  // namespace kernels
