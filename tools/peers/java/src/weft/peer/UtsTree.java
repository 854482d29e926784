package weft.peer;

/**
 * A UTS tree as workloads/uts/tree.hpp/.cpp defines it (after the UTS 2.1 reference, uts.c): its
 * parameters and the rule that gives each node its number of children, drawn from the node's
 * own SHA-1 state (Sha1Stream), so every subtree is fixed by its root alone.
 *
 * <p>The floating-point expressions keep tree.cpp's operand order: Java evaluates left to right
 * and never contracts a*b+c into a fused multiply-add, like the C++ side's -ffp-contract=off.
 * The transcendental functions are StrictMath's (fdlibm), not glibc's: they differ from glibc's
 * log in the last bit for about 7% of the values log(1 - u) takes here (Math.log, HotSpot's
 * intrinsic, for 0.08%), which moves a child count only where log(1 - u) / log(1 - p) lies within
 * a few ulps of an integer. README.md says how every preset's depths were checked for that,
 * and the self-test compares every small preset's counts with the published ones. StrictMath is
 * used because its results are the same on every JVM and CPU; Math's may change with either.
 */
final class UtsTree {
  enum Type { BINOMIAL, GEOMETRIC, HYBRID, BALANCED }

  /** Geometric shape functions: how the mean branching factor b_d falls with depth d. */
  enum Shape { LINEAR, EXPDEC, CYCLIC, FIXED }

  static final int MAX_CHILDREN = 100; // the reference's MAXNUMCHILDREN

  /** The reference's parameters (its command-line letter in each comment). */
  record Params(
      Type type, // -t
      double b0, // -b  root branching factor
      int seed, // -r  root seed
      int m, // -m  binomial: children of a non-leaf node
      double q, // -q  binomial: probability of a non-leaf node
      int genMx, // -d  geometric/balanced: depth parameter
      Shape shape, // -a  geometric: shape function
      double shiftDepth, // -f  hybrid: switch depth, as a fraction of genMx
      int granularity) { // -g  SHA-1 evaluations per child (extra work only)

    /** The reference's defaults, as TreeParams in tree.hpp. */
    static final Params DEFAULTS =
        new Params(Type.GEOMETRIC, 4.0, 0, 4, 15.0 / 64.0, 6, Shape.LINEAR, 0.5, 1);

    static Params geometric(Shape shape, int genMx, double b0, int seed) {
      return new Params(Type.GEOMETRIC, b0, seed, DEFAULTS.m, DEFAULTS.q, genMx, shape,
          DEFAULTS.shiftDepth, DEFAULTS.granularity);
    }

    static Params binomial(double b0, double q, int m, int seed) {
      return new Params(Type.BINOMIAL, b0, seed, m, q, DEFAULTS.genMx, DEFAULTS.shape,
          DEFAULTS.shiftDepth, DEFAULTS.granularity);
    }

    static Params hybrid(Shape shape, int genMx, double b0, double q, int m, int seed) {
      return new Params(Type.HYBRID, b0, seed, m, q, genMx, shape, DEFAULTS.shiftDepth,
          DEFAULTS.granularity);
    }

    Params withType(Type t) {
      return new Params(t, b0, seed, m, q, genMx, shape, shiftDepth, granularity);
    }

    Params withShiftDepth(double f) {
      return new Params(type, b0, seed, m, q, genMx, shape, f, granularity);
    }

    Params withGranularity(int g) {
      return new Params(type, b0, seed, m, q, genMx, shape, shiftDepth, g);
    }
  }

  private final Params p;
  private final double expdecExponent; // -log(b0) / log(genMx), as tree.cpp computes it once

  /**
   * The presets' and the self-test's trees are valid by construction (tree.cpp's validate()
   * rules: b0 in (0, 2^31), 0 <= q <= 1, genMx >= 1, ...); no other tree reaches here.
   */
  UtsTree(Params params) {
    p = params;
    expdecExponent = -StrictMath.log(p.b0()) / StrictMath.log((double) p.genMx());
  }

  Params params() {
    return p;
  }

  byte[] rootState() {
    return Sha1Stream.rootState(p.seed());
  }

  /** Child `index` of a node with state `parent`, hashed granularity times (same result). */
  byte[] childState(byte[] parent, int index) {
    byte[] c = Sha1Stream.childState(parent, index);
    for (int extra = 1; extra < p.granularity(); ++extra) c = Sha1Stream.childState(parent, index);
    return c;
  }

  /**
   * floor(...) as a child count. The reference's C cast is undefined for NaN and values outside
   * int's range (x86-64 gives INT_MIN, a leaf); tree.cpp makes that 0 explicitly, and so here.
   */
  private static int childrenFromFloor(double floored) {
    if (!(floored >= 0.0 && floored < 2147483648.0)) return 0; // NaN fails both tests
    return (int) floored;
  }

  private int binomialChildren(byte[] state) {
    return Sha1Stream.toProb(Sha1Stream.rand31(state)) < p.q() ? p.m() : 0;
  }

  /** The target mean b_d at depth d > 0, each expression in tree.cpp's operand order. */
  double geometricMean(int depth) {
    double b0 = p.b0();
    double d = (double) depth;
    double genMx = (double) p.genMx();
    switch (p.shape()) {
      case EXPDEC:
        return b0 * StrictMath.pow(d, expdecExponent);
      case CYCLIC:
        if (depth > 5 * p.genMx()) return 0.0;
        return StrictMath.pow(b0, StrictMath.sin(2.0 * 3.141592653589793 * d / genMx));
      case FIXED:
        return depth < p.genMx() ? b0 : 0.0;
      case LINEAR:
      default:
        return b0 * (1.0 - d / genMx);
    }
  }

  /** A node's geometric child count from its 31-bit random value (separate for the checks). */
  int geometricChildren(int rand31, int height) {
    double b = height > 0 ? geometricMean(height) : p.b0();
    // A geometric distribution with success probability p has mean (1 - p) / p = b; drawing u
    // uniformly on [0, 1), the inverse CDF gives floor(log(1 - u) / log(1 - p)) children.
    double prob = 1.0 / (1.0 + b);
    double u = Sha1Stream.toProb(rand31);
    return childrenFromFloor(Math.floor(StrictMath.log(1.0 - u) / StrictMath.log(1.0 - prob)));
  }

  /** The number of children of the node with `state` at `height`, >= 0 (uts_numChildren). */
  int numChildren(byte[] state, int height) {
    int n;
    switch (p.type()) {
      case BINOMIAL:
        if (height == 0) {
          // The root's fixed fan-out, capped at ceil(b0) as the reference does (floor(b0)
          // never exceeds it; kept so that the rule reads as the reference's).
          n = (int) Math.floor(p.b0());
          int rootCap = (int) Math.ceil(p.b0());
          return Math.min(n, rootCap);
        }
        n = binomialChildren(state);
        break;
      case GEOMETRIC:
        n = geometricChildren(Sha1Stream.rand31(state), height);
        break;
      case HYBRID:
        // No root special case: a hybrid root is geometric unless shiftDepth is 0.
        n = height < p.shiftDepth() * p.genMx()
            ? geometricChildren(Sha1Stream.rand31(state), height)
            : binomialChildren(state);
        break;
      case BALANCED:
      default:
        return height < p.genMx() ? (int) p.b0() : 0; // never capped
    }
    return Math.min(n, MAX_CHILDREN);
  }
}
