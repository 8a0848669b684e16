package dev.quiver.operators.values;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.Period;
import java.time.ZoneOffset;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.IntervalDayVector;
import org.apache.arrow.vector.IntervalYearVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.IntervalUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * The values of one column of a {@link ValuesOperator}, converted once to the Java form its
 * vector's setter takes (see the operator for what each type accepts).
 */
final class LiteralColumn {
  /** Converts an accepted value, or returns null when the value does not suit the column. */
  private interface Converter {
    Object convert(Object value);
  }

  private interface Setter {
    void set(FieldVector vector, int index, Object value);
  }

  private final Field field;
  private final Object[] values;
  private final Converter converter;
  private final Setter setter;

  private LiteralColumn(Field field, int rows, Converter converter, Setter setter) {
    this.field = field;
    this.values = new Object[rows];
    this.converter = converter;
    this.setter = setter;
  }

  static LiteralColumn create(Field field, int rows) {
    ArrowType type = field.getType();
    switch (type.getTypeID()) {
      case Bool:
        return new LiteralColumn(
            field,
            rows,
            v -> v instanceof Boolean ? v : null,
            (vector, i, v) -> ((BitVector) vector).setSafe(i, (Boolean) v ? 1 : 0));
      case Int:
        ArrowType.Int integer = (ArrowType.Int) type;
        if (integer.getIsSigned()) {
          return integer(field, rows, integer.getBitWidth());
        }
        break;
      case FloatingPoint:
        FloatingPointPrecision precision = ((ArrowType.FloatingPoint) type).getPrecision();
        if (precision == FloatingPointPrecision.SINGLE) {
          return new LiteralColumn(
              field,
              rows,
              v -> v instanceof Number number ? number.floatValue() : null,
              (vector, i, v) -> ((Float4Vector) vector).setSafe(i, (Float) v));
        } else if (precision == FloatingPointPrecision.DOUBLE) {
          return new LiteralColumn(
              field,
              rows,
              v -> v instanceof Number number ? number.doubleValue() : null,
              (vector, i, v) -> ((Float8Vector) vector).setSafe(i, (Double) v));
        }
        break;
      case Decimal:
        ArrowType.Decimal decimal = (ArrowType.Decimal) type;
        if (decimal.getBitWidth() == 128) {
          return new LiteralColumn(
              field,
              rows,
              v -> decimal(v, decimal.getPrecision(), decimal.getScale()),
              (vector, i, v) -> ((DecimalVector) vector).setSafe(i, (BigDecimal) v));
        }
        break;
      case Utf8:
        return new LiteralColumn(
            field,
            rows,
            v -> v instanceof CharSequence s ? s.toString().getBytes(StandardCharsets.UTF_8) : null,
            (vector, i, v) -> ((VarCharVector) vector).setSafe(i, (byte[]) v));
      case Date:
        if (((ArrowType.Date) type).getUnit() == DateUnit.DAY) {
          return new LiteralColumn(
              field,
              rows,
              v -> inRange(v instanceof LocalDate date ? date.toEpochDay() : v, 32),
              (vector, i, v) -> ((DateDayVector) vector).setSafe(i, ((Long) v).intValue()));
        }
        break;
      case Timestamp:
        if (((ArrowType.Timestamp) type).getUnit() == TimeUnit.MICROSECOND) {
          return new LiteralColumn(
              field,
              rows,
              LiteralColumn::micros,
              (vector, i, v) -> ((TimeStampVector) vector).setSafe(i, (Long) v));
        }
        break;
      case Interval:
        IntervalUnit unit = ((ArrowType.Interval) type).getUnit();
        if (unit == IntervalUnit.DAY_TIME) {
          return new LiteralColumn(
              field,
              rows,
              v -> v instanceof Duration ? v : null,
              (vector, i, v) -> {
                Duration duration = (Duration) v;
                long days = duration.toDays();
                ((IntervalDayVector) vector)
                    .setSafe(i, Math.toIntExact(days), (int) duration.minusDays(days).toMillis());
              });
        } else if (unit == IntervalUnit.YEAR_MONTH) {
          return new LiteralColumn(
              field,
              rows,
              v -> v instanceof Period ? v : null,
              (vector, i, v) ->
                  ((IntervalYearVector) vector).setSafe(i, (int) ((Period) v).toTotalMonths()));
        }
        break;
      default:
        break;
    }
    throw new IllegalArgumentException("VALUES does not support columns like " + field);
  }

