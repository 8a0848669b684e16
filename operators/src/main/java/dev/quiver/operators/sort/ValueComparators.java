package dev.quiver.operators.sort;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Type-specialised comparisons of two non-null values read straight from Arrow buffers (assumes
 * little-endian memory, as Arrow Java does). One is chosen per key column when a {@link
 * RowComparator} is created, so rows are compared without a per-row type switch, boxing or {@code
 * getObject}. Every result is -1, 0 or 1 so that a descending key can negate it.
 */
final class ValueComparators {
  private ValueComparators() {}

  /** Compares value {@code i} of one column with value {@code j} of another of the same type. */
  @FunctionalInterface
  interface ValueComparator {
    int compare(
        ArrowBuf left, ArrowBuf leftOffsets, int i, ArrowBuf right, ArrowBuf rightOffsets, int j);
  }

  /** Whether values of {@code type} are located through an offsets buffer. */
  static boolean hasOffsets(ArrowType type) {
    return type instanceof ArrowType.Utf8 || type instanceof ArrowType.Binary;
  }

  /** The comparator of {@code type}; {@link IllegalArgumentException} for types that can't sort. */
  static ValueComparator forType(ArrowType type) {
    switch (type.getTypeID()) {
      case Bool:
        return ValueComparators::bool;
      case Int:
        return integer((ArrowType.Int) type);
      case FloatingPoint:
        FloatingPointPrecision precision = ((ArrowType.FloatingPoint) type).getPrecision();
        if (precision == FloatingPointPrecision.SINGLE) {
          return ValueComparators::float4;
        } else if (precision == FloatingPointPrecision.DOUBLE) {
          return ValueComparators::float8;
        }
        break;
      case Decimal:
        int decimalWidth = ((ArrowType.Decimal) type).getBitWidth();
        if (decimalWidth == 128) {
          return ValueComparators::decimal128;
        } else if (decimalWidth == 256) {
          return ValueComparators::decimal256;
        }
        break;
      case Date:
        return ((ArrowType.Date) type).getUnit() == DateUnit.DAY
            ? ValueComparators::int32
            : ValueComparators::int64;
      case Time:
        return ((ArrowType.Time) type).getBitWidth() == 32
            ? ValueComparators::int32
            : ValueComparators::int64;
      case Timestamp:
      case Duration:
        return ValueComparators::int64;
      case Utf8:
      case Binary:
        return ValueComparators::bytes;
      default:
        break;
    }
    throw new IllegalArgumentException("cannot sort by a column of type " + type);
  }

  private static ValueComparator integer(ArrowType.Int type) {
    boolean signed = type.getIsSigned();
    switch (type.getBitWidth()) {
      case 8:
        return signed ? ValueComparators::int8 : ValueComparators::uint8;
      case 16:
        return signed ? ValueComparators::int16 : ValueComparators::uint16;
      case 32:
        return signed ? ValueComparators::int32 : ValueComparators::uint32;
      case 64:
        return signed ? ValueComparators::int64 : ValueComparators::uint64;
      default:
        throw new IllegalArgumentException("cannot sort by a column of type " + type);
    }
  }

  static int bool(ArrowBuf l, ArrowBuf lo, int i, ArrowBuf r, ArrowBuf ro, int j) {
    int a = (l.getByte(i >>> 3) >>> (i & 7)) & 1;
    int b = (r.getByte(j >>> 3) >>> (j & 7)) & 1;
    return Integer.compare(a, b);
  }

  static int int8(ArrowBuf l, ArrowBuf lo, int i, ArrowBuf r, ArrowBuf ro, int j) {
    return Integer.compare(l.getByte(i), r.getByte(j));
  }

  static int uint8(ArrowBuf l, ArrowBuf lo, int i, ArrowBuf r, ArrowBuf ro, int j) {
    return Integer.compare(l.getByte(i) & 0xFF, r.getByte(j) & 0xFF);
  }

  static int int16(ArrowBuf l, ArrowBuf lo, int i, ArrowBuf r, ArrowBuf ro, int j) {
    return Integer.compare(l.getShort(2L * i), r.getShort(2L * j));
  }

  static int uint16(ArrowBuf l, ArrowBuf lo, int i, ArrowBuf r, ArrowBuf ro, int j) {
    return Integer.compare(l.getShort(2L * i) & 0xFFFF, r.getShort(2L * j) & 0xFFFF);
  }

