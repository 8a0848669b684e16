package dev.quiver.operators.sort;

import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Order-preserving 64-bit prefixes of the non-null values of one key column spread over many
 * batches, for {@link IndexSort}: comparing two prefixes as unsigned longs orders their values as
 * {@link RowComparator} does (ascending), and different prefixes mean different values.
 *
 * <p>A value may need several <em>parts</em>: part {@code p + 1} only orders values whose parts
 * {@code 0..p} are equal (a string's next 7 bytes, a decimal's low word). {@link #exact} says
 * whether equal prefixes of a part mean equal values; when they do not and no part is left, the
 * sort falls back to the row comparator. Integers, dates, times, timestamps, booleans and floats
 * are exact in one part.
 *
 * <p>Rows are packed references {@code batch << 32 | row}. Encoding loops live in the subclasses so
 * that each loop calls no virtual method per row.
 */
abstract class PrefixEncoder {
  final ArrowBuf[] data;

  PrefixEncoder(List<FieldVector> columns) {
    data = new ArrowBuf[columns.size()];
    for (int b = 0; b < data.length; b++) {
      data[b] = columns.get(b).getDataBuffer();
    }
  }

  /** Writes the prefixes of part {@code part} of rows {@code refs[from..to)} to {@code out}. */
  abstract void encode(long[] refs, int from, int to, int part, long[] out);

  /** Whether values whose part {@code part} has the prefix {@code prefix} are all equal. */
  boolean exact(long prefix, int part) {
    return true;
  }

  /** How many parts this encoder can produce. */
  int parts() {
    return 1;
  }

  static int batch(long ref) {
    return (int) (ref >>> 32);
  }

  static int row(long ref) {
    return (int) ref;
  }

  /** The encoder of a column of {@code type}, given the column of every batch. */
  static PrefixEncoder create(ArrowType type, List<FieldVector> columns) {
    switch (type.getTypeID()) {
      case Bool:
        return new Bool(columns);
      case Int:
        ArrowType.Int integer = (ArrowType.Int) type;
        return new Fixed(columns, integer.getBitWidth() / 8, integer.getIsSigned());
      case Date:
        return new Fixed(columns, ((ArrowType.Date) type).getUnit() == DateUnit.DAY ? 4 : 8, true);
      case Time:
        return new Fixed(columns, ((ArrowType.Time) type).getBitWidth() / 8, true);
      case Timestamp:
      case Duration:
        return new Fixed(columns, 8, true);
      case FloatingPoint:
        FloatingPointPrecision precision = ((ArrowType.FloatingPoint) type).getPrecision();
        if (precision == FloatingPointPrecision.HALF) {
          break;
        }
        return new Floating(columns, precision == FloatingPointPrecision.SINGLE);
      case Decimal:
        return ((ArrowType.Decimal) type).getBitWidth() == 128
            ? new DecimalPrefixes.Decimal128(columns)
            : new DecimalPrefixes.Decimal256(columns);
      case Utf8:
      case Binary:
        return new StringPrefixes(columns);
      default:
        break;
    }
    throw new IllegalArgumentException("cannot sort by a column of type " + type);
  }

  /** Integers and the types stored as integers: signed values are shifted into unsigned order. */
  private static final class Fixed extends PrefixEncoder {
    private final int width;
    private final boolean signed;

    Fixed(List<FieldVector> columns, int width, boolean signed) {
      super(columns);
      this.width = width;
      this.signed = signed;
    }

    @Override
    void encode(long[] refs, int from, int to, int part, long[] out) {
      long flip = signed ? Long.MIN_VALUE : 0;
      switch (width) {
        case 1:
          for (int i = from; i < to; i++) {
            byte value = data[batch(refs[i])].getByte(row(refs[i]));
            out[i] = signed ? value ^ flip : value & 0xFFL;
          }
          break;
        case 2:
          for (int i = from; i < to; i++) {
            short value = data[batch(refs[i])].getShort(2L * row(refs[i]));
            out[i] = signed ? value ^ flip : value & 0xFFFFL;
          }
          break;
        case 4:
          for (int i = from; i < to; i++) {
            int value = data[batch(refs[i])].getInt(4L * row(refs[i]));
            out[i] = signed ? value ^ flip : value & 0xFFFF_FFFFL;
          }
          break;
        default:
          for (int i = from; i < to; i++) {
            out[i] = data[batch(refs[i])].getLong(8L * row(refs[i])) ^ flip;
          }
          break;
      }
    }
  }

  /** Booleans: {@code false < true}. */
  private static final class Bool extends PrefixEncoder {
    Bool(List<FieldVector> columns) {
      super(columns);
    }

    @Override
    void encode(long[] refs, int from, int to, int part, long[] out) {
      for (int i = from; i < to; i++) {
        int row = row(refs[i]);
        out[i] = (data[batch(refs[i])].getByte(row >>> 3) >>> (row & 7)) & 1;
      }
    }
  }

  /**
   * IEEE floats in SQL order: {@code -0.0} encodes as {@code 0.0}, every NaN as the largest prefix.
   * The usual trick: flip all bits of negatives, only the sign bit of positives.
   */
  private static final class Floating extends PrefixEncoder {
    private final boolean single;

    Floating(List<FieldVector> columns, boolean single) {
      super(columns);
      this.single = single;
    }

    @Override
    void encode(long[] refs, int from, int to, int part, long[] out) {
      for (int i = from; i < to; i++) {
        ArrowBuf buffer = data[batch(refs[i])];
        int row = row(refs[i]);
        // float to double is exact and keeps the order, so both share one encoding.
        double value = single ? buffer.getFloat(4L * row) : buffer.getDouble(8L * row);
        out[i] = encode(value);
      }
    }

    static long encode(double value) {
      if (value != value) {
        return -1L; // NaN: greater than everything, equal to every NaN
      }
      long bits = Double.doubleToRawLongBits(value == 0 ? 0.0 : value);
      return bits < 0 ? ~bits : bits ^ Long.MIN_VALUE;
    }
  }
}
