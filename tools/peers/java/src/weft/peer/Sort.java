package weft.peer;

import java.util.Arrays;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;

/**
 * Sort, as workloads/kernels/sort.hpp/.cpp: a parallel merge sort of n int32 with a parallel
 * merge (Cilk's cilksort), step for step:
 *
 * <pre>
 *   sortInPlace(a, tmp): sorts a, using tmp (as long as a) as scratch.
 *   sortInto(a, tmp):    sorts a's elements into tmp, using a as scratch.
 *   At or below the sort cutoff both are a serial sort (sortInto copies a to tmp first). Above
 *   it each sorts the halves (the first n/2, the other n - n/2) in parallel with the other
 *   function, so the sorted halves land in the buffer that is not the destination, then merges
 *   them in parallel into the destination.
 *   merge(run1, run2, out): make run1 the longer; at or below the merge cutoff (both runs
 *   together) a serial merge; else split run1 at its middle m1, find m2 = lower_bound(run2,
 *   run1[m1]), put run1[m1] at out[m1 + m2] and merge the pairs on either side in parallel.
 * </pre>
 *
 * Every par.invoke of the C++ side is an invokeAll(lower, upper): the lower half runs at once,
 * the upper is offered to thieves. Nothing returns a value, so the tasks are RecursiveActions.
 * The serial leaf sort is Arrays.sort (a dual-pivot quicksort) where the C++ side has std::sort
 * (an introsort): both unstable, and for int32 every correct sort gives the same output. The
 * leaf merge is written out with std::merge's rule (on equal keys the first run's goes first).
 *
 * <p>Input: element i is the top 32 bits, as int32, of output i of splitmix64 started at state
 * 0x5eed. The scratch buffer and the copy verify() sorts are made in the constructor, so the
 * timed part allocates nothing but its tasks. Verified as the C++ side: sorted, then equal to a
 * reference sort of the input (so a sorted output that lost or duplicated elements fails).
 */
final class Sort extends Work {
  static final String DEFAULT = "1e7";
  static final long MAX_ELEMENTS = 2_000_000_000L;
  static final long SEED = 0x5eedL;
  // Cilk's QUICKSIZE and MERGESIZE, as sort.hpp (which gives the measurements behind them).
  static final int SORT_CUTOFF = 2048;
  static final int MERGE_CUTOFF = 2048;

  private final int sortCutoff;
  private final int mergeCutoff;
  private final int[] input; // kept for verify(); never touched by compute
  private final int[] data; // the input, sorted in place by compute
  private final int[] scratch; // compute's second buffer

  Sort(int n) {
    this(n, SORT_CUTOFF, MERGE_CUTOFF);
  }

  /** The cutoffs are not part of the size: the self-test lowers them to make many tasks. */
  Sort(int n, int sortCutoff, int mergeCutoff) {
    if (n < 1 || n > MAX_ELEMENTS) throw new IllegalArgumentException("sort: n = " + n);
    if (sortCutoff < 1 || mergeCutoff < 1) throw new IllegalArgumentException("sort: cutoff 0");
    this.sortCutoff = sortCutoff;
    this.mergeCutoff = mergeCutoff;
    input = makeInput(n, SEED);
    data = input.clone();
    scratch = new int[n];
  }

  /** splitmix64 (Steele, Lea & Flood 2014; Vigna's next()): add the gamma, then mix. */
  static int[] makeInput(int n, long seed) {
    int[] out = new int[n];
    long state = seed;
    for (int i = 0; i < n; ++i) {
      long z = (state += 0x9e3779b97f4a7c15L);
      z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
      z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
      z ^= z >>> 31;
      out[i] = (int) (z >>> 32); // the top 32 bits as two's complement: negatives included
    }
    return out;
  }

  /** sortInPlace (into == false) or sortInto (into == true) of a[lo, lo + n), tmp likewise. */
  private final class SortTask extends RecursiveAction {
    private final int[] a;
    private final int[] tmp;
    private final int lo;
    private final int n;
    private final boolean into;

    SortTask(int[] a, int[] tmp, int lo, int n, boolean into) {
      this.a = a;
      this.tmp = tmp;
      this.lo = lo;
      this.n = n;
      this.into = into;
    }

