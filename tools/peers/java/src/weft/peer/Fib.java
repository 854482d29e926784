package weft.peer;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;

/**
 * fib, the spawn-overhead workload, as workloads/kernels/fib.hpp: fib(n) by the doubly recursive
 * definition, every call a task, no cutoff, verified against the iterative value.
 * invokeAll(a, b) forks b and runs a at once, so fib(n-2) runs here and fib(n-1) may be stolen:
 * the roles of the C++ side's par.invoke(f, g).
 */
final class Fib extends Work {
  static final String DEFAULT = "35";
  // fib(92) is the largest that fits a long; 50 already takes hours in tasks (fib.cpp).
  static final long MAX_N = 50;

  private final int n;
  private long value = -1;

  Fib(int n) {
    this.n = n;
  }

  static final class Task extends RecursiveTask<Long> {
    private final int n;

    Task(int n) {
      this.n = n;
    }

    @Override
    protected Long compute() {
      if (n < 2) return (long) n;
      Task a = new Task(n - 2);
      Task b = new Task(n - 1);
      invokeAll(a, b);
      return a.getRawResult() + b.getRawResult();
    }
  }

  /** fib(n) by iteration: the reference. */
  static long byIteration(int n) {
    long a = 0;
    long b = 1;
    for (int i = 0; i < n; ++i) {
      long next = a + b;
      a = b;
      b = next;
    }
    return a;
  }

  @Override
  void compute(ForkJoinPool pool) {
    value = pool.invoke(new Task(n));
  }

  @Override
  String verify() {
    long a = byIteration(n);
    return value == a ? null : "fib(" + n + ") = " + value + ", expected " + a;
  }

  @Override
  String result() {
    return "fib(" + n + ") = " + value;
  }

  /** Test-only: replaces the computed value, so that a test can show verify() rejects it. */
  void setValueForTesting(long v) {
    value = v;
  }
}
