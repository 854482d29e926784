// fib(n) by iteration: the reference every Fibonacci run in the benchmarks is checked
// against, and, with fib(n + 1) - 1, the number of spawns of the doubly recursive fib(n).
#pragma once

namespace common {

inline long fib_by_iteration(int n) {
  long a = 0, b = 1;
  for (int i = 0; i < n; ++i) {
    const long next = a + b;
    a = b;
    b = next;
  }
  return a;
}

}  // namespace common
