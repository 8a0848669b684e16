package dev.quiver.plan.window;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;
import java.math.BigDecimal;

/**
 * The frame of a window call: which rows of the partition, relative to the current row, the
 * function sees. {@link Unit#ROWS} counts rows; {@link Unit#RANGE} compares the (single) order key,
 * so a RANGE offset is in the order key's units: the value for numbers, days for DATE, microseconds
 * for TIMESTAMP. CURRENT ROW in RANGE means the current row's peers (equal order key).
 *
 * <pre>
 *   partition:  p0 ... [start ... current ... end] ... pn
 *   ROWS  n PRECEDING = current - n       RANGE n PRECEDING = first row with key >= key - n
 *   ROWS  CURRENT ROW = current           RANGE CURRENT ROW = first / last peer of current
 * </pre>
 *
 * (for a descending key "preceding" values are the larger ones). Without ORDER BY the SQL default
 * is the whole partition; with ORDER BY it is {@link #DEFAULT_ORDERED}.
 */
public record WindowFrame(Unit unit, Bound start, Bound end) implements Serializable {
  /** RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW: the SQL default with ORDER BY. */
  public static final WindowFrame DEFAULT_ORDERED =
      new WindowFrame(Unit.RANGE, Bound.unboundedPreceding(), Bound.currentRow());

  /** ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING: the whole partition. */
  public static final WindowFrame WHOLE_PARTITION =
      new WindowFrame(Unit.ROWS, Bound.unboundedPreceding(), Bound.unboundedFollowing());

  /** How offsets count. */
  public enum Unit {
    ROWS,
    RANGE
  }

  /** The kinds of frame bounds. */
  public enum Kind {
    UNBOUNDED_PRECEDING,
    PRECEDING,
    CURRENT_ROW,
    FOLLOWING,
    UNBOUNDED_FOLLOWING
  }

  /** One end of a frame; {@code offset} is set for PRECEDING and FOLLOWING only (>= 0). */
  public record Bound(Kind kind, BigDecimal offset) implements Serializable {
    public Bound {
      requireNonNull(kind, "kind is null");
      boolean offsetKind = kind == Kind.PRECEDING || kind == Kind.FOLLOWING;
      if (offsetKind != (offset != null)) {
        throw new IllegalArgumentException(kind + " bound with offset " + offset);
      }
      if (offset != null && offset.signum() < 0) {
        throw new IllegalArgumentException("frame offset must not be negative: " + offset);
      }
    }

    public static Bound unboundedPreceding() {
      return new Bound(Kind.UNBOUNDED_PRECEDING, null);
    }

    public static Bound preceding(long offset) {
      return new Bound(Kind.PRECEDING, BigDecimal.valueOf(offset));
    }

    public static Bound preceding(BigDecimal offset) {
      return new Bound(Kind.PRECEDING, offset);
    }

    public static Bound currentRow() {
      return new Bound(Kind.CURRENT_ROW, null);
    }

    public static Bound following(long offset) {
      return new Bound(Kind.FOLLOWING, BigDecimal.valueOf(offset));
    }

    public static Bound following(BigDecimal offset) {
      return new Bound(Kind.FOLLOWING, offset);
    }

    public static Bound unboundedFollowing() {
      return new Bound(Kind.UNBOUNDED_FOLLOWING, null);
    }

    /** Whether the bound is n PRECEDING or n FOLLOWING. */
    public boolean hasOffset() {
      return offset != null;
    }

    @Override
    public String toString() {
      switch (kind) {
        case UNBOUNDED_PRECEDING:
          return "UNBOUNDED PRECEDING";
        case PRECEDING:
          return offset.toPlainString() + " PRECEDING";
        case CURRENT_ROW:
          return "CURRENT ROW";
        case FOLLOWING:
          return offset.toPlainString() + " FOLLOWING";
        default:
          return "UNBOUNDED FOLLOWING";
      }
    }
  }

  public WindowFrame {
    requireNonNull(unit, "unit is null");
    requireNonNull(start, "start is null");
    requireNonNull(end, "end is null");
    if (start.kind() == Kind.UNBOUNDED_FOLLOWING || end.kind() == Kind.UNBOUNDED_PRECEDING) {
      throw new IllegalArgumentException(
          "a frame cannot start at UNBOUNDED FOLLOWING or end at UNBOUNDED PRECEDING");
    }
    if (unit == Unit.ROWS) {
      for (Bound bound : new Bound[] {start, end}) {
        if (bound.hasOffset() && bound.offset().stripTrailingZeros().scale() > 0) {
          throw new IllegalArgumentException("a ROWS offset must be an integer: " + bound);
        }
      }
    }
  }

  public static WindowFrame rows(Bound start, Bound end) {
    return new WindowFrame(Unit.ROWS, start, end);
  }

  public static WindowFrame range(Bound start, Bound end) {
    return new WindowFrame(Unit.RANGE, start, end);
  }

  /** Whether a bound is n PRECEDING/FOLLOWING in RANGE units (needs one numeric order key). */
  public boolean hasRangeOffset() {
    return unit == Unit.RANGE && (start.hasOffset() || end.hasOffset());
  }

  /** {@code ROWS BETWEEN 2 PRECEDING AND CURRENT ROW}. */
  @Override
  public String toString() {
    return unit + " BETWEEN " + start + " AND " + end;
  }
}
