package dev.quiver.nexmark;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * Writers straight into a batch's buffers, for the generator's inner loop: a row's value is one
 * buffer write (strings: one copy, and the buffer grown only when full), and the validity bits
 * (every value is set) and counts are written once per batch by {@link #finish}. Arrow's {@code
 * set}/{@code setSafe} do per value what this does per batch (capacity checks, validity bits,
 * {@code lastSet} bookkeeping), which cost as much as generating the event.
 */
final class Columns {
  private Columns() {}

  /** A BIGINT or TIMESTAMP(3) column: 8-byte values. */
  static final class Longs {
    private BaseFixedWidthVector vector;
    private ArrowBuf data;

    void start(FieldVector column, int rows) {
      vector = (BaseFixedWidthVector) column;
      vector.allocateNew(rows);
      data = vector.getDataBuffer();
    }

    void set(int row, long value) {
      data.setLong((long) row * Long.BYTES, value);
    }

    void finish(int rows) {
      allValid(vector.getValidityBuffer(), rows);
      vector.setValueCount(rows);
    }
  }

  /** A VARCHAR column: the bytes of each {@link Text}, appended. */
  static final class Strings {
    private VarCharVector vector;
    private ArrowBuf offsets;
    private ArrowBuf data;
    private long capacity;
    private int end;

    void start(FieldVector column, int rows, int averageBytes) {
      vector = (VarCharVector) column;
      vector.allocateNew((long) rows * averageBytes, rows);
      offsets = vector.getOffsetBuffer();
      data = vector.getDataBuffer();
      capacity = data.capacity();
      end = 0;
      offsets.setInt(0, 0);
    }

    void set(int row, Text text) {
      int length = text.length();
      if (end + length > capacity) {
        grow(end + length);
      }
      data.setBytes(end, text.bytes(), text.offset(), length);
      end += length;
      offsets.setInt((long) (row + 1) * Integer.BYTES, end);
    }

    private void grow(long needed) {
      while (capacity < needed) {
        vector.reallocDataBuffer(); // doubles it
        data = vector.getDataBuffer();
        capacity = data.capacity();
      }
    }

    void finish(int rows) {
      allValid(vector.getValidityBuffer(), rows);
      vector.setLastSet(rows - 1);
      vector.setValueCount(rows);
    }
  }

  // Sets the validity bits of rows 0 .. rows-1: whole bytes, then the last byte's bits.
  private static void allValid(ArrowBuf validity, int rows) {
    int bytes = rows >>> 3;
    for (int i = 0; i < bytes; i++) {
      validity.setByte(i, 0xFF);
    }
    for (int row = bytes << 3; row < rows; row++) {
      BitVectorHelper.setBit(validity, row);
    }
  }
}
