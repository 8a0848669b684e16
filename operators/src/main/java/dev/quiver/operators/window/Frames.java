package dev.quiver.operators.window;

import dev.quiver.plan.sort.SortKey;
import dev.quiver.plan.window.WindowFrame;
import dev.quiver.plan.window.WindowFrame.Bound;
import dev.quiver.plan.window.WindowFrame.Kind;
import java.math.BigDecimal;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Frame bounds of every row of a {@link Region}: {@code start[i]} and {@code end[i]} (exclusive) of
 * the rows row {@code i}'s frame covers, clamped to its partition; {@code start >= end} is an empty
 * frame. Both are nondecreasing within a partition, which the sliding MIN/MAX relies on.
 *
 * <p>RANGE offsets compare the single order key, read once as ascending {@code long}s (integers,
 * days, microseconds, unscaled decimals; a descending key is negated) or {@code double}s, with two
 * pointers per bound: linear in the partition. A row whose key is NULL has its null peers as frame
 * for an offset bound; non-null rows never reach the nulls through an offset.
 */
final class Frames {
  final int[] start;
  final int[] end;

  private Frames(int rows) {
    start = new int[rows];
    end = new int[rows];
  }

  /**
   * The frames of {@code frame} over {@code region}, ordered by {@code orderKey} (null if none).
   */
  static Frames of(WindowFrame frame, Region region, FieldVector orderKey, SortKey key) {
    Frames frames = new Frames(region.count);
    RangeKeys keys = frame.hasRangeOffset() ? RangeKeys.read(orderKey, key, region.count) : null;
    for (int p = 0; p < region.partitions(); p++) {
      int from = region.bounds[p];
      int to = region.bounds[p + 1];
      if (frame.unit() == WindowFrame.Unit.ROWS) {
        frames.rows(frame, from, to);
      } else {
        frames.range(frame, region, keys, from, to);
      }
    }
    return frames;
  }

  private void rows(WindowFrame frame, int from, int to) {
    long startOffset = offset(frame.start());
    long endOffset = offset(frame.end());
    for (int i = from; i < to; i++) {
      start[i] = clamp(rowsBound(frame.start().kind(), startOffset, i, from, to, false), from, to);
      end[i] = clamp(rowsBound(frame.end().kind(), endOffset, i, from, to, true), from, to);
    }
  }

  private static long rowsBound(Kind kind, long offset, int i, int from, int to, boolean isEnd) {
    int one = isEnd ? 1 : 0;
    switch (kind) {
      case UNBOUNDED_PRECEDING:
        return from;
      case PRECEDING:
        return (long) i - offset + one;
      case CURRENT_ROW:
        return (long) i + one;
      case FOLLOWING:
        return (long) i + offset + one;
      default:
        return to;
    }
  }

  private void range(WindowFrame frame, Region region, RangeKeys keys, int from, int to) {
    for (int i = from; i < to; i++) {
      start[i] = rangeFixed(frame.start().kind(), region.peerStart[i], from, to);
      end[i] = rangeFixed(frame.end().kind(), region.peerEnd[i], from, to);
    }
    if (keys == null) {
      return;
    }
    // The non-null rows: nulls sort first or last, so they are one run at either end.
    int valuesFrom = from;
    int valuesTo = to;
    while (valuesFrom < to && keys.isNull(valuesFrom)) {
      valuesFrom++;
    }
    while (valuesTo > valuesFrom && keys.isNull(valuesTo - 1)) {
      valuesTo--;
    }
    for (int i = from; i < to; i++) {
      if (keys.isNull(i)) {
        if (frame.start().hasOffset()) {
          start[i] = region.peerStart[i];
        }
        if (frame.end().hasOffset()) {
          end[i] = region.peerEnd[i];
        }
      }
    }
    if (frame.start().hasOffset()) {
      keys.firstAtLeast(frame.start(), valuesFrom, valuesTo, start);
    }
    if (frame.end().hasOffset()) {
      keys.firstAbove(frame.end(), valuesFrom, valuesTo, end);
    }
  }

