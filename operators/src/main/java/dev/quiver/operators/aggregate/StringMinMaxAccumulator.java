package dev.quiver.operators.aggregate;

import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * {@code MIN} and {@code MAX} of utf8, ordered by unsigned bytes (which is code point order). Each
 * group keeps its current value as a {@code byte[]}; a new array is made only when a row beats the
 * group's value, never for rows that do not. The state is the value itself.
 */
final class StringMinMaxAccumulator implements Accumulator {
  /** What a {@code byte[]} costs beyond its bytes (header, reference). */
  private static final int ARRAY_OVERHEAD = 24;

  private final boolean max;
  private final Reservation reservation;
  private byte[][] values = new byte[0][];
  private long heldBytes;
  private long reservedBytes;

  StringMinMaxAccumulator(boolean max, Reservation reservation) {
    this.max = max;
    this.reservation = reservation;
  }

  @Override
  public void ensureGroups(int groups) {
    if (groups > values.length) {
      int capacity = Reservation.grownCapacity(values.length, groups);
      reservation.reserve((long) (capacity - values.length) * Long.BYTES);
      values = Arrays.copyOf(values, capacity);
    }
  }

  @Override
  public void reserveValues(FieldVector values, int rows) {
    ArrowBuf offsets = values.getOffsetBuffer();
    long bytes = offsets.getInt((long) rows << 2) - offsets.getInt(0);
    // Every row replacing a value with one of its own: more than any fold of these rows holds.
    long needed = heldBytes + bytes + (long) rows * ARRAY_OVERHEAD;
    if (needed > reservedBytes) {
      reservation.reserve(needed - reservedBytes);
      reservedBytes = needed;
    }
  }

  @Override
  public void addInput(FieldVector argument, int[] groupIds, int rows) {
    ArrowBuf offsets = argument.getOffsetBuffer();
    ArrowBuf data = argument.getDataBuffer();
    ArrowBuf validity = Columns.validity(argument);
    int sign = max ? 1 : -1;
    for (int i = 0; i < rows; i++) {
      if (validity == null || Columns.isSet(validity, i)) {
        int group = groupIds[i];
        int start = offsets.getInt((long) i << 2);
        int length = offsets.getInt((long) (i + 1) << 2) - start;
        byte[] current = values[group];
        if (current == null || compare(data, start, length, current) * sign > 0) {
          replace(group, data, start, length);
        }
      }
    }
  }

  private void replace(int group, ArrowBuf data, int start, int length) {
    byte[] current = values[group];
    heldBytes += length + ARRAY_OVERHEAD - (current == null ? 0 : current.length + ARRAY_OVERHEAD);
    if (heldBytes > reservedBytes) {
      // Reserve ahead, so that a group whose value keeps changing does not reserve every time.
      long more = Math.max(heldBytes - reservedBytes, reservedBytes / 4);
      reservation.reserve(more);
      reservedBytes += more;
    }
    byte[] value = new byte[length];
    data.getBytes(start, value);
    values[group] = value;
  }

  /**
   * Unsigned lexicographic comparison of {@code data[start, start + length)} with {@code value}.
   */
  private static int compare(ArrowBuf data, int start, int length, byte[] value) {
    int common = Math.min(length, value.length);
    for (int i = 0; i < common; i++) {
      int difference = (data.getByte(start + i) & 0xFF) - (value[i] & 0xFF);
      if (difference != 0) {
        return difference;
      }
    }
    return Integer.compare(length, value.length);
  }

  @Override
  public void addStates(List<FieldVector> states, int[] groupIds, int rows) {
    addInput(states.get(0), groupIds, rows);
  }

  @Override
  public void writeStates(int from, int count, List<FieldVector> out) {
    writeFinal(from, count, out.get(0));
  }

  @Override
  public void writeFinal(int from, int count, FieldVector out) {
    VarCharVector strings = (VarCharVector) out;
    long bytes = 0;
    for (int i = 0; i < count; i++) {
      bytes += values[from + i] == null ? 0 : values[from + i].length;
    }
    strings.allocateNew(Math.max(1, bytes), count);
    for (int i = 0; i < count; i++) {
      byte[] value = values[from + i];
      if (value != null) {
        strings.setSafe(i, value);
      }
    }
    strings.setValueCount(count);
  }
}
