package weft.peer;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ForkJoinPool;
import java.util.function.Supplier;
import weft.peer.UtsTree.Params;
import weft.peer.UtsTree.Shape;
import weft.peer.UtsTree.Type;

/**
 * The peer's own tests, a plain main (no test framework: the build needs only a JDK):
 *
 * <pre>
 *   java -Xss1g -cp classes weft.peer.SelfTest                   every check below
 *   java -Xss1g -cp classes weft.peer.SelfTest --presets T1L,B    only those UTS presets
 *   java -Xss1g -cp classes weft.peer.SelfTest --chain 20000      only a chain that deep
 * </pre>
 *
 * Checks the UTS counts of T1..T5 against the published ones (and trees of every type and shape
 * against counts weft's C++ library gives), a chain deeper than T3L for the worker stacks,
 * nqueens against OEIS A000170, fib against the iterative value, sort with cutoffs small enough
 * to make many tasks, that verify() rejects a spoiled output of every workload, that a wrong run
 * makes the protocol line "verified":false and exit status 1, and the argument errors. Prints
 * one line per failure and a summary; exits 1 if anything failed.
 */
public final class SelfTest {
  private static int checks;
  private static int failures;

  private static void check(boolean ok, String what) {
    ++checks;
    if (!ok) {
      ++failures;
      System.out.println("FAIL: " + what);
    }
  }

  private static void checkEqual(Object got, Object want, String what) {
    check(got == null ? want == null : got.equals(want), what + ": got " + got + ", want " + want);
  }

  private static UtsCounts counts(long nodes, long leaves, int depth) {
    return new UtsCounts(nodes, leaves, depth);
  }

  // ---- UTS

  private static void utsPresets(ForkJoinPool pool, String[] names) {
    for (String name : names) {
      UtsPresets.Preset p = UtsPresets.find(name);
      if (p == null) {
        check(false, "no UTS preset " + name);
        continue;
      }
      long start = System.nanoTime();
      Uts run = new Uts(p);
      run.compute(pool);
      String error = run.verify();
      check(error == null, error); // verify() names the tree
      System.out.printf("uts %s: %s%s (%.1f s with verification)%n", p.name(), run.result(),
          error == null ? ", as published" : ", WRONG", (System.nanoTime() - start) * 1e-9);
    }
  }

  /** Trees beyond the presets, with the counts `weft-bench uts <flags> --impl seq` gives. */
  private static void utsCustomTrees(ForkJoinPool pool) {
    Object[][] cases = {
      {"-t 1 -a 1 -d 6 -b 4 -r 0", Params.geometric(Shape.EXPDEC, 6, 4, 0), counts(4509, 2319, 17)},
      {"-t 1 -a 1 -d 10 -b 3 -r 7", Params.geometric(Shape.EXPDEC, 10, 3, 7),
        counts(11360, 5746, 28)},
      {"-t 3 -b 4 -d 6 -r 0", Params.geometric(Shape.LINEAR, 6, 4, 0).withType(Type.BALANCED),
        counts(5461, 4096, 6)},
      {"-t 2 -a 1 -d 8 -b 4 -q 0.2 -m 4 -r 0", Params.hybrid(Shape.EXPDEC, 8, 4, 0.2, 4, 0),
        counts(2068, 1533, 18)},
      {"-t 2 -a 2 -d 10 -b 3 -q 0.2 -m 4 -r 0 -f 0.3",
        Params.hybrid(Shape.CYCLIC, 10, 3, 0.2, 4, 0).withShiftDepth(0.3), counts(451, 341, 15)},
      {"-t 1 -a 0 -d 12 -b 3.5 -r 11 -g 2",
        Params.geometric(Shape.LINEAR, 12, 3.5, 11).withGranularity(2), counts(7447, 4049, 12)},
    };
    for (Object[] c : cases) {
      UtsTree tree = new UtsTree((Params) c[1]);
      UtsCounts want = (UtsCounts) c[2];
      checkEqual(Uts.traverseSequential(tree).toString(), want.toString(), c[0] + " sequentially");
      checkEqual(Uts.traverse(pool, tree).toString(), want.toString(), c[0] + " on the pool");
    }
  }

