package dev.quiver.operators.expr;

import static java.util.Objects.requireNonNull;

/**
 * A set of row indices of a batch in ascending order: the rows an evaluation works on, or the rows
 * a predicate kept. {@code rows()[0 .. size())} are the indices; the array may be longer. A
 * selection is valid until the evaluator that produced it runs again.
 */
public final class Selection {
  private final int[] rows;
  private final int size;
  private final boolean all;

  Selection(int[] rows, int size, boolean all) {
    this.rows = requireNonNull(rows, "rows is null");
    if (size < 0 || size > rows.length) {
      throw new IllegalArgumentException("size " + size + " is outside [0, " + rows.length + "]");
    }
    this.size = size;
    this.all = all;
  }

  /** The selected row indices in {@code [0, size())}, ascending. */
  public int[] rows() {
    return rows;
  }

  public int size() {
    return size;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  /** Whether this is every row of the batch, {@code 0 .. size() - 1}. */
  public boolean isAll() {
    return all;
  }

  @Override
  public String toString() {
    return "Selection[" + size + (all ? " (all)" : "") + " rows]";
  }
}
