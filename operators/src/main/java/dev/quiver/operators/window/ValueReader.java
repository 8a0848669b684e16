package dev.quiver.operators.window;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Reads a column's values into primitive arrays once per region (one type dispatch, then a tight
 * loop over the data buffer); null slots read whatever the buffer holds and callers skip them.
 */
final class ValueReader {
  private ValueReader() {}

  /** Whether {@link #longs} reads {@code type}: integers, DATE, TIMESTAMP, decimal128. */
  static boolean readsLongs(ArrowType type) {
    switch (type.getTypeID()) {
      case Int:
      case Date:
      case Timestamp:
        return true;
      case Decimal:
        return ((ArrowType.Decimal) type).getBitWidth() == 128;
      default:
        return false;
    }
  }

  /**
   * Signed integers, dates (days), timestamps and decimal128 unscaled values as longs; a decimal
   * beyond the long range fails (a RANGE offset over such a key is not supported).
   */
  static long[] longs(FieldVector vector, int rows, ArrowBuf data) {
    long[] out = longsOrNull(vector, rows, data);
    if (out == null) {
      throw new QuiverException(
          ErrorCode.UNSUPPORTED_FEATURE,
          "not supported: a RANGE window frame or SUM over decimal values beyond 18 digits");
    }
    return out;
  }

  /** As {@link #longs}, or null when a decimal does not fit a long. */
  static long[] longsOrNull(FieldVector vector, int rows, ArrowBuf data) {
    ArrowType type = vector.getField().getType();
    long[] out = new long[rows];
    int width = width(type);
    switch (width) {
      case 1:
        for (int i = 0; i < rows; i++) {
          out[i] = data.getByte(i);
        }
        break;
      case 2:
        for (int i = 0; i < rows; i++) {
          out[i] = data.getShort(2L * i);
        }
        break;
      case 4:
        for (int i = 0; i < rows; i++) {
          out[i] = data.getInt(4L * i);
        }
        break;
      case 8:
        for (int i = 0; i < rows; i++) {
          out[i] = data.getLong(8L * i);
        }
        break;
      default: // decimal128: the low word when the high word is its sign extension
        boolean[] present = valid(vector, rows);
        long bad = 0;
        for (int i = 0; i < rows; i++) {
          long low = data.getLong(16L * i);
          out[i] = low;
          bad |= present[i] ? data.getLong(16L * i + 8) ^ (low >> 63) : 0;
        }
        if (bad != 0) {
          return null;
        }
    }
    return out;
  }

  private static int width(ArrowType type) {
    switch (type.getTypeID()) {
      case Int:
        return ((ArrowType.Int) type).getBitWidth() / 8;
      case Date:
        return ((ArrowType.Date) type).getUnit() == org.apache.arrow.vector.types.DateUnit.DAY
            ? 4
            : 8;
      case Timestamp:
        return 8;
      case Decimal:
        return 16;
      default:
        throw new IllegalArgumentException("not a long-valued type: " + type);
    }
  }

  /** Whether each of the first {@code rows} values is non-null, read from the validity bitmap. */
  static boolean[] valid(FieldVector vector, int rows) {
    boolean[] out = new boolean[rows];
    if (vector.getNullCount() == 0) {
      java.util.Arrays.fill(out, true);
      return out;
    }
    ArrowBuf validity = vector.getValidityBuffer();
    for (int i = 0; i < rows; i++) {
      out[i] = ((validity.getByte(i >>> 3) >>> (i & 7)) & 1) != 0;
    }
    return out;
  }

  /** Float and double values as doubles. */
  static double[] doubles(FieldVector vector, int rows) {
    ArrowBuf data = vector.getDataBuffer();
    double[] out = new double[rows];
    if (((ArrowType.FloatingPoint) vector.getField().getType()).getPrecision()
        == FloatingPointPrecision.SINGLE) {
      for (int i = 0; i < rows; i++) {
        out[i] = data.getFloat(4L * i);
      }
    } else {
      for (int i = 0; i < rows; i++) {
        out[i] = data.getDouble(8L * i);
      }
    }
    return out;
  }

  /**
   * Doubles as longs in SQL order: {@code -0.0 == 0.0}, NaN the greatest and equal to itself (the
   * sign-flip encoding of IEEE 754 bits, after canonicalizing -0.0 and NaN).
   */
  static long[] orderedDoubles(FieldVector vector, int rows) {
    double[] values = doubles(vector, rows);
    long[] out = new long[rows];
    for (int i = 0; i < rows; i++) {
      double value = values[i] == 0.0 ? 0.0 : values[i];
      long bits = Double.doubleToLongBits(value); // canonical NaN
      out[i] = bits ^ ((bits >> 63) & Long.MAX_VALUE);
    }
    return out;
  }
}