  private static LiteralColumn integer(Field field, int rows, int bits) {
    Setter setter =
        switch (bits) {
          case 8 -> (vector, i, v) -> ((TinyIntVector) vector).setSafe(i, ((Long) v).byteValue());
          case 16 ->
              (vector, i, v) -> ((SmallIntVector) vector).setSafe(i, ((Long) v).shortValue());
          case 32 -> (vector, i, v) -> ((IntVector) vector).setSafe(i, ((Long) v).intValue());
          default -> (vector, i, v) -> ((BigIntVector) vector).setSafe(i, (Long) v);
        };
    return new LiteralColumn(field, rows, v -> inRange(v, bits), setter);
  }

  /** Stores value {@code row}, or fails naming the row, the column and the value. */
  void add(int row, Object value) {
    if (value == null) {
      return;
    }
    Object converted;
    try {
      converted = converter.convert(value);
    } catch (ArithmeticException e) {
      converted = null;
    }
    if (converted == null) {
      throw new IllegalArgumentException(
          "row "
              + row
              + ": "
              + value
              + " ("
              + value.getClass().getSimpleName()
              + ") does not fit column "
              + field);
    }
    values[row] = converted;
  }

  /** Writes values {@code [from, from + count)} into the empty {@code vector}. */
  void write(FieldVector vector, int from, int count) {
    vector.allocateNew();
    for (int i = 0; i < count; i++) {
      Object value = values[from + i];
      if (value == null) {
        vector.setNull(i);
      } else {
        setter.set(vector, i, value);
      }
    }
    vector.setValueCount(count);
  }

  /** An integral value as a Long if it fits in {@code bits} signed bits, else null. */
  private static Object inRange(Object value, int bits) {
    long result;
    if (value instanceof Long
        || value instanceof Integer
        || value instanceof Short
        || value instanceof Byte) {
      result = ((Number) value).longValue();
    } else if (value instanceof BigInteger big && big.bitLength() < Long.SIZE) {
      result = big.longValue();
    } else {
      return null;
    }
    long limit = 1L << (bits - 1);
    return bits == Long.SIZE || (result >= -limit && result < limit) ? result : null;
  }

  /** The value at the column's scale (no rounding) within its precision, else null. */
  private static Object decimal(Object value, int precision, int scale) {
    BigDecimal decimal;
    if (value instanceof BigDecimal given) {
      decimal = given;
    } else if (inRange(value, Long.SIZE) instanceof Long integral) {
      decimal = BigDecimal.valueOf(integral);
    } else {
      return null;
    }
    BigDecimal scaled = decimal.setScale(scale, RoundingMode.UNNECESSARY); // throws if it rounds
    return scaled.unscaledValue().abs().compareTo(BigInteger.TEN.pow(precision)) < 0
        ? scaled
        : null;
  }

  /** Microseconds since 1970-01-01T00:00 UTC, else null. */
  private static Object micros(Object value) {
    Instant instant;
    if (value instanceof LocalDateTime local) {
      instant = local.toInstant(ZoneOffset.UTC);
    } else if (value instanceof Instant given) {
      instant = given;
    } else {
      return inRange(value, Long.SIZE);
    }
    if (instant.getNano() % 1000 != 0) {
      return null; // finer than the column's microseconds
    }
    return Math.addExact(
        Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1000);
  }
}