    @Override
    protected void compute() {
      if (n <= sortCutoff) {
        if (into) {
          System.arraycopy(a, lo, tmp, lo, n);
          Arrays.sort(tmp, lo, lo + n);
        } else {
          Arrays.sort(a, lo, lo + n);
        }
        return;
      }
      int half = n / 2;
      // The halves sort into the other buffer by the other function, then merge back.
      invokeAll(
          new SortTask(a, tmp, lo, half, !into), new SortTask(a, tmp, lo + half, n - half, !into));
      int[] from = into ? a : tmp;
      int[] to = into ? tmp : a;
      // The merge runs on this thread as the C++ side's merge(par, ...) call: compute() directly,
      // its own invokeAll offering the upper halves to thieves.
      new MergeTask(from, lo, half, from, lo + half, n - half, to, lo).compute();
    }
  }

  /** Merges run1 = r1[s1, s1 + n1) and run2 = r2[s2, s2 + n2) into out[o, o + n1 + n2). */
  private final class MergeTask extends RecursiveAction {
    private final int[] r1;
    private final int s1;
    private final int n1;
    private final int[] r2;
    private final int s2;
    private final int n2;
    private final int[] out;
    private final int o;

    MergeTask(int[] r1, int s1, int n1, int[] r2, int s2, int n2, int[] out, int o) {
      this.r1 = r1;
      this.s1 = s1;
      this.n1 = n1;
      this.r2 = r2;
      this.s2 = s2;
      this.n2 = n2;
      this.out = out;
      this.o = o;
    }

    @Override
    protected void compute() {
      // run1 the longer (std::swap of the spans on the C++ side).
      boolean swap = n1 < n2;
      int[] a1 = swap ? r2 : r1;
      int b1 = swap ? s2 : s1;
      int l1 = swap ? n2 : n1;
      int[] a2 = swap ? r1 : r2;
      int b2 = swap ? s1 : s2;
      int l2 = swap ? n1 : n2;
      if (l1 + l2 <= mergeCutoff) {
        serialMerge(a1, b1, l1, a2, b2, l2, out, o);
        return;
      }
      // run1 is the longer and out holds more than mergeCutoff >= 1 elements, so run1 is not
      // empty and its middle exists.
      int m1 = l1 / 2;
      int pivot = a1[b1 + m1];
      int m2 = lowerBound(a2, b2, l2, pivot);
      out[o + m1 + m2] = pivot;
      invokeAll(
          new MergeTask(a1, b1, m1, a2, b2, m2, out, o),
          new MergeTask(a1, b1 + m1 + 1, l1 - m1 - 1, a2, b2 + m2, l2 - m2, out, o + m1 + m2 + 1));
    }
  }

  /** The first index i in [0, n) with r[s + i] >= value, else n (std::lower_bound). */
  static int lowerBound(int[] r, int s, int n, int value) {
    int lo = 0;
    int hi = n;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (r[s + mid] < value) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** std::merge: on equal keys the first run's element goes first. */
  static void serialMerge(int[] r1, int s1, int n1, int[] r2, int s2, int n2, int[] out, int o) {
    int i = s1;
    int j = s2;
    int e1 = s1 + n1;
    int e2 = s2 + n2;
    while (i < e1 && j < e2) out[o++] = r2[j] < r1[i] ? r2[j++] : r1[i++];
    while (i < e1) out[o++] = r1[i++];
    while (j < e2) out[o++] = r2[j++];
  }

  @Override
  void compute(ForkJoinPool pool) {
    pool.invoke(new SortTask(data, scratch, 0, data.length, false));
  }

  @Override
  String verify() {
    for (int i = 1; i < data.length; ++i) {
      if (data[i] < data[i - 1]) {
        return "sort: output not sorted at index " + i + " (" + data[i - 1] + " before " + data[i]
            + ")";
      }
    }
    // Sorted, but is it the input's elements? Compare with the reference sort of the input.
    int[] expected = input.clone();
    Arrays.sort(expected);
    int i = Arrays.mismatch(data, expected);
    if (i < 0) return null;
    return "sort: output is sorted but not the input's elements: index " + i + " holds " + data[i]
        + ", expected " + expected[i];
  }

  @Override
  String result() {
    int min = data[0];
    int max = data[0];
    for (int x : data) {
      min = Math.min(min, x);
      max = Math.max(max, x);
    }
    return "sorted n=" + data.length + " min=" + min + " max=" + max;
  }

  /** Test-only: the output, so that a test can spoil it and show that verify() notices. */
  int[] outputForTesting() {
    return data;
  }
}
