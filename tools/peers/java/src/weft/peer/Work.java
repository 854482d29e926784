package weft.peer;

import java.util.concurrent.ForkJoinPool;

/**
 * One run of a workload, as workloads/kernels/workload.hpp's interface: the constructor builds
 * the input (untimed), compute() is the timed part and runs the computation inside the pool,
 * verify() and result() look at the output afterwards (untimed).
 */
abstract class Work {
  /** The timed computation: one pool.invoke of the workload's root task. Called once. */
  abstract void compute(ForkJoinPool pool);

  /** null if compute's output is right, else a one-line reason. */
  abstract String verify();

  /** A short account of the output, the C++ workload's result() text. */
  abstract String result();
}
