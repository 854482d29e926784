package weft.peer;

/**
 * The command line, with the Rayon peer's rules and messages (tools/peers/rayon/src/main.rs):
 *
 * <pre>
 *   weft-peer-java --workload &lt;name&gt;[:&lt;size&gt;] --workers &lt;W&gt; [--repeat &lt;R&gt;]
 *   weft-peer-java --list
 * </pre>
 *
 * No loop workloads, so --loops, --schedule and --list-loops are unknown options, as there.
 */
final class Args {
  static final long MAX_WORKERS = 4096; // as weft-bench --workers and every peer
  static final long MAX_REPEAT = 1_000_000;

  boolean list;
  Workloads.Spec workload;
  int workers;
  int repeat = 1;

  static Args parse(String[] args) throws ArgError {
    Args a = new Args();
    boolean haveWorkers = false;
    boolean haveRepeat = false;
    int i = 0;
    while (i < args.length) {
      String opt = args[i++];
      switch (opt) {
        case "--list":
          if (a.list) throw new ArgError(opt, "given twice");
          a.list = true;
          continue;
        case "--workload":
        case "--workers":
        case "--repeat":
          break;
        default:
          throw new ArgError(opt, opt.startsWith("-") ? "unknown option" : "unexpected argument");
      }
      if (i == args.length || args[i].startsWith("--")) throw new ArgError(opt, "missing value");
      String value = args[i++];
      switch (opt) {
        case "--workload":
          if (a.workload != null) throw new ArgError(opt, "given twice");
          a.workload = Workloads.parse(value);
          break;
        case "--workers":
          if (haveWorkers) throw new ArgError(opt, "given twice");
          a.workers = (int) positive(opt, value, MAX_WORKERS);
          haveWorkers = true;
          break;
        default:
          if (haveRepeat) throw new ArgError(opt, "given twice");
          a.repeat = (int) positive(opt, value, MAX_REPEAT);
          haveRepeat = true;
          break;
      }
    }
    if (a.list) {
      if (a.workload != null || haveWorkers || haveRepeat) {
        throw new ArgError("--list", "takes no other option");
      }
      return a;
    }
    if (a.workload == null) throw new ArgError("--workload", "required");
    if (!haveWorkers) throw new ArgError("--workers", "required");
    return a;
  }

  private static long positive(String opt, String value, long max) throws ArgError {
    Long v = Workloads.parseInt(value);
    if (v == null) throw new ArgError(opt, "'" + value + "' is not an integer");
    if (v < 1 || v > max) throw new ArgError(opt, "'" + value + "' is out of range [1, " + max + "]");
    return v;
  }
}
