package weft.peer;

import java.util.function.Supplier;

/**
 * The workloads this peer runs, in the order of the C++ suite's ForkJoinWorkloads (suite.hpp)
 * with its default sizes, and the parsing of a "name[:size]" spec with the Rayon peer's rules
 * and messages. Only the fork-join workloads that have a Java form are here; weft-bench compare
 * reads --list and reports the others as skipped for this peer.
 */
final class Workloads {
  static final String[][] LIST = {
    {"fib", Fib.DEFAULT}, {"uts", Uts.DEFAULT}, {"nqueens", NQueens.DEFAULT}, {"sort", Sort.DEFAULT},
  };

  /** A parsed workload: the JSON line's text and a maker of one run's Work (input built). */
  record Spec(String text, Supplier<Work> make) {}

  /** An integer as the C++ side's from_chars reads it: an optional '-', then digits only. */
  static Long parseInt(String text) {
    String digits = text.startsWith("-") ? text.substring(1) : text;
    if (digits.isEmpty()) return null;
    for (int i = 0; i < digits.length(); ++i) {
      char c = digits.charAt(i);
      if (c < '0' || c > '9') return null;
    }
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) { // beyond a long
      return null;
    }
  }

  /**
   * A count as the C++ side's parse_count reads it, "30", "2^4", "1e1": an integer in [lo, hi].
   * Throws the message naming the value and what is wrong.
   */
  static long parseCount(String text, long lo, long hi) throws IllegalArgumentException {
    String notCount = "'" + text + "' is not a count (write e.g. 4096, 2^22 or 1e7)";
    long value;
    int at = -1;
    for (int i = 0; i < text.length() && at < 0; ++i) {
      char c = text.charAt(i);
      if (c == '^' || c == 'e' || c == 'E') at = i;
    }
    if (at >= 0) {
      Long base = parseInt(text.substring(0, at));
      Long exp = parseInt(text.substring(at + 1));
      if (base == null || exp == null || base < 1 || exp < 0 || exp > 62) {
        throw new IllegalArgumentException(notCount);
      }
      // Math.pow is exact wherever the power is a representable integer (its specification).
      double v = text.charAt(at) == '^'
          ? Math.pow((double) base, (double) exp)
          : (double) base * Math.pow(10.0, (double) exp);
      if (v > (double) hi) throw new IllegalArgumentException("'" + text + "' is too large");
      value = (long) v;
    } else {
      Long v = parseInt(text);
      if (v == null) throw new IllegalArgumentException(notCount);
      value = v;
    }
    if (value < lo || value > hi) {
      throw new IllegalArgumentException(
          "'" + text + "' is out of range [" + lo + ", " + hi + "]");
    }
    return value;
  }

  /** "fib:30", "uts:T1", "sort" (the default size). The error's argument is the spec. */
  static Spec parse(String spec) throws ArgError {
    int colon = spec.indexOf(':');
    String name = colon < 0 ? spec : spec.substring(0, colon);
    String size = colon < 0 ? "" : spec.substring(colon + 1);
    String def = null;
    for (String[] w : LIST) {
      if (w[0].equals(name)) def = w[1];
    }
    if (def == null) {
      StringBuilder names = new StringBuilder();
      for (String[] w : LIST) names.append(names.length() == 0 ? "" : ", ").append(w[0]);
      throw new ArgError(spec, "unknown workload (known: " + names + ")");
    }
    if (colon >= 0 && size.isEmpty()) {
      throw new ArgError(spec, "empty size (omit ':' for the default)");
    }
    if (size.isEmpty()) size = def;
    // The line names the spec as the C++ peers' Spec::text() does: the size as given.
    String text = name + ":" + size;
    try {
      switch (name) {
        case "fib": {
          int n = (int) parseCount(size, 0, Fib.MAX_N);
          return new Spec(text, () -> new Fib(n));
        }
        case "nqueens": {
          int n = (int) parseCount(size, 1, NQueens.MAX_N);
          return new Spec(text, () -> new NQueens(n));
        }
        case "sort": {
          int n = (int) parseCount(size, 1, Sort.MAX_ELEMENTS);
          return new Spec(text, () -> new Sort(n));
        }
        default: {
          UtsPresets.Preset p = UtsPresets.find(size);
          if (p == null) {
            throw new IllegalArgumentException(
                "'" + size + "' is not a UTS preset (expected one of " + UtsPresets.names() + ")");
          }
          return new Spec(text, () -> new Uts(p));
        }
      }
    } catch (IllegalArgumentException e) {
      throw new ArgError(spec, e.getMessage());
    }
  }

  private Workloads() {}
}
