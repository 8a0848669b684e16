package dev.quiver.plan.sort;

/**
 * One sort key: a column of the batch, its direction and where its nulls go.
 *
 * <p>Defaults: SQL leaves the null order of a plain {@code ASC}/{@code DESC} to the implementation;
 * like PostgreSQL and Oracle, {@link #asc} and {@link #desc} sort nulls as if they were greater
 * than every value: ascending puts nulls last, descending puts them first. {@link
 * #withNullsFirst()} and {@link #withNullsLast()} give an explicit {@code NULLS FIRST|LAST}, which
 * does not flip with the direction: {@code nullsFirst} always means first in the output.
 *
 * @param column zero-based index of the key column in the batch
 * @param ascending whether smaller values come first
 * @param nullsFirst whether nulls come before all values in the output
 */
public record SortKey(int column, boolean ascending, boolean nullsFirst)
    implements java.io.Serializable {
  public SortKey {
    if (column < 0) {
      throw new IllegalArgumentException("column is negative: " + column);
    }
  }

  /** Ascending, nulls last. */
  public static SortKey asc(int column) {
    return new SortKey(column, true, false);
  }

  /** Descending, nulls first. */
  public static SortKey desc(int column) {
    return new SortKey(column, false, true);
  }

  public SortKey withNullsFirst() {
    return new SortKey(column, ascending, true);
  }

  public SortKey withNullsLast() {
    return new SortKey(column, ascending, false);
  }

  /** For example {@code #2 DESC NULLS LAST}. */
  @Override
  public String toString() {
    return "#"
        + column
        + (ascending ? " ASC" : " DESC")
        + (nullsFirst ? " NULLS FIRST" : " NULLS LAST");
  }
}
