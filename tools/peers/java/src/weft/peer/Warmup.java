package weft.peer;

/**
 * How many untimed runs come before the timed ones (README.md, "JIT warm-up", has the
 * observations behind the defaults). Every repetition of weft-bench compare is a fresh JVM
 * (--repeat 1), so without a warm-up each timed run would start in the bytecode interpreter and
 * include the JIT compiling, deoptimising and recompiling the workload's methods and
 * ForkJoinPool's. The warm-up runs the same workload at the requested size, so that the
 * profiles the JIT compiles from are the timed runs' own (another size or workload would train
 * other branches of the same methods) and the heap has grown to what a run needs.
 *
 * <p>The rule: at least `runs` runs, then more while they have taken less than `seconds` in
 * all, at most MAX_RUNS. Defaults: 3 runs, 2 seconds. Why 3: under -XX:+PrintCompilation (2
 * workers, a loaded 2-core machine) the C2 compiles of the hot methods (the task's compute,
 * invokeAll, doExec, awaitDone, the SHA-1 path) and the deoptimise-and-recompile rounds of
 * ForkJoinTask's join path went on through the second run: fib:35 made 14 C2 compiles and 7
 * deoptimisations in run 1, 4 compiles in run 2, 1 in run 3; uts:T3 27/5, 8/2, 2/0 (and once
 * 6/4 in run 4). C2's queue lags the workers: a method queued 0.7 s into uts:T3 was installed
 * at 3.6 s. After that only rare branches of the join path deoptimise now and then, which no
 * number of runs rules out, while every extra run costs each compare process a whole run. Why
 * 2 seconds: a small size (fib:20 takes about a millisecond) needs many runs before its
 * methods are invoked often enough for C2 and C2 has had the time to compile them.
 * -Dweft.peer.warmup.runs=N and -Dweft.peer.warmup.seconds=S (through WEFT_PEER_JAVA_OPTS)
 * change them, for experiments.
 */
final class Warmup {
  static final int DEFAULT_RUNS = 3;
  static final double DEFAULT_SECONDS = 2.0;
  // A tiny workload (fib:10 takes microseconds) would otherwise repeat for the whole budget.
  static final int MAX_RUNS = 1000;

  final int runs;
  final double seconds;

  Warmup(int runs, double seconds) {
    this.runs = runs;
    this.seconds = seconds;
  }

  /** The settings from the system properties; a bad value is an ArgError naming it. */
  static Warmup fromProperties() throws ArgError {
    return new Warmup(
        (int) property("weft.peer.warmup.runs", DEFAULT_RUNS, MAX_RUNS),
        property("weft.peer.warmup.seconds", DEFAULT_SECONDS, 3600));
  }

  private static double property(String key, double fallback, double max) throws ArgError {
    String text = System.getProperty(key);
    if (text == null) return fallback;
    double v;
    try {
      v = Double.parseDouble(text);
    } catch (NumberFormatException e) {
      v = Double.NaN;
    }
    if (!(v >= 0 && v <= max)) {
      throw new ArgError("-D" + key + "=" + text, "expected a number in [0, " + (long) max + "]");
    }
    return v;
  }

  /** Whether another warm-up run is due after `done` runs that took `spent` seconds. */
  boolean another(int done, double spent) {
    return done < runs || (spent < seconds && done < MAX_RUNS);
  }
}