  /**
   * A chain (a balanced tree of fan-out 1) `depth` levels deep: the recursion is as deep as in
   * T3L (17,844 levels) at a thousandth of the work, so it shows whether the worker threads'
   * stacks (-Xss) are deep enough.
   */
  private static void utsChain(ForkJoinPool pool, int depth) {
    UtsTree chain = new UtsTree(Params.geometric(Shape.LINEAR, depth, 1, 0).withType(Type.BALANCED));
    String want = counts(depth + 1, 1, depth).toString();
    try {
      checkEqual(Uts.traverse(pool, chain).toString(), want, "a chain " + depth + " deep");
    } catch (StackOverflowError e) {
      check(false, "a chain " + depth + " deep overflowed the worker's stack (-Xss)");
    }
  }

  private static void utsVerifyRejects() {
    Uts run = new Uts(UtsPresets.find("T1"));
    run.setCountsForTesting(counts(4130071, 3305118, 10));
    check(run.verify() == null, "uts T1: the published counts verify");
    run.setCountsForTesting(counts(4130070, 3305118, 10));
    check(run.verify() != null, "uts T1: one node short must not verify");
    run.setCountsForTesting(counts(4130071, 3305118, 11));
    check(run.verify() != null, "uts T1: a wrong depth must not verify");
  }

  // ---- nqueens, fib, sort

  private static void nqueens(ForkJoinPool pool) {
    long[] a000170 = {1, 0, 0, 2, 10, 4, 40, 92, 352, 724};
    for (int n = 1; n <= a000170.length; ++n) {
      NQueens run = new NQueens(n);
      run.compute(pool);
      checkEqual(run.result(), "solutions=" + a000170[n - 1], "nqueens " + n);
      check(run.verify() == null, "nqueens " + n + " verifies: " + run.verify());
    }
    NQueens spoiled = new NQueens(8);
    spoiled.compute(pool);
    spoiled.setSolutionsForTesting(91);
    checkEqual(spoiled.verify(), "nqueens(8) counted 91 solutions, expected 92 (OEIS A000170)",
        "nqueens: a wrong count must not verify");
  }

  private static void fib(ForkJoinPool pool) {
    for (int n = 0; n <= 25; ++n) {
      Fib run = new Fib(n);
      run.compute(pool);
      check(run.verify() == null, "fib " + n + ": " + run.verify());
    }
    Fib spoiled = new Fib(20);
    spoiled.compute(pool);
    checkEqual(spoiled.result(), "fib(20) = 6765", "fib(20)");
    spoiled.setValueForTesting(6764);
    checkEqual(spoiled.verify(), "fib(20) = 6764, expected 6765", "fib: a wrong value");
  }

  private static void sort(ForkJoinPool pool) {
    int[][] shapes = {{1, 4, 4}, {2, 1, 1}, {3, 1, 1}, {100, 4, 4}, {12345, 16, 8},
      {100000, Sort.SORT_CUTOFF, Sort.MERGE_CUTOFF}, {100000, 64, 2}};
    for (int[] s : shapes) {
      Sort run = new Sort(s[0], s[1], s[2]);
      run.compute(pool);
      check(run.verify() == null, "sort " + s[0] + " (cutoffs " + s[1] + ", " + s[2] + "): "
          + run.verify());
    }
    // The same input as the C++ side (a gomp peer run of sort:12345 printed this result).
    Sort ref = new Sort(12345);
    ref.compute(pool);
    checkEqual(ref.result(), "sorted n=12345 min=-2147283432 max=2147244956", "sort 12345 result");

    Sort unsorted = new Sort(1000);
    unsorted.compute(pool);
    int[] out = unsorted.outputForTesting();
    int t = out[10];
    out[10] = out[11];
    out[11] = t;
    String e1 = unsorted.verify();
    check(e1 != null && e1.startsWith("sort: output not sorted at index 11"),
        "sort: two swapped elements must not verify: " + e1);

    Sort lost = new Sort(1000);
    lost.compute(pool);
    out = lost.outputForTesting();
    out[500] = out[499]; // still sorted, but an element lost and another duplicated
    String e2 = lost.verify();
    check(e2 != null && e2.startsWith("sort: output is sorted but not the input's elements"),
        "sort: a duplicated element must not verify: " + e2);
  }

