package dev.quiver.operators.kernel;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Vectorized boundary detection: marks the rows whose key differs from the previous row's, one key
 * column at a time, with one type dispatch per column and a tight loop over its Arrow buffers. Keys
 * compare by SQL equality, not by order: NULL equals NULL and no value; for floats {@code -0.0 ==
 * 0.0} and NaN equals NaN (as the sort orders them, so equal keys are adjacent).
 */
public final class KeyChanges {
  private KeyChanges() {}

  /**
   * Sets {@code changed[i]} for every row {@code i} in {@code [1, rows)} whose value in {@code
   * vector} differs from row {@code i - 1}'s; never clears a flag, so several key columns OR.
   * {@code scratch} is a work array of at least {@code rows} entries.
   */
  public static void mark(FieldVector vector, int rows, boolean[] changed, boolean[] scratch) {
    if (rows < 2) {
      return;
    }
    if (vector.getNullCount() == 0) {
      markValues(vector, rows, changed);
      return;
    }
    java.util.Arrays.fill(scratch, 0, rows, false);
    markValues(vector, rows, scratch);
    markNulls(vector.getValidityBuffer(), rows, scratch);
    for (int i = 1; i < rows; i++) {
      changed[i] |= scratch[i];
    }
  }

  private static void markValues(FieldVector vector, int rows, boolean[] changed) {
    if (vector instanceof BitVector) {
      ArrowBuf data = vector.getDataBuffer();
      for (int i = 1; i < rows; i++) {
        changed[i] |= bit(data, i) != bit(data, i - 1);
      }
    } else if (vector instanceof Float8Vector) {
      ArrowBuf data = vector.getDataBuffer();
      double previous = data.getDouble(0);
      for (int i = 1; i < rows; i++) {
        double value = data.getDouble(8L * i);
        changed[i] |= value != previous && !(value != value && previous != previous);
        previous = value;
      }
    } else if (vector instanceof Float4Vector) {
      ArrowBuf data = vector.getDataBuffer();
      float previous = data.getFloat(0);
      for (int i = 1; i < rows; i++) {
        float value = data.getFloat(4L * i);
        changed[i] |= value != previous && !(value != value && previous != previous);
        previous = value;
      }
    } else if (vector instanceof BaseVariableWidthVector) {
      markBytes(vector.getDataBuffer(), vector.getOffsetBuffer(), rows, changed);
    } else {
      markFixed(vector, rows, changed);
    }
  }

  /** Bit-equal fixed-width values (integers, dates, timestamps, decimals) are equal keys. */
  private static void markFixed(FieldVector vector, int rows, boolean[] changed) {
    ArrowBuf data = vector.getDataBuffer();
    ArrowType type = vector.getField().getType();
    int width = fixedWidth(type);
    switch (width) {
      case 1:
        for (int i = 1; i < rows; i++) {
          changed[i] |= data.getByte(i) != data.getByte(i - 1);
        }
        break;
      case 2:
        for (int i = 1; i < rows; i++) {
          changed[i] |= data.getShort(2L * i) != data.getShort(2L * i - 2);
        }
        break;
      case 4:
        for (int i = 1; i < rows; i++) {
          changed[i] |= data.getInt(4L * i) != data.getInt(4L * i - 4);
        }
        break;
      case 8:
        for (int i = 1; i < rows; i++) {
          changed[i] |= data.getLong(8L * i) != data.getLong(8L * i - 8);
        }
        break;
      default:
        for (int i = 1; i < rows; i++) {
          long at = (long) width * i;
          boolean differs = false;
          for (int word = 0; word < width; word += 8) {
            differs |= data.getLong(at + word) != data.getLong(at - width + word);
          }
          changed[i] |= differs;
        }
    }
  }

  /** The byte width of a fixed-width key type. */
  private static int fixedWidth(ArrowType type) {
    switch (type.getTypeID()) {
      case Int:
        return ((ArrowType.Int) type).getBitWidth() / 8;
      case Date:
        return ((ArrowType.Date) type).getUnit() == org.apache.arrow.vector.types.DateUnit.DAY
            ? 4
            : 8;
      case Time:
        return ((ArrowType.Time) type).getBitWidth() / 8;
      case Timestamp:
      case Duration:
        return 8;
      case Decimal:
        return ((ArrowType.Decimal) type).getBitWidth() / 8;
      case Interval:
        return ((ArrowType.Interval) type).getUnit()
                == org.apache.arrow.vector.types.IntervalUnit.YEAR_MONTH
            ? 4
            : 8;
      default:
        throw new IllegalArgumentException("cannot partition or order by a column of type " + type);
    }
  }

  private static void markBytes(ArrowBuf data, ArrowBuf offsets, int rows, boolean[] changed) {
    int start = offsets.getInt(0);
    int end = offsets.getInt(4);
    for (int i = 1; i < rows; i++) {
      int nextEnd = offsets.getInt(4L * i + 4);
      int length = nextEnd - end;
      boolean differs = length != end - start;
      for (int k = 0; !differs && k < length; k++) {
        differs = data.getByte(end + k) != data.getByte(start + k);
      }
      changed[i] |= differs;
      start = end;
      end = nextEnd;
    }
  }

  /**
   * Fixes the value flags of one column for its nulls: a null next to a value is a change, two
   * nulls are not, whatever their (garbage) values.
   */
  private static void markNulls(ArrowBuf validity, int rows, boolean[] changed) {
    int previous = bit(validity, 0);
    for (int i = 1; i < rows; i++) {
      int valid = bit(validity, i);
      changed[i] = valid != previous || (valid == 1 && changed[i]);
      previous = valid;
    }
  }

  private static int bit(ArrowBuf bits, int index) {
    return (bits.getByte(index >>> 3) >>> (index & 7)) & 1;
  }
}
