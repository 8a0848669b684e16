package dev.quiver.operators.expr;

import dev.quiver.plan.type.SqlType;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
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
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * Conversions between single Arrow values and the canonical Java values of {@link
 * dev.quiver.plan.expr.Literal}: constants going into kernels and folded results coming out. Not
 * for hot loops.
 */
final class Values {
  private static final long MICROS_PER_SECOND = 1_000_000L;

  private Values() {}

  /** Sets {@code row} of {@code vector} (of {@code type}) to {@code value}, or NULL. */
  static void write(FieldVector vector, int row, Object value, SqlType type) {
    if (value == null) {
      vector.setNull(row);
      return;
    }
    switch (type.kind()) {
      case BOOLEAN:
        ((BitVector) vector).setSafe(row, (Boolean) value ? 1 : 0);
        break;
      case TINYINT:
        ((TinyIntVector) vector).setSafe(row, (byte) (long) (Long) value);
        break;
      case SMALLINT:
        ((SmallIntVector) vector).setSafe(row, (short) (long) (Long) value);
        break;
      case INTEGER:
        ((IntVector) vector).setSafe(row, (int) (long) (Long) value);
        break;
      case BIGINT:
        ((BigIntVector) vector).setSafe(row, (Long) value);
        break;
      case REAL:
        ((Float4Vector) vector).setSafe(row, (float) (double) (Double) value);
        break;
      case DOUBLE:
        ((Float8Vector) vector).setSafe(row, (Double) value);
        break;
      case DECIMAL:
        ((DecimalVector) vector).setSafe(row, (BigDecimal) value);
        break;
      case VARCHAR:
        ((VarCharVector) vector).setSafe(row, ((String) value).getBytes(StandardCharsets.UTF_8));
        break;
      case DATE:
        ((DateDayVector) vector).setSafe(row, Math.toIntExact(((LocalDate) value).toEpochDay()));
        break;
      case TIMESTAMP:
        ((TimeStampMicroVector) vector).setSafe(row, micros((LocalDateTime) value));
        break;
      case INTERVAL_YEAR_MONTH:
        ((IntervalYearVector) vector).setSafe(row, (int) ((Period) value).toTotalMonths());
        break;
      case INTERVAL_DAY_TIME:
        Duration duration = (Duration) value;
        long days = duration.toDays();
        int millis = (int) duration.minusDays(days).toMillis();
        ((IntervalDayVector) vector).setSafe(row, Math.toIntExact(days), millis);
        break;
      default:
        throw new IllegalArgumentException("unsupported type " + type);
    }
  }

  /** The canonical value at {@code row}, or null. */
  static Object read(FieldVector vector, int row, SqlType type) {
    if (vector.isNull(row)) {
      return null;
    }
    switch (type.kind()) {
      case BOOLEAN:
        return ((BitVector) vector).get(row) != 0;
      case TINYINT:
      case SMALLINT:
      case INTEGER:
      case BIGINT:
        return ((Number) vector.getObject(row)).longValue();
      case REAL:
        return (double) ((Float4Vector) vector).get(row);
      case DOUBLE:
        return ((Float8Vector) vector).get(row);
      case DECIMAL:
        return ((DecimalVector) vector).getObject(row);
      case VARCHAR:
        return new String(((VarCharVector) vector).get(row), StandardCharsets.UTF_8);
      case DATE:
        return LocalDate.ofEpochDay(((DateDayVector) vector).get(row));
      case TIMESTAMP:
        return timestamp(((TimeStampMicroVector) vector).get(row));
      case INTERVAL_YEAR_MONTH:
        return Period.ofMonths(((IntervalYearVector) vector).get(row));
      case INTERVAL_DAY_TIME:
        return ((IntervalDayVector) vector).getObject(row);
      default:
        throw new IllegalArgumentException("unsupported type " + type);
    }
  }

  static long micros(LocalDateTime value) {
    return Math.addExact(
        Math.multiplyExact(value.toEpochSecond(ZoneOffset.UTC), MICROS_PER_SECOND),
        value.getNano() / 1000);
  }

  static LocalDateTime timestamp(long micros) {
    long seconds = Math.floorDiv(micros, MICROS_PER_SECOND);
    int nanos = (int) Math.floorMod(micros, MICROS_PER_SECOND) * 1000;
    return LocalDateTime.ofEpochSecond(seconds, nanos, ZoneOffset.UTC);
  }
}
