package dev.quiver.operators.keyrange;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Accumulates the {@link KeyRange} of one key column over the batches of a join's build side: one
 * pass over each vector's value and validity buffers, NULLs skipped.
 *
 * <p>Columns of the {@linkplain #supports supported types} only. A decimal value that does not fit
 * a {@code long} unscaled (precision above 18) makes the range unknown: {@link #range()} is then
 * null, and nothing may be skipped by it.
 */
public final class KeyRangeBuilder {
  private long min = Long.MAX_VALUE;
  private long max = Long.MIN_VALUE;
  private boolean unknown;

  /**
   * Whether ranges of a column of {@code type} can be built and compared with file statistics:
   * signed integers, dates in days, 128-bit decimals.
   */
  public static boolean supports(ArrowType type) {
    return (type instanceof ArrowType.Int integer && integer.getIsSigned())
        || (type instanceof ArrowType.Date date && date.getUnit() == DateUnit.DAY)
        || (type instanceof ArrowType.Decimal decimal && decimal.getBitWidth() == 128);
  }

  /** Adds the non-NULL values of the first {@code rows} values of {@code vector}. */
  public void add(FieldVector vector, int rows) {
    if (unknown || rows == 0) {
      return;
    }
    ArrowBuf validity = vector.getValidityBuffer();
    ArrowBuf data = vector.getDataBuffer();
    if (vector instanceof IntVector || vector instanceof DateDayVector) {
      for (int i = 0; i < rows; i++) {
        if (BitVectorHelper.get(validity, i) != 0) {
          include(data.getInt((long) i * 4));
        }
      }
    } else if (vector instanceof BigIntVector) {
      for (int i = 0; i < rows; i++) {
        if (BitVectorHelper.get(validity, i) != 0) {
          include(data.getLong((long) i * 8));
        }
      }
    } else if (vector instanceof SmallIntVector) {
      for (int i = 0; i < rows; i++) {
        if (BitVectorHelper.get(validity, i) != 0) {
          include(data.getShort((long) i * 2));
        }
      }
    } else if (vector instanceof TinyIntVector) {
      for (int i = 0; i < rows; i++) {
        if (BitVectorHelper.get(validity, i) != 0) {
          include(data.getByte(i));
        }
      }
    } else if (vector instanceof DecimalVector) {
      for (int i = 0; i < rows && !unknown; i++) {
        if (BitVectorHelper.get(validity, i) != 0) {
          long low = data.getLong((long) i * 16);
          long high = data.getLong((long) i * 16 + 8);
          if (high != (low >> 63)) {
            unknown = true; // beyond a long: no range
          } else {
            include(low);
          }
        }
      }
    } else {
      throw new IllegalArgumentException("no key range for a " + vector.getField());
    }
  }

  private void include(long value) {
    if (value < min) {
      min = value;
    }
    if (value > max) {
      max = value;
    }
  }

  /** The range of the values added, {@link KeyRange#EMPTY} if none, null if unknown. */
  public KeyRange range() {
    if (unknown) {
      return null;
    }
    return min > max ? KeyRange.EMPTY : new KeyRange(min, max);
  }
}
