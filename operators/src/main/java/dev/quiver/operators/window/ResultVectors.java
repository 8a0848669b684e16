package dev.quiver.operators.window;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;

/** Writes computed primitive arrays into new result vectors, straight into their buffers. */
final class ResultVectors {
  private ResultVectors() {}

  /** An int64 vector of {@code values}; rows where {@code valid} is false (if given) are NULL. */
  static FieldVector longs(Field field, long[] values, boolean[] valid, BufferAllocator allocator) {
    FieldVector vector = allocate(field, values.length, allocator);
    ArrowBuf data = vector.getDataBuffer();
    for (int i = 0; i < values.length; i++) {
      data.setLong(8L * i, values[i]);
    }
    return finish(vector, values.length, valid);
  }

  /** A float64 vector of {@code values}; rows where {@code valid} is false (if given) are NULL. */
  static FieldVector doubles(
      Field field, double[] values, boolean[] valid, BufferAllocator allocator) {
    FieldVector vector = allocate(field, values.length, allocator);
    ArrowBuf data = vector.getDataBuffer();
    for (int i = 0; i < values.length; i++) {
      data.setDouble(8L * i, values[i]);
    }
    return finish(vector, values.length, valid);
  }

  /** A decimal128 vector of (low, high) unscaled values. */
  static FieldVector decimals(
      Field field, long[] lows, long[] highs, boolean[] valid, BufferAllocator allocator) {
    FieldVector vector = allocate(field, lows.length, allocator);
    ArrowBuf data = vector.getDataBuffer();
    for (int i = 0; i < lows.length; i++) {
      data.setLong(16L * i, lows[i]);
      data.setLong(16L * i + 8, highs[i]);
    }
    return finish(vector, lows.length, valid);
  }

  private static FieldVector allocate(Field field, int rows, BufferAllocator allocator) {
    FieldVector vector = field.createVector(allocator);
    try {
      vector.setInitialCapacity(rows);
      vector.allocateNew();
      return vector;
    } catch (RuntimeException | Error e) {
      vector.close();
      throw e;
    }
  }

  private static FieldVector finish(FieldVector vector, int rows, boolean[] valid) {
    ArrowBuf validity = vector.getValidityBuffer();
    if (valid == null) {
      validity.setOne(0L, (long) BitVectorHelper.getValidityBufferSize(rows));
    } else {
      for (int i = 0; i < rows; i++) {
        if (valid[i]) {
          BitVectorHelper.setBit(validity, i);
        }
      }
    }
    vector.setValueCount(rows);
    return vector;
  }

  /** Makes the rows of {@code vector} where {@code indices[i] < 0} NULL. */
  static void nullWhereNegative(FieldVector vector, int[] indices) {
    ArrowBuf validity = vector.getValidityBuffer();
    for (int i = 0; i < indices.length; i++) {
      if (indices[i] < 0) {
        BitVectorHelper.unsetBit(validity, i);
      }
    }
  }
}
