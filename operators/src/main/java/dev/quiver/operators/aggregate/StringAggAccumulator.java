package dev.quiver.operators.aggregate;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * {@code STRING_AGG(s, sep [ORDER BY y [DESC]])} and {@code LISTAGG}: holistic, so every non-null
 * string is kept, its bytes appended to one growable byte arena with its group id and its order key
 * (ints, dates and timestamps as {@code long}, floats as {@code double}, strings in a second
 * arena), all reserved before the batch is folded. At the end the rows are ordered by group (a
 * stable counting sort: input order within a group), each group's rows by the order key (a stable
 * merge sort; NULL keys last, as DuckDB orders them), and the strings joined with the separator.
 * There is no partial state: a plan runs it SINGLE, after a hash repartition on the group keys.
 */
final class StringAggAccumulator implements Accumulator {
  private enum Order {
    NONE,
    LONG,
    DOUBLE,
    STRING
  }

  private final byte[] separator;
  private final Order order;
  private final boolean descending;
  private final Reservation reservation;
  private final Scratch scratch;
  private int groups;
  private int count;
  private int[] groupOf = new int[0];
  private int[] ends = new int[0]; // row r's bytes are [r == 0 ? 0 : ends[r - 1], ends[r])
  private byte[] bytes = new byte[0];
  private boolean[] nullKeys = new boolean[0];
  private long[] longKeys = new long[0];
  private double[] doubleKeys = new double[0];
  private int[] keyEnds = new int[0];
  private byte[] keyBytes = new byte[0];

  StringAggAccumulator(
      String separator,
      ArrowType orderType,
      boolean descending,
      Reservation reservation,
      Scratch scratch) {
    this.separator = separator.getBytes(StandardCharsets.UTF_8);
    this.descending = descending;
    this.reservation = reservation;
    this.scratch = scratch;
    if (orderType == null) {
      order = Order.NONE;
    } else if (orderType instanceof ArrowType.FloatingPoint) {
      order = Order.DOUBLE;
    } else if (orderType instanceof ArrowType.Utf8) {
      order = Order.STRING;
    } else {
      order = Order.LONG;
    }
  }

  @Override
  public void ensureGroups(int groups) {
    this.groups = Math.max(this.groups, groups);
  }

  @Override
  public void reserveValues(FieldVector values, FieldVector by, int rows) {
    int needed = count + rows;
    if (needed > groupOf.length) {
      int capacity = Reservation.grownCapacity(groupOf.length, needed);
      // Group id, end, order key, and the two int arrays the final sort uses, per row.
      reservation.reserve((long) (capacity - groupOf.length) * (4 * Integer.BYTES + Long.BYTES));
      groupOf = Arrays.copyOf(groupOf, capacity);
      ends = Arrays.copyOf(ends, capacity);
      if (order != Order.NONE) {
        nullKeys = Arrays.copyOf(nullKeys, capacity);
      }
      switch (order) {
        case LONG -> longKeys = Arrays.copyOf(longKeys, capacity);
        case DOUBLE -> doubleKeys = Arrays.copyOf(doubleKeys, capacity);
        case STRING -> keyEnds = Arrays.copyOf(keyEnds, capacity);
        default -> {}
      }
    }
    bytes = grown(bytes, used(ends), values, rows);
    if (order == Order.STRING) {
      keyBytes = grown(keyBytes, used(keyEnds), by, rows);
    }
  }

  private int used(int[] rowEnds) {
    return count == 0 ? 0 : rowEnds[count - 1];
  }

  /**
   * {@code arena} with room for the bytes of rows {@code [0, rows)} of {@code strings}, reserved.
   */
  private byte[] grown(byte[] arena, int used, FieldVector strings, int rows) {
    ArrowBuf offsets = strings.getOffsetBuffer();
    long needed = used + (long) offsets.getInt((long) rows << 2) - offsets.getInt(0);
    if (needed <= arena.length) {
      return arena;
    }
    if (needed > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException("string_agg holds more than 2 GB of strings");
    }
    int capacity = Reservation.grownCapacity(arena.length, (int) needed);
    reservation.reserve((long) capacity - arena.length);
    return Arrays.copyOf(arena, capacity);
  }

  @Override
  public void addInput(FieldVector argument, int[] groupIds, int rows) {
    addInput(argument, null, groupIds, rows);
  }

  @Override
  public void addInput(FieldVector argument, FieldVector by, int[] groupIds, int rows) {
    ArrowBuf validity = Columns.validity(argument);
    ArrowBuf offsets = argument.getOffsetBuffer();
    ArrowBuf data = argument.getDataBuffer();
    ArrowBuf keyValidity = by == null ? null : Columns.validity(by);
    long[] longs = null;
    double[] doubles = null;
    if (order == Order.LONG) {
      longs = scratch.longs(rows);
      Columns.widenInts(by, rows, longs);
    } else if (order == Order.DOUBLE) {
      doubles = scratch.doubles(rows);
      Columns.widenFloats(by, rows, doubles);
    }
    int n = count;
    int end = used(ends);
    int keyEnd = order == Order.STRING ? used(keyEnds) : 0;
    for (int i = 0; i < rows; i++) {
      if (validity != null && !Columns.isSet(validity, i)) {
        continue;
      }
      int start = offsets.getInt((long) i << 2);
      int length = offsets.getInt((long) (i + 1) << 2) - start;
      data.getBytes(start, bytes, end, length);
      end += length;
      ends[n] = end;
      groupOf[n] = groupIds[i];
      if (order != Order.NONE) {
        nullKeys[n] = keyValidity != null && !Columns.isSet(keyValidity, i);
        switch (order) {
          case LONG -> longKeys[n] = longs[i];
          case DOUBLE -> doubleKeys[n] = doubles[i];
          case STRING -> {
            ArrowBuf keyOffsets = by.getOffsetBuffer();
            int keyStart = keyOffsets.getInt((long) i << 2);
            int keyLength = keyOffsets.getInt((long) (i + 1) << 2) - keyStart;
            by.getDataBuffer().getBytes(keyStart, keyBytes, keyEnd, keyLength);
            keyEnd += keyLength;
            keyEnds[n] = keyEnd;
          }
          default -> {}
        }
      }
      n++;
    }
    count = n;
  }