  // ---- the protocol

  /** A run whose output is spoiled after compute: the line says so and the status is 1. */
  private static void wrongRunExits1(ForkJoinPool pool) throws ArgError {
    Args a = Args.parse(new String[] {"--workload", "nqueens:6", "--workers", "2"});
    Supplier<Work> spoiled = () -> new Work() {
      final NQueens inner = new NQueens(6);

      @Override
      void compute(ForkJoinPool p) {
        inner.compute(p);
        inner.setSolutionsForTesting(3); // 4 is right
      }

      @Override
      String verify() {
        return inner.verify();
      }

      @Override
      String result() {
        return inner.result();
      }
    };
    a.workload = new Workloads.Spec(a.workload.text(), spoiled);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int status = Main.run(a, new Warmup(0, 0), pool, new PrintStream(bytes, true));
    String line = bytes.toString(StandardCharsets.UTF_8).trim();
    checkEqual(status, 1, "a wrong run's exit status");
    check(line.startsWith("{\"peer\":\"java\",\"workload\":\"nqueens:6\",\"workers\":2,\"seconds\":")
        && line.endsWith(",\"result\":\"solutions=3\",\"verified\":false,\"error\":"
            + "\"nqueens(6) counted 3 solutions, expected 4 (OEIS A000170)\"}"),
        "a wrong run's line: " + line);

    // The same through the warm-up: a wrong warm-up run fails the same way.
    bytes.reset();
    status = Main.run(a, new Warmup(1, 0), pool, new PrintStream(bytes, true));
    line = bytes.toString(StandardCharsets.UTF_8).trim();
    checkEqual(status, 1, "a wrong warm-up run's exit status");
    check(line.contains("\"verified\":false,\"error\":\"warm-up run 1: nqueens(6) counted 3"),
        "a wrong warm-up run's line: " + line);

    Args good = Args.parse(new String[] {"--workload", "fib:12", "--workers", "2", "--repeat", "2"});
    bytes.reset();
    status = Main.run(good, new Warmup(1, 0), pool, new PrintStream(bytes, true));
    String[] lines = bytes.toString(StandardCharsets.UTF_8).trim().split("\n");
    checkEqual(status, 0, "a right run's exit status");
    checkEqual(lines.length, 2, "one line per repetition");
    check(lines[0].matches("\\{\"peer\":\"java\",\"workload\":\"fib:12\",\"workers\":2,"
        + "\"seconds\":[0-9]+\\.[0-9]{9},\"result\":\"fib\\(12\\) = 144\",\"verified\":true}"),
        "a right run's line: " + lines[0]);
  }

  private static String argError(String... args) {
    try {
      Args.parse(args);
      return "(accepted)";
    } catch (ArgError e) {
      return e.argument + ": " + e.what;
    }
  }

