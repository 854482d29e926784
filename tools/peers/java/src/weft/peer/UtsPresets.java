package weft.peer;

import weft.peer.UtsTree.Params;
import weft.peer.UtsTree.Shape;

/**
 * The named UTS trees of workloads/uts/presets.cpp with their published sizes: T1..T5, T1L..T3L
 * are the UTS 2.1 reference's sample_workloads.sh trees; A and B are Adnan & Sato's Table 1
 * binomial trees (A is T3; B is the Barcelona OpenMP Tasks Suite's "tiny" input, whose size BOTS
 * corrected to 30,399,117 and whose leaves and depth nobody publishes).
 */
final class UtsPresets {
  /** A tree and what its source publishes; null leaves/maxDepth: not published. */
  record Preset(String name, Params params, long nodes, Long leaves, Integer maxDepth) {
    boolean publishesEverything() {
      return leaves != null && maxDepth != null;
    }
  }

  static final Preset[] ALL = {
    new Preset("T1", Params.geometric(Shape.FIXED, 10, 4, 19), 4130071L, 3305118L, 10),
    new Preset("T2", Params.geometric(Shape.CYCLIC, 16, 6, 502), 4117769L, 2342762L, 81),
    new Preset("T3", Params.binomial(2000, 0.124875, 8, 42), 4112897L, 3599034L, 1572),
    new Preset("T4", Params.hybrid(Shape.LINEAR, 16, 6, 0.234375, 4, 1), 4132453L, 3108986L, 134),
    new Preset("T5", Params.geometric(Shape.LINEAR, 20, 4, 34), 4147582L, 2181318L, 20),
    new Preset("T1L", Params.geometric(Shape.FIXED, 13, 4, 29), 102181082L, 81746377L, 13),
    new Preset("T2L", Params.geometric(Shape.CYCLIC, 23, 7, 220), 96793510L, 53791152L, 67),
    new Preset("T3L", Params.binomial(2000, 0.200014, 5, 7), 111345631L, 89076904L, 17844),
    new Preset("A", Params.binomial(2000, 0.124875, 8, 42), 4112897L, 3599034L, 1572),
    new Preset("B", Params.binomial(2000, 0.333332, 3, 8), 30399117L, null, null),
  };

  /** The preset called `name`, case-insensitively ("t3", "T3"), or null. */
  static Preset find(String name) {
    for (Preset p : ALL) {
      if (equalIgnoringAsciiCase(p.name(), name)) return p;
    }
    return null;
  }

  // ASCII only, as presets.cpp's tolower loop (String.equalsIgnoreCase would also take e.g.
  // the Kelvin sign for a 'k').
  private static boolean equalIgnoringAsciiCase(String a, String b) {
    if (a.length() != b.length()) return false;
    for (int i = 0; i < a.length(); ++i) {
      char x = a.charAt(i);
      char y = b.charAt(i);
      if (x >= 'A' && x <= 'Z') x = (char) (x + 32);
      if (y >= 'A' && y <= 'Z') y = (char) (y + 32);
      if (x != y) return false;
    }
    return true;
  }

  static String names() {
    StringBuilder s = new StringBuilder();
    for (Preset p : ALL) s.append(s.length() == 0 ? "" : ", ").append(p.name());
    return s.toString();
  }

  private UtsPresets() {}
}
