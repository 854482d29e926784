package weft.peer;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;

/**
 * N-Queens, as workloads/kernels/nqueens.hpp: count the placements of n non-attacking queens by
 * exhaustive search, every safe partial placement a task, no cutoff. count(n, j, board): board
 * holds the columns of the queens of rows 0..j-1; if j == n it is one solution; otherwise each
 * safe column i of row j is a child task with its own copy of the board extended by i, all the
 * children of a node run by one invokeAll, their counts summed after it. Verified against the
 * published counts (OEIS A000170).
 */
final class NQueens extends Work {
  static final String DEFAULT = "13";
  static final long MAX_N = 20; // the table ends there; 20 would take days in tasks

  // OEIS A000170, n = 1..20: published counts, independent of this code.
  private static final long[] KNOWN = {
    1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512,
    95815104, 666090624, 4968057848L, 39029188884L
  };

  private final int n;
  private long solutions = -1; // -1 until compute: never a valid count

  NQueens(int n) {
    this.n = n;
  }

  /** The published number of solutions for n in [1, 20]; -1 outside. */
  static long knownSolutions(int n) {
    return n >= 1 && n <= MAX_N ? KNOWN[n - 1] : -1;
  }

  static boolean isSafe(byte[] board, int row, int column) {
    for (int k = 0; k < row; ++k) {
      int diff = board[k] - column;
      if (diff == 0 || diff == row - k || diff == k - row) return false;
    }
    return true;
  }

  /** count(n, row, board) for the board of rows 0..row-1. */
  static final class Task extends RecursiveTask<Long> {
    private final byte[] board;
    private final int row;

    Task(byte[] board, int row) {
      this.board = board;
      this.row = row;
    }

    @Override
    protected Long compute() {
      int n = board.length;
      if (row == n) return 1L;
      // The safe columns first, so that the array of children has exactly their number.
      int safe = 0;
      for (int column = 0; column < n; ++column) {
        if (isSafe(board, row, column)) safe |= 1 << column;
      }
      Task[] kids = new Task[Integer.bitCount(safe)];
      int k = 0;
      for (int column = 0; column < n; ++column) {
        if ((safe & 1 << column) == 0) continue;
        byte[] child = board.clone(); // the child's own copy, as BOTS copies it
        child[row] = (byte) column;
        kids[k++] = new Task(child, row + 1);
      }
      if (k == 0) return 0L;
      invokeAll(kids);
      long sum = 0;
      for (Task t : kids) sum += t.getRawResult(); // invokeAll has completed every one
      return sum;
    }
  }

  @Override
  void compute(ForkJoinPool pool) {
    solutions = pool.invoke(new Task(new byte[n], 0));
  }

  @Override
  String verify() {
    long expected = knownSolutions(n);
    if (solutions == expected) return null;
    return "nqueens(" + n + ") counted " + solutions + " solutions, expected " + expected
        + " (OEIS A000170)";
  }

  @Override
  String result() {
    return "solutions=" + solutions;
  }

  /** Test-only: replaces the computed count, so that a test can show verify() rejects it. */
  void setSolutionsForTesting(long s) {
    solutions = s;
  }
}
