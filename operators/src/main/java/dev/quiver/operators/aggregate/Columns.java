package dev.quiver.operators.aggregate;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.ByteFunctionHelpers;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;

/**
 * Reading and writing the Arrow buffers of aggregate inputs and outputs in tight loops. Loops over
 * input read the validity bitmap only when the column has nulls ({@link #validity} is null
 * otherwise), so the common no-null case is a plain loop.
 */
final class Columns {
  private Columns() {}

  /** The validity buffer of {@code vector}, or null when it has no nulls. */
  static ArrowBuf validity(FieldVector vector) {
    return vector.getNullCount() == 0 ? null : vector.getValidityBuffer();
  }

  static boolean isSet(ArrowBuf validity, int index) {
    return ((validity.getByte(index >>> 3) >>> (index & 7)) & 1) != 0;
  }

  /** Bytes per value of a fixed-width vector. */
  static int width(FieldVector vector) {
    return ((BaseFixedWidthVector) vector).getTypeWidth();
  }

  /** Rows {@code [0, rows)} of an integer, date or timestamp column, widened with their sign. */
  static void widenInts(FieldVector vector, int rows, long[] out) {
    ArrowBuf data = vector.getDataBuffer();
    switch (width(vector)) {
      case 1:
        for (int i = 0; i < rows; i++) {
          out[i] = data.getByte(i);
        }
        break;
      case 2:
        for (int i = 0; i < rows; i++) {
          out[i] = data.getShort((long) i << 1);
        }
        break;
      case 4:
        for (int i = 0; i < rows; i++) {
          out[i] = data.getInt((long) i << 2);
        }
        break;
      case 8:
        for (int i = 0; i < rows; i++) {
          out[i] = data.getLong((long) i << 3);
        }
        break;
      default:
        throw new IllegalArgumentException("not an integer column: " + vector.getField());
    }
  }

  /** Rows {@code [0, rows)} of a float32 or float64 column as doubles. */
  static void widenFloats(FieldVector vector, int rows, double[] out) {
    ArrowBuf data = vector.getDataBuffer();
    if (vector instanceof Float4Vector) {
      for (int i = 0; i < rows; i++) {
        out[i] = data.getFloat((long) i << 2);
      }
    } else {
      for (int i = 0; i < rows; i++) {
        out[i] = data.getDouble((long) i << 3);
      }
    }
  }

  /**
   * Rows {@code [0, rows)} of an integer, float or decimal column ({@code decimalScale} ≥ 0) as
   * doubles; {@code longs} is scratch for integers. A decimal is its unscaled value divided by
   * 10^scale, as DuckDB casts a decimal to a double.
   */
  static void toDoubles(
      FieldVector vector, int rows, int decimalScale, long[] longs, double[] out) {
    if (decimalScale >= 0) {
      ArrowBuf data = vector.getDataBuffer();
      double divisor = Math.pow(10, decimalScale);
      for (int i = 0; i < rows; i++) {
        out[i] =
            decimalToDouble(
                data.getLong((long) i << 4), data.getLong(((long) i << 4) + 8), divisor);
      }
    } else if (vector instanceof BaseIntVector) {
      widenInts(vector, rows, longs);
      for (int i = 0; i < rows; i++) {
        out[i] = longs[i];
      }
    } else {
      widenFloats(vector, rows, out);
    }
  }

  /** The decimal128 of two's complement words {@code low}, {@code high} ÷ {@code divisor}. */
  static double decimalToDouble(long low, long high, double divisor) {
    if (high == (low >> 63)) {
      return low / divisor; // fits 64 bits: one rounding to double
    }
    // Beyond 64 bits (rare): high·2^64 + unsigned low, within an ulp or two of the exact value.
    return (high * 0x1p64 + ((low >>> 1) * 2.0 + (low & 1))) / divisor;
  }

  /** Writes a float64 value at {@code index} and marks it set. */
  static void setDouble(FieldVector vector, int index, double value) {
    vector.getDataBuffer().setDouble((long) index << 3, value);
    BitVectorHelper.setBit(vector.getValidityBuffer(), index);
  }