  static int int32(ArrowBuf l, ArrowBuf lo, int i, ArrowBuf r, ArrowBuf ro, int j) {
    return Integer.compare(l.getInt(4L * i), r.getInt(4L * j));
  }

  static int uint32(ArrowBuf l, ArrowBuf lo, int i, ArrowBuf r, ArrowBuf ro, int j) {
    return Integer.compareUnsigned(l.getInt(4L * i), r.getInt(4L * j));
  }

  static int int64(ArrowBuf l, ArrowBuf lo, int i, ArrowBuf r, ArrowBuf ro, int j) {
    return Long.compare(l.getLong(8L * i), r.getLong(8L * j));
  }

  static int uint64(ArrowBuf l, ArrowBuf lo, int i, ArrowBuf r, ArrowBuf ro, int j) {
    return Long.compareUnsigned(l.getLong(8L * i), r.getLong(8L * j));
  }

  /** SQL order: -0.0 equals 0.0; NaN equals NaN and is greater than every other value. */
  static int float4(ArrowBuf l, ArrowBuf lo, int i, ArrowBuf r, ArrowBuf ro, int j) {
    float a = l.getFloat(4L * i);
    float b = r.getFloat(4L * j);
    if (a < b) {
      return -1;
    } else if (a > b) {
      return 1;
    }
    return Boolean.compare(Float.isNaN(a), Float.isNaN(b)); // equal, or at least one NaN
  }

  /** SQL order: -0.0 equals 0.0; NaN equals NaN and is greater than every other value. */
  static int float8(ArrowBuf l, ArrowBuf lo, int i, ArrowBuf r, ArrowBuf ro, int j) {
    double a = l.getDouble(8L * i);
    double b = r.getDouble(8L * j);
    if (a < b) {
      return -1;
    } else if (a > b) {
      return 1;
    }
    return Boolean.compare(Double.isNaN(a), Double.isNaN(b)); // equal, or at least one NaN
  }

  /** Two's complement, little-endian: the high word decides with its sign, the low unsigned. */
  static int decimal128(ArrowBuf l, ArrowBuf lo, int i, ArrowBuf r, ArrowBuf ro, int j) {
    long left = 16L * i;
    long right = 16L * j;
    long high = l.getLong(left + 8);
    long otherHigh = r.getLong(right + 8);
    if (high != otherHigh) {
      return Long.compare(high, otherHigh);
    }
    return Long.compareUnsigned(l.getLong(left), r.getLong(right));
  }

  static int decimal256(ArrowBuf l, ArrowBuf lo, int i, ArrowBuf r, ArrowBuf ro, int j) {
    long left = 32L * i;
    long right = 32L * j;
    long high = l.getLong(left + 24);
    long otherHigh = r.getLong(right + 24);
    if (high != otherHigh) {
      return Long.compare(high, otherHigh);
    }
    for (int word = 16; word >= 0; word -= 8) {
      long a = l.getLong(left + word);
      long b = r.getLong(right + word);
      if (a != b) {
        return Long.compareUnsigned(a, b);
      }
    }
    return 0;
  }

  /**
   * Lexicographic by unsigned bytes (for UTF-8 this is code point order), 8 bytes at a time: a
   * little-endian word read byte-reversed compares as the big-endian number of its bytes.
   */
  static int bytes(ArrowBuf l, ArrowBuf lo, int i, ArrowBuf r, ArrowBuf ro, int j) {
    int leftStart = lo.getInt(4L * i);
    int leftLength = lo.getInt(4L * i + 4) - leftStart;
    int rightStart = ro.getInt(4L * j);
    int rightLength = ro.getInt(4L * j + 4) - rightStart;
    int common = Math.min(leftLength, rightLength);
    int k = 0;
    for (; k <= common - Long.BYTES; k += Long.BYTES) {
      long a = l.getLong(leftStart + k);
      long b = r.getLong(rightStart + k);
      if (a != b) {
        return Long.compareUnsigned(Long.reverseBytes(a), Long.reverseBytes(b));
      }
    }
    for (; k < common; k++) {
      int a = l.getByte(leftStart + k) & 0xFF;
      int b = r.getByte(rightStart + k) & 0xFF;
      if (a != b) {
        return a < b ? -1 : 1;
      }
    }
    return Integer.compare(leftLength, rightLength);
  }
}
