package weft.peer;

import java.io.PrintStream;
import java.util.concurrent.ForkJoinPool;

/**
 * weft-peer-java: weft's compare workloads fib, uts, nqueens and sort on java.util.concurrent's
 * ForkJoinPool, speaking the peer protocol (tools/peers/peer_cli.hpp):
 *
 * <pre>
 *   weft-peer-java --workload &lt;name&gt;[:&lt;size&gt;] --workers &lt;W&gt; [--repeat &lt;R&gt;]
 *   weft-peer-java --list
 * </pre>
 *
 * The pool (parallelism W) is made once. Untimed warm-up runs come first (Warmup); then
 * each repetition builds its input (untimed), times pool.invoke of the computation with
 * System.nanoTime, verifies (untimed) and prints one JSON line. A failed verification prints its
 * line with "verified":false and an "error", then exits 1; bad arguments print
 * "weft-peer-java: &lt;argument&gt;: &lt;what is wrong&gt;" on stderr and exit 2.
 */
public final class Main {
  static final String PROG = "weft-peer-java";

  /** One run's time, the output's account, and null or why it is wrong. */
  record Outcome(double seconds, String result, String error) {}

  static Outcome runOnce(Workloads.Spec spec, ForkJoinPool pool) {
    Work work;
    try {
      work = spec.make().get();
    } catch (OutOfMemoryError e) {
      return new Outcome(0, "", "cannot build the input: " + e
          + " (give the JVM more heap: WEFT_PEER_JAVA_OPTS=-Xmx<size>)");
    }
    long start = System.nanoTime();
    Throwable failure = null;
    try {
      work.compute(pool);
    } catch (Throwable e) { // a StackOverflowError or OutOfMemoryError is a failed run, not a crash
      failure = e;
    }
    double seconds = (System.nanoTime() - start) * 1e-9;
    if (failure != null) {
      String hint = failure instanceof StackOverflowError ? " (raise -Xss in the wrapper)" : "";
      return new Outcome(seconds, "", "the computation threw " + failure + hint);
    }
    return new Outcome(seconds, work.result(), work.verify());
  }

  /** The warm-up, then the timed repetitions; returns the exit status. */
  static int run(Args a, Warmup warmup, ForkJoinPool pool, PrintStream out) {
    String name = a.workload.text();
    boolean trace = Boolean.getBoolean("weft.peer.trace");
    long warmStart = System.nanoTime();
    for (int runs = 0; warmup.another(runs, (System.nanoTime() - warmStart) * 1e-9); ) {
      Outcome o = runOnce(a.workload, pool);
      ++runs;
      if (trace) { // one string, one write: the JVM's own logs may go to the same file
        System.err.println(String.format("%s: warm-up run %d: %.6f s", PROG, runs, o.seconds()));
      }
      if (o.error() != null) { // a wrong answer is wrong whether timed or not
        out.println(JsonLine.of(name, a.workers, o.seconds(), o.result(),
            "warm-up run " + runs + ": " + o.error()));
        out.flush();
        return 1;
      }
    }
    for (int rep = 0; rep < a.repeat; ++rep) {
      Outcome o = runOnce(a.workload, pool);
      out.println(JsonLine.of(name, a.workers, o.seconds(), o.result(), o.error()));
      out.flush();
      if (o.error() != null) return 1;
    }
    return 0;
  }

  public static void main(String[] argv) {
    Args a;
    Warmup warmup;
    try {
      a = Args.parse(argv);
      warmup = Warmup.fromProperties();
    } catch (ArgError e) {
      System.err.println(PROG + ": " + e.argument + ": " + e.what);
      System.exit(2);
      return;
    }
    PrintStream out = System.out;
    if (a.list) {
      for (String[] w : Workloads.LIST) out.println(w[0] + " " + w[1]);
      out.flush();
      return;
    }
    // Parallelism = workers; the default thread factory, whose threads take -Xss's stack size.
    ForkJoinPool pool = new ForkJoinPool(a.workers);
    int status = run(a, warmup, pool, out);
    out.flush();
    System.exit(status); // the pool's threads are daemons, but say the status explicitly
  }

  private Main() {}
}