  /** Allocates a fixed-width output vector for {@code count} values, all NULL. */
  static void allocate(FieldVector vector, int count) {
    ((BaseFixedWidthVector) vector).allocateNew(count);
  }

  /** Writes {@code value} narrowed to {@code width} bytes at {@code index} and marks it set. */
  static void setInt(FieldVector vector, int width, int index, long value) {
    ArrowBuf data = vector.getDataBuffer();
    switch (width) {
      case 1:
        data.setByte(index, (byte) value);
        break;
      case 2:
        data.setShort((long) index << 1, (short) value);
        break;
      case 4:
        data.setInt((long) index << 2, (int) value);
        break;
      default:
        data.setLong((long) index << 3, value);
    }
    BitVectorHelper.setBit(vector.getValidityBuffer(), index);
  }

  /** Writes a 128-bit decimal value at {@code index} and marks it set. */
  static void setDecimal(FieldVector vector, int index, long low, long high) {
    ArrowBuf data = vector.getDataBuffer();
    data.setLong((long) index << 4, low);
    data.setLong(((long) index << 4) + 8, high);
    BitVectorHelper.setBit(vector.getValidityBuffer(), index);
  }

  /**
   * Sets {@code different[i]} to 1 where rows {@code i < rows} of {@code a} and {@code b}, vectors
   * of one type, differ: one NULL and the other not, or both set with other bytes (a float's bits:
   * -0.0 and 0.0 differ). Leaves the other entries as they are, so that the columns of a row can be
   * marked one after the other. Booleans, fixed-width values and 32-bit-offset strings.
   */
  static void markDifferent(FieldVector a, FieldVector b, int rows, int[] different) {
    ArrowBuf validA = a.getValidityBuffer();
    ArrowBuf validB = b.getValidityBuffer();
    ArrowBuf dataA = a.getDataBuffer();
    ArrowBuf dataB = b.getDataBuffer();
    if (a instanceof BitVector) {
      for (int i = 0; i < rows; i++) {
        boolean set = isSet(validA, i);
        if (set != isSet(validB, i) || set && isSet(dataA, i) != isSet(dataB, i)) {
          different[i] = 1;
        }
      }
    } else if (a instanceof BaseVariableWidthVector) {
      ArrowBuf offsetsA = a.getOffsetBuffer();
      ArrowBuf offsetsB = b.getOffsetBuffer();
      for (int i = 0; i < rows; i++) {
        boolean set = isSet(validA, i);
        if (set != isSet(validB, i)) {
          different[i] = 1;
        } else if (set) {
          int startA = offsetsA.getInt((long) i << 2);
          int startB = offsetsB.getInt((long) i << 2);
          int endA = offsetsA.getInt((long) (i + 1) << 2);
          int endB = offsetsB.getInt((long) (i + 1) << 2);
          if (ByteFunctionHelpers.equal(dataA, startA, endA, dataB, startB, endB) == 0) {
            different[i] = 1;
          }
        }
      }
    } else {
      int width = width(a);
      for (int i = 0; i < rows; i++) {
        boolean set = isSet(validA, i);
        if (set != isSet(validB, i) || set && !sameBytes(dataA, dataB, (long) i * width, width)) {
          different[i] = 1;
        }
      }
    }
  }

  private static boolean sameBytes(ArrowBuf a, ArrowBuf b, long offset, int width) {
    switch (width) {
      case 1:
        return a.getByte(offset) == b.getByte(offset);
      case 2:
        return a.getShort(offset) == b.getShort(offset);
      case 4:
        return a.getInt(offset) == b.getInt(offset);
      case 8:
        return a.getLong(offset) == b.getLong(offset);
      case 16:
        return a.getLong(offset) == b.getLong(offset)
            && a.getLong(offset + 8) == b.getLong(offset + 8);
      default:
        return ByteFunctionHelpers.equal(a, offset, offset + width, b, offset, offset + width) != 0;
    }
  }
}
