package dev.quiver.operators.window;

import dev.quiver.plan.sort.SortKey;
import dev.quiver.plan.window.WindowCall;
import dev.quiver.plan.window.WindowFrame;
import dev.quiver.plan.window.WindowFrame.Bound;
import dev.quiver.plan.window.WindowFrame.Kind;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Window functions the slow, obvious way, row at a time over Java values: a frame is the set of
 * partition rows that satisfy both bounds, tested one by one. Rows must be sorted already.
 */
final class WindowReference {
  private WindowReference() {}

  /** The value of {@code call} for every row of {@code rows}, in order. */
  static List<Object> compute(
      List<List<Object>> rows, List<Integer> partition, List<SortKey> order, WindowCall call) {
    List<Object> out = new ArrayList<>();
    int from = 0;
    while (from < rows.size()) {
      int to = from + 1;
      while (to < rows.size() && samePartition(rows.get(from), rows.get(to), partition)) {
        to++;
      }
      for (int i = from; i < to; i++) {
        out.add(value(rows, from, to, i, order, call));
      }
      from = to;
    }
    return out;
  }

  private static boolean samePartition(List<Object> a, List<Object> b, List<Integer> keys) {
    for (int key : keys) {
      if (!Objects.equals(a.get(key), b.get(key))) {
        return false;
      }
    }
    return true;
  }

  private static boolean peers(List<Object> a, List<Object> b, List<SortKey> order) {
    for (SortKey key : order) {
      if (!Objects.equals(a.get(key.column()), b.get(key.column()))) {
        return false;
      }
    }
    return true;
  }

  private static Object value(
      List<List<Object>> rows, int from, int to, int i, List<SortKey> order, WindowCall call) {
    int size = to - from;
    int peerStart = i;
    while (peerStart > from && peers(rows.get(peerStart - 1), rows.get(i), order)) {
      peerStart--;
    }
    int peerEnd = i + 1;
    while (peerEnd < to && peers(rows.get(peerEnd), rows.get(i), order)) {
      peerEnd++;
    }
    long rank = peerStart - from + 1;
    switch (call.function()) {
      case ROW_NUMBER:
        return (long) (i - from + 1);
      case RANK:
        return rank;
      case DENSE_RANK:
        long dense = 1;
        for (int j = from + 1; j <= i; j++) {
          dense += peers(rows.get(j - 1), rows.get(j), order) ? 0 : 1;
        }
        return dense;
      case PERCENT_RANK:
        return size == 1 ? 0.0 : (rank - 1) / (double) (size - 1);
      case CUME_DIST:
        return (peerEnd - from) / (double) size;
      case NTILE:
        long buckets = call.parameter();
        long k = i - from;
        // Bucket b (0-based) holds size/buckets rows, plus one for the first size%buckets buckets.
        long bucket = 0;
        long first = 0;
        while (true) {
          long rowsInBucket = size / buckets + (bucket < size % buckets ? 1 : 0);
          if (k < first + rowsInBucket) {
            return bucket + 1;
          }
          first += rowsInBucket;
          bucket++;
        }
      case LAG:
      case LEAD:
        long at =
            call.function() == dev.quiver.plan.window.WindowFunction.LAG
                ? i - call.parameter()
                : i + call.parameter();
        if (at >= from && at < to) {
          return rows.get((int) at).get(call.argument(0));
        }
        return call.arguments().size() == 2 ? rows.get(i).get(call.argument(1)) : null;
      default:
        break;
    }
    List<Integer> frame = new ArrayList<>();
    for (int j = from; j < to; j++) {
      if (inFrame(rows, from, to, i, j, peerStart, peerEnd, order, call.frame())) {
        frame.add(j);
      }
    }
    List<Object> values = new ArrayList<>();
    for (int j : frame) {
      values.add(call.arguments().isEmpty() ? 1 : rows.get(j).get(call.argument(0)));
    }
    return aggregate(call, values);
  }

  private static boolean inFrame(
      List<List<Object>> rows,
      int from,
      int to,
      int i,
      int j,
      int peerStart,
      int peerEnd,
      List<SortKey> order,
      WindowFrame frame) {
    if (frame.unit() == WindowFrame.Unit.ROWS) {
      return rowsBound(frame.start(), i, j, true) && rowsBound(frame.end(), i, j, false);
    }
    return rangeBound(rows, i, j, peerStart, peerEnd, order, frame.start(), true)
        && rangeBound(rows, i, j, peerStart, peerEnd, order, frame.end(), false);
  }

