package dev.quiver.operators.window;

import dev.quiver.operators.kernel.BatchAppender;
import dev.quiver.operators.kernel.Take;
import dev.quiver.operators.sort.RowComparator;
import dev.quiver.plan.sort.SortKey;
import dev.quiver.plan.window.WindowCall;
import dev.quiver.plan.window.WindowFunction;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.TransferPair;

/**
 * The functions whose result is one row's value: LAG, LEAD, FIRST_VALUE, LAST_VALUE, NTH_VALUE, MIN
 * and MAX. Each computes, per row, the index of the row whose argument value it returns (-1 for
 * NULL), in a tight loop over frame bounds, and then gathers those values with the {@link Take}
 * kernel, so every type Take copies works and values are copied once.
 *
 * <p>MIN/MAX over any frame use a monotonic deque of row indices: frame bounds only move forward
 * within a partition, so each row enters and leaves the deque once (linear per partition, whether
 * the frame is running, sliding or the whole partition). Values compare as longs (integers, dates,
 * timestamps, booleans, decimals that fit, doubles in an order-preserving encoding) or, for strings
 * and wide decimals, with the sort's {@link RowComparator}.
 */
final class ValueFunctions {
  private ValueFunctions() {}

  static FieldVector compute(
      WindowCall call, Region region, Frames frames, Field result, BufferAllocator allocator) {
    int n = region.count;
    int[] index = new int[n];
    FieldVector argument = region.rows.getVector(call.argument(0));
    long parameter = call.parameter();
    switch (call.function()) {
      case FIRST_VALUE:
        for (int i = 0; i < n; i++) {
          index[i] = frames.start[i] < frames.end[i] ? frames.start[i] : -1;
        }
        break;
      case LAST_VALUE:
        for (int i = 0; i < n; i++) {
          index[i] = frames.start[i] < frames.end[i] ? frames.end[i] - 1 : -1;
        }
        break;
      case NTH_VALUE:
        for (int i = 0; i < n; i++) {
          long at = frames.start[i] + parameter - 1;
          index[i] = at < frames.end[i] ? (int) at : -1;
        }
        break;
      case LAG:
      case LEAD:
        return offset(call, region, argument, index, result, allocator);
      case MIN:
      case MAX:
        extremes(call.function() == WindowFunction.MAX, region, frames, argument, index);
        break;
      default:
        throw new IllegalArgumentException("not a value function: " + call);
    }
    return gather(argument, index, result, allocator);
  }

  /** LAG/LEAD: row i - offset (i + offset) of the partition, else the default or NULL. */
  private static FieldVector offset(
      WindowCall call,
      Region region,
      FieldVector argument,
      int[] index,
      Field result,
      BufferAllocator allocator) {
    int n = region.count;
    long step = call.function() == WindowFunction.LAG ? -call.parameter() : call.parameter();
    boolean hasDefault = call.arguments().size() == 2;
    int outside = -1;
    for (int p = 0; p < region.partitions(); p++) {
      int from = region.bounds[p];
      int to = region.bounds[p + 1];
      for (int i = from; i < to; i++) {
        long at = i + step;
        // The default of row i is row n + i of the combined source below.
        outside = hasDefault ? n + i : -1;
        index[i] = at >= from && at < to ? (int) at : outside;
      }
    }
    if (!hasDefault) {
      return gather(argument, index, result, allocator);
    }
    // One source holding the argument's rows, then the default's, so one gather picks from both.
    FieldVector defaults = region.rows.getVector(call.argument(1));
    Schema single = new Schema(List.of(argument.getField()));
    try (BatchAppender appender = new BatchAppender(single, allocator, 2 * n)) {
      appender.append(new VectorSchemaRoot(List.of(argument)), 0, n);
      appender.append(new VectorSchemaRoot(List.of(defaults)), 0, n);
      try (VectorSchemaRoot combined = appender.build()) {
        return gather(combined.getVector(0), index, result, allocator);
      }
    }
  }

  private static void extremes(
      boolean max, Region region, Frames frames, FieldVector argument, int[] out) {
    int n = region.count;
    boolean[] present = ValueReader.valid(argument, n);
    long[] values = comparableLongs(argument, n);
    RowComparator comparator = null;
    RowComparator.KeyColumns keys = null;
    if (values == null) {
      comparator =
          RowComparator.create(
              region.rows.getSchema(), List.of(SortKey.asc(columnOf(region, argument))));
      keys = comparator.bind(region.rows);
    }
    int[] deque = new int[n];
    for (int p = 0; p < region.partitions(); p++) {
      int from = region.bounds[p];
      int to = region.bounds[p + 1];
      int head = from;
      int tail = from;
      int next = from;
      for (int i = from; i < to; i++) {
        int a = frames.start[i];
        int b = frames.end[i];
        for (; next < b; next++) {
          if (!present[next]) {
            continue;
          }
          // Drop the rows the new one beats: they can never be the extreme again.
          while (tail > head && !keeps(values, comparator, keys, deque[tail - 1], next, max)) {
            tail--;
          }
          deque[tail++] = next;
        }
        while (tail > head && deque[head] < a) {
          head++;
        }
        out[i] = a < b && tail > head ? deque[head] : -1;
      }
    }
  }

  /** Whether row {@code kept} stays in the deque when row {@code next} arrives. */
  private static boolean keeps(
      long[] values,
      RowComparator comparator,
      RowComparator.KeyColumns keys,
      int kept,
      int next,
      boolean max) {
    int order =
        values != null
            ? Long.compare(values[kept], values[next])
            : comparator.compare(keys, kept, keys, next);
    return max ? order > 0 : order < 0;
  }

  private static int columnOf(Region region, FieldVector vector) {
    return region.rows.getFieldVectors().indexOf(vector);
  }

  /** The values as longs in SQL order, or null for types compared with a RowComparator. */
  private static long[] comparableLongs(FieldVector vector, int n) {
    ArrowType type = vector.getField().getType();
    if (type instanceof ArrowType.FloatingPoint
        && ((ArrowType.FloatingPoint) type).getPrecision() != FloatingPointPrecision.HALF) {
      return ValueReader.orderedDoubles(vector, n);
    }
    if (vector instanceof BitVector) {
      ArrowBuf data = vector.getDataBuffer();
      long[] out = new long[n];
      for (int i = 0; i < n; i++) {
        out[i] = (data.getByte(i >>> 3) >>> (i & 7)) & 1;
      }
      return out;
    }
    return ValueReader.readsLongs(type)
        ? ValueReader.longsOrNull(vector, n, vector.getDataBuffer())
        : null;
  }

  /** The values at {@code index} (-1: NULL) as a new vector of the result field. */
  private static FieldVector gather(
      FieldVector source, int[] index, Field result, BufferAllocator allocator) {
    int n = index.length;
    int[] safe = new int[n];
    for (int i = 0; i < n; i++) {
      safe[i] = Math.max(index[i], 0);
    }
    FieldVector taken = Take.take(source, safe, n, allocator);
    try {
      ResultVectors.nullWhereNegative(taken, index);
      FieldVector out = result.createVector(allocator);
      TransferPair transfer = taken.makeTransferPair(out);
      transfer.transfer();
      out.setValueCount(n);
      return out;
    } finally {
      taken.close();
    }
  }
}