  private static void arguments() throws ArgError {
    String[][] cases = {
      {"--workload: required", "--workers", "2"},
      {"--workers: required", "--workload", "fib"},
      {"--workers: '0' is out of range [1, 4096]", "--workload", "fib", "--workers", "0"},
      {"--workers: '4097' is out of range [1, 4096]", "--workload", "fib", "--workers", "4097"},
      {"--workers: 'two' is not an integer", "--workload", "fib", "--workers", "two"},
      {"--repeat: '0' is out of range [1, 1000000]", "--workload", "fib", "--workers", "1",
        "--repeat", "0"},
      {"--workers: missing value", "--workload", "fib", "--workers"},
      {"--workload: missing value", "--workload", "--workers", "2"},
      {"--workers: given twice", "--workload", "fib", "--workers", "1", "--workers", "2"},
      {"--bogus: unknown option", "--bogus"},
      {"stray: unexpected argument", "stray"},
      {"--loops: unknown option", "--workload", "fib", "--workers", "2", "--loops", "simple"},
      {"--schedule: unknown option", "--workload", "fib", "--workers", "2", "--schedule", "static"},
      {"--list-loops: unknown option", "--list-loops"},
      {"--list: takes no other option", "--list", "--workers", "2"},
      {"--list: given twice", "--list", "--list"},
      {"strassen:1024: unknown workload (known: fib, uts, nqueens, sort)", "--workload",
        "strassen:1024", "--workers", "2"},
      {"fib:: empty size (omit ':' for the default)", "--workload", "fib:", "--workers", "2"},
      {"fib:51: '51' is out of range [0, 50]", "--workload", "fib:51", "--workers", "2"},
      {"fib:x: 'x' is not a count (write e.g. 4096, 2^22 or 1e7)", "--workload", "fib:x"},
      {"nqueens:99: '99' is out of range [1, 20]", "--workload", "nqueens:99"},
      {"nqueens:0: '0' is out of range [1, 20]", "--workload", "nqueens:0"},
      {"sort:3e9: '3e9' is too large", "--workload", "sort:3e9"},
      {"sort:+5: '+5' is not a count (write e.g. 4096, 2^22 or 1e7)", "--workload", "sort:+5"},
      {"uts:T9: 'T9' is not a UTS preset (expected one of T1, T2, T3, T4, T5, T1L, T2L, T3L, A, B)",
        "--workload", "uts:T9"},
    };
    for (String[] c : cases) {
      String[] args = java.util.Arrays.copyOfRange(c, 1, c.length);
      checkEqual(argError(args), c[0], "arguments " + String.join(" ", args));
    }
    checkEqual(Workloads.parseCount("2^4", 0, 50), 16L, "2^4");
    checkEqual(Workloads.parseCount("1e1", 0, 50), 10L, "1e1");
    checkEqual(Workloads.parseCount("3E1", 0, 50), 30L, "3E1");
    checkEqual(Args.parse(new String[] {"--workload", "sort", "--workers", "3"}).workload.text(),
        "sort:1e7", "the default size");
    checkEqual(Args.parse(new String[] {"--workload", "uts:t3", "--workers", "3"}).workload.text(),
        "uts:t3", "the size as given");
    checkEqual(JsonLine.quote("a\"b\\c\nd\u0001"), "\"a\\\"b\\\\c\\nd\\u0001\"", "JSON escapes");
    try {
      System.setProperty("weft.peer.warmup.runs", "x");
      Warmup.fromProperties();
      check(false, "a bad warm-up property must be an error");
    } catch (ArgError e) {
      checkEqual(e.argument + ": " + e.what,
          "-Dweft.peer.warmup.runs=x: expected a number in [0, 1000]", "warm-up property");
    } finally {
      System.clearProperty("weft.peer.warmup.runs");
    }
  }

  public static void main(String[] argv) throws Exception {
    ForkJoinPool pool = new ForkJoinPool(2);
    long start = System.nanoTime();
    if (argv.length == 2 && argv[0].equals("--presets")) {
      utsPresets(pool, argv[1].split(","));
    } else if (argv.length == 2 && argv[0].equals("--chain")) {
      utsChain(pool, Integer.parseInt(argv[1]));
    } else if (argv.length == 0) {
      arguments();
      fib(pool);
      nqueens(pool);
      sort(pool);
      wrongRunExits1(pool);
      utsVerifyRejects();
      utsCustomTrees(pool);
      utsChain(pool, 20000);
      utsPresets(pool, new String[] {"T1", "T2", "T3", "T4", "T5"});
    } else {
      System.err.println("usage: SelfTest [--presets T1,T2,... | --chain DEPTH]");
      System.exit(2);
    }
    System.out.printf("%d checks, %d failed (%.1f s)%n", checks, failures,
        (System.nanoTime() - start) * 1e-9);
    System.exit(failures == 0 ? 0 : 1);
  }

  private SelfTest() {}
}