  @Override
  public void addStates(List<FieldVector> states, int[] groupIds, int rows) {
    throw new IllegalStateException("string_agg has no partial state");
  }

  @Override
  public void writeStates(int from, int count, List<FieldVector> out) {
    throw new IllegalStateException("string_agg has no partial state");
  }

  @Override
  public void writeFinal(int from, int outCount, FieldVector out) {
    int last = Math.min(from + outCount, groups);
    // Rows of groups [from, last) in group order, stable (input order within a group).
    int[] starts = new int[outCount + 1];
    for (int r = 0; r < count; r++) {
      int g = groupOf[r] - from;
      if (g >= 0 && g < outCount) {
        starts[g + 1]++;
      }
    }
    for (int g = 0; g < outCount; g++) {
      starts[g + 1] += starts[g];
    }
    int[] rowsOf = new int[starts[outCount]];
    int[] cursor = Arrays.copyOf(starts, outCount);
    for (int r = 0; r < count; r++) {
      int g = groupOf[r] - from;
      if (g >= 0 && g < outCount) {
        rowsOf[cursor[g]++] = r;
      }
    }
    if (order != Order.NONE) {
      int[] temp = new int[rowsOf.length];
      for (int g = 0; g < outCount; g++) {
        mergeSort(rowsOf, temp, starts[g], starts[g + 1]);
      }
    }
    long total = 0;
    for (int g = from; g < last; g++) {
      int n = starts[g - from + 1] - starts[g - from];
      for (int k = starts[g - from]; k < starts[g - from + 1]; k++) {
        total += length(rowsOf[k]);
      }
      total += n > 1 ? (long) (n - 1) * separator.length : 0;
    }
    VarCharVector strings = (VarCharVector) out;
    strings.allocateNew(Math.max(1, total), outCount);
    byte[] joined = new byte[0];
    for (int i = 0; i < outCount; i++) {
      int first = starts[i];
      int end = starts[i + 1];
      if (first == end) {
        continue;
      }
      int size = 0;
      for (int k = first; k < end; k++) {
        size += length(rowsOf[k]) + (k > first ? separator.length : 0);
      }
      if (joined.length < size) {
        joined = new byte[size];
      }
      int at = 0;
      for (int k = first; k < end; k++) {
        if (k > first) {
          System.arraycopy(separator, 0, joined, at, separator.length);
          at += separator.length;
        }
        int r = rowsOf[k];
        int start = r == 0 ? 0 : ends[r - 1];
        System.arraycopy(bytes, start, joined, at, ends[r] - start);
        at += ends[r] - start;
      }
      strings.setSafe(i, joined, 0, size);
    }
    strings.setValueCount(outCount);
  }

  private int length(int row) {
    return ends[row] - (row == 0 ? 0 : ends[row - 1]);
  }

  /** Stable merge sort of {@code rows[from, to)} by order key. */
  private void mergeSort(int[] rows, int[] temp, int from, int to) {
    if (to - from < 2) {
      return;
    }
    int middle = (from + to) >>> 1;
    mergeSort(rows, temp, from, middle);
    mergeSort(rows, temp, middle, to);
    if (compare(rows[middle - 1], rows[middle]) <= 0) {
      return;
    }
    System.arraycopy(rows, from, temp, from, to - from);
    int left = from;
    int right = middle;
    for (int k = from; k < to; k++) {
      if (right >= to || (left < middle && compare(temp[left], temp[right]) <= 0)) {
        rows[k] = temp[left++];
      } else {
        rows[k] = temp[right++];
      }
    }
  }

  /** Order of rows {@code a} and {@code b}: by key, descending if asked, NULL keys last. */
  private int compare(int a, int b) {
    if (nullKeys[a] || nullKeys[b]) {
      return Boolean.compare(nullKeys[a], nullKeys[b]);
    }
    int order =
        switch (this.order) {
          case LONG -> Long.compare(longKeys[a], longKeys[b]);
          case DOUBLE -> Double.compare(doubleKeys[a], doubleKeys[b]);
          case STRING -> compareKeys(a, b);
          default -> 0;
        };
    return descending ? -order : order;
  }

  private int compareKeys(int a, int b) {
    int startA = a == 0 ? 0 : keyEnds[a - 1];
    int startB = b == 0 ? 0 : keyEnds[b - 1];
    return Arrays.compareUnsigned(keyBytes, startA, keyEnds[a], keyBytes, startB, keyEnds[b]);
  }
}
