package dev.quiver.operators.aggregate;

import java.util.Arrays;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * One UTF-8 value per group, as a {@code byte[]} made only when the group's value is set (so a row
 * that does not replace it costs nothing), with the bytes held accounted in the owner's {@link
 * Reservation}. The per-group string state of MIN / MAX ({@link StringMinMaxAccumulator}) and of
 * ARG_MIN / ARG_MAX and ANY_VALUE ({@link GroupValues}).
 */
final class GroupStrings {
  /** What a {@code byte[]} costs beyond its bytes (header, reference). */
  static final int ARRAY_OVERHEAD = 24;

  private final Reservation reservation;
  private byte[][] values = new byte[0][];
  private long heldBytes;
  private long reservedBytes;
  private long pendingBytes; // what the reserveFor calls of the batch being added may set

  GroupStrings(Reservation reservation) {
    this.reservation = reservation;
  }

  int capacity() {
    return values.length;
  }

  /** Room for {@code capacity} groups; the owner reserves the slots themselves. */
  void grow(int capacity) {
    values = Arrays.copyOf(values, capacity);
  }

  /**
   * A batch is being added: what the next {@link #reserveFor} calls reserve adds up, until the next
   * batch. The owner calls it from {@code ensureGroups}, which every batch calls first.
   */
  void newBatch() {
    pendingBytes = 0;
  }

  /**
   * Reserves what setting a value from every one of rows {@code [0, rows)} of {@code strings} could
   * hold: more than any fold of those rows keeps. Calls for one batch add up (its rows and the
   * states of groups coming back from a spill store are both folded).
   */
  void reserveFor(FieldVector strings, int rows) {
    ArrowBuf offsets = strings.getOffsetBuffer();
    long bytes = offsets.getInt((long) rows << 2) - offsets.getInt(0);
    pendingBytes += bytes + (long) rows * ARRAY_OVERHEAD;
    long needed = heldBytes + pendingBytes;
    if (needed > reservedBytes) {
      reservation.reserve(needed - reservedBytes);
      reservedBytes = needed;
    }
  }

  boolean isSet(int group) {
    return values[group] != null;
  }

  /**
   * Unsigned lexicographic (code point) comparison of {@code data[start, start + length)} with the
   * group's value, which must be set.
   */
  int compare(ArrowBuf data, int start, int length, int group) {
    byte[] value = values[group];
    int common = Math.min(length, value.length);
    for (int i = 0; i < common; i++) {
      int difference = (data.getByte(start + i) & 0xFF) - (value[i] & 0xFF);
      if (difference != 0) {
        return difference;
      }
    }
    return Integer.compare(length, value.length);
  }

  /** Makes {@code data[start, start + length)} the group's value. */
  void set(int group, ArrowBuf data, int start, int length) {
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

  /** Writes the values of groups {@code [from, from + count)}, NULL where none is set. */
  void write(int from, int count, VarCharVector out) {
    long bytes = 0;
    for (int i = 0; i < count; i++) {
      bytes += values[from + i] == null ? 0 : values[from + i].length;
    }
    out.allocateNew(Math.max(1, bytes), count);
    for (int i = 0; i < count; i++) {
      byte[] value = values[from + i];
      if (value != null) {
        out.setSafe(i, value);
      }
    }
    out.setValueCount(count);
  }

  /** Writes the values of groups {@code groupIds[0, count)}, NULL where none is set. */
  void write(int[] groupIds, int count, VarCharVector out) {
    long bytes = 0;
    for (int i = 0; i < count; i++) {
      byte[] value = values[groupIds[i]];
      bytes += value == null ? 0 : value.length;
    }
    out.allocateNew(Math.max(1, bytes), count);
    for (int i = 0; i < count; i++) {
      byte[] value = values[groupIds[i]];
      if (value != null) {
        out.setSafe(i, value);
      }
    }
    out.setValueCount(count);
  }
}
