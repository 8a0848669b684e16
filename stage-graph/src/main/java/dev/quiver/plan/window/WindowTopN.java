package dev.quiver.plan.window;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;

/**
 * A window top-N's bound: only the rows that {@code function} (ROW_NUMBER, RANK or DENSE_RANK)
 * numbers at most {@code n} within their partition matter, because a filter on the rank follows
 * ({@code rn <= n}, {@code rn < n + 1}, {@code rn = n}). A window over a stream holds just those
 * rows of each partition, not every row of its event-time window ({@code
 * dev.quiver.plan.node.Window#withTopN}).
 *
 * @param function the ranking function the filter bounds
 * @param n the largest rank the filter keeps, at least 1
 */
public record WindowTopN(WindowFunction function, long n) implements Serializable {
  public WindowTopN {
    requireNonNull(function, "function is null");
    if (!isRanking(function)) {
      throw new IllegalArgumentException(
          "a window top-N ranks by row_number, rank or dense_rank, not " + function.sqlName());
    }
    if (n < 1) {
      throw new IllegalArgumentException("a window top-N keeps n >= 1 rows, not " + n);
    }
  }

  /** Whether {@code function} numbers rows so that a bound on it keeps a prefix of a partition. */
  public static boolean isRanking(WindowFunction function) {
    return function == WindowFunction.ROW_NUMBER
        || function == WindowFunction.RANK
        || function == WindowFunction.DENSE_RANK;
  }

  /** {@code row_number() <= 3}. */
  @Override
  public String toString() {
    return function.sqlName() + "() <= " + n;
  }
}