  private static boolean rowsBound(Bound bound, int i, int j, boolean isStart) {
    long offset = bound.hasOffset() ? bound.offset().longValueExact() : 0;
    long limit;
    switch (bound.kind()) {
      case UNBOUNDED_PRECEDING:
      case UNBOUNDED_FOLLOWING:
        return true;
      case PRECEDING:
        limit = i - offset;
        break;
      case FOLLOWING:
        limit = i + offset;
        break;
      default:
        limit = i;
    }
    return isStart ? j >= limit : j <= limit;
  }

  private static boolean rangeBound(
      List<List<Object>> rows,
      int i,
      int j,
      int peerStart,
      int peerEnd,
      List<SortKey> order,
      Bound bound,
      boolean isStart) {
    if (bound.kind() == Kind.UNBOUNDED_PRECEDING || bound.kind() == Kind.UNBOUNDED_FOLLOWING) {
      return true;
    }
    Object current = order.isEmpty() ? null : rows.get(i).get(order.get(0).column());
    if (bound.kind() == Kind.CURRENT_ROW || current == null) {
      return isStart ? j >= peerStart : j < peerEnd;
    }
    SortKey key = order.get(0);
    Object other = rows.get(j).get(key.column());
    double sign = key.ascending() ? 1 : -1;
    // In ascending (transformed) order a NULL is -infinity when nulls come first, else +infinity.
    double value =
        other == null
            ? (key.nullsFirst() ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY)
            : sign * number(other);
    double offset = bound.offset().doubleValue() * (bound.kind() == Kind.PRECEDING ? -1 : 1);
    double target = sign * number(current) + offset;
    return isStart ? value >= target : value <= target;
  }

  private static double number(Object value) {
    return ((Number) value).doubleValue();
  }

  private static Object aggregate(WindowCall call, List<Object> values) {
    List<Object> present = new ArrayList<>();
    for (Object value : values) {
      if (value != null) {
        present.add(value);
      }
    }
    switch (call.function()) {
      case COUNT_STAR:
        return (long) values.size();
      case COUNT:
        return (long) present.size();
      case FIRST_VALUE:
        return values.isEmpty() ? null : values.get(0);
      case LAST_VALUE:
        return values.isEmpty() ? null : values.get(values.size() - 1);
      case NTH_VALUE:
        return values.size() < call.parameter() ? null : values.get((int) call.parameter() - 1);
      default:
        break;
    }
    if (present.isEmpty()) {
      return null;
    }
    Object first = present.get(0);
    switch (call.function()) {
      case SUM:
      case AVG:
        boolean average = call.function() == dev.quiver.plan.window.WindowFunction.AVG;
        if (first instanceof BigDecimal) {
          BigDecimal sum = BigDecimal.ZERO.setScale(((BigDecimal) first).scale());
          for (Object value : present) {
            sum = sum.add((BigDecimal) value);
          }
          return average
              ? sum.divide(
                  BigDecimal.valueOf(present.size()),
                  Math.max(6, sum.scale()),
                  RoundingMode.HALF_UP)
              : sum;
        } else if (first instanceof Double) {
          double sum = 0;
          for (Object value : present) {
            sum += (Double) value;
          }
          return average ? sum / present.size() : sum;
        }
        long sum = 0;
        for (Object value : present) {
          sum += ((Number) value).longValue();
        }
        return average ? (double) sum / present.size() : (Object) sum;
      case MIN:
      case MAX:
        Object best = first;
        for (Object value : present) {
          int order = compare(value, best);
          if (call.function() == dev.quiver.plan.window.WindowFunction.MIN
              ? order < 0
              : order > 0) {
            best = value;
          }
        }
        return best;
      default:
        throw new IllegalArgumentException(call.toString());
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  static int compare(Object a, Object b) {
    if (a instanceof String) {
      return java.util.Arrays.compareUnsigned(
          ((String) a).getBytes(java.nio.charset.StandardCharsets.UTF_8),
          ((String) b).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    return ((Comparable) a).compareTo(b);
  }
}
