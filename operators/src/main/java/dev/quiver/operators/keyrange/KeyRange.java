package dev.quiver.operators.keyrange;

/**
 * The closed interval {@code [min, max]} that holds every non-NULL value of a key column, as a
 * {@code long}: integers as themselves, dates as epoch days, decimals as their unscaled value. An
 * interval with {@code min > max} is {@link #EMPTY}: the column had no non-NULL value, so no key
 * can equal one of its values.
 */
public record KeyRange(long min, long max) {
  /** The range of a column without a non-NULL value: nothing lies in it. */
  public static final KeyRange EMPTY = new KeyRange(Long.MAX_VALUE, Long.MIN_VALUE);

  /** Whether no value lies in this range. */
  public boolean isEmpty() {
    return min > max;
  }

  /** The values in both ranges. */
  public KeyRange intersect(KeyRange other) {
    long low = Math.max(min, other.min);
    long high = Math.min(max, other.max);
    return low > high ? EMPTY : new KeyRange(low, high);
  }

  @Override
  public String toString() {
    return isEmpty() ? "[]" : "[" + min + ", " + max + "]";
  }
}