  private static int rangeFixed(Kind kind, int peer, int from, int to) {
    switch (kind) {
      case UNBOUNDED_PRECEDING:
        return from;
      case UNBOUNDED_FOLLOWING:
        return to;
      default:
        return peer; // CURRENT ROW: the peer bound; offsets are set afterwards
    }
  }

  private static long offset(Bound bound) {
    if (!bound.hasOffset()) {
      return 0;
    }
    BigDecimal offset = bound.offset();
    return offset.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) > 0
        ? Integer.MAX_VALUE
        : offset.longValueExact();
  }

  private static int clamp(long value, int from, int to) {
    return (int) Math.max(from, Math.min(to, value));
  }

  /** The order key of a RANGE frame with offsets, as ascending numbers. */
  private static final class RangeKeys {
    private final long[] longs; // null for floating point keys
    private final double[] doubles;
    private final boolean[] nulls;
    private final int scale;

    private RangeKeys(long[] longs, double[] doubles, boolean[] nulls, int scale) {
      this.longs = longs;
      this.doubles = doubles;
      this.nulls = nulls;
      this.scale = scale;
    }

    static RangeKeys read(FieldVector vector, SortKey key, int rows) {
      ArrowType type = vector.getField().getType();
      ArrowBuf data = vector.getDataBuffer();
      boolean[] nulls = ValueReader.valid(vector, rows);
      for (int i = 0; i < rows; i++) {
        nulls[i] = !nulls[i];
      }
      long sign = key.ascending() ? 1 : -1;
      if (type instanceof ArrowType.FloatingPoint) {
        double[] values = ValueReader.doubles(vector, rows);
        for (int i = 0; i < rows; i++) {
          values[i] *= sign;
        }
        return new RangeKeys(null, values, nulls, 0);
      }
      int scale = type instanceof ArrowType.Decimal ? ((ArrowType.Decimal) type).getScale() : 0;
      long[] values = ValueReader.longs(vector, rows, data);
      for (int i = 0; i < rows; i++) {
        values[i] *= sign;
      }
      return new RangeKeys(values, null, nulls, scale);
    }

    boolean isNull(int row) {
      return nulls[row];
    }

    /** The signed offset of a bound, PRECEDING negative, in the key's units. */
    private long longOffset(Bound bound) {
      BigDecimal offset = bound.offset().movePointRight(scale);
      long value =
          offset.compareTo(BigDecimal.valueOf(Long.MAX_VALUE / 4)) > 0
              ? Long.MAX_VALUE / 4
              : offset.longValueExact();
      return bound.kind() == Kind.PRECEDING ? -value : value;
    }

    private double doubleOffset(Bound bound) {
      double value = bound.offset().doubleValue();
      return bound.kind() == Kind.PRECEDING ? -value : value;
    }

    /** For each non-null row i: the first row j with key[j] >= key[i] + offset. */
    void firstAtLeast(Bound bound, int from, int to, int[] out) {
      int j = from;
      if (longs != null) {
        long offset = longOffset(bound);
        for (int i = from; i < to; i++) {
          long target = saturatedAdd(longs[i], offset);
          while (j < to && longs[j] < target) {
            j++;
          }
          out[i] = j;
        }
      } else {
        double offset = doubleOffset(bound);
        for (int i = from; i < to; i++) {
          double target = doubles[i] + offset;
          while (j < to && doubles[j] < target) {
            j++;
          }
          out[i] = j;
        }
      }
    }

    /**
     * For each non-null row i: the first row j with key[j] > key[i] + offset (an exclusive end).
     */
    void firstAbove(Bound bound, int from, int to, int[] out) {
      int j = from;
      if (longs != null) {
        long offset = longOffset(bound);
        for (int i = from; i < to; i++) {
          long target = saturatedAdd(longs[i], offset);
          while (j < to && longs[j] <= target) {
            j++;
          }
          out[i] = j;
        }
      } else {
        double offset = doubleOffset(bound);
        for (int i = from; i < to; i++) {
          double target = doubles[i] + offset;
          while (j < to && doubles[j] <= target) {
            j++;
          }
          out[i] = j;
        }
      }
    }

    private static long saturatedAdd(long a, long b) {
      long sum = a + b;
      if (((a ^ sum) & (b ^ sum)) < 0) {
        return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
      }
      return sum;
    }
  }
}
