package dev.quiver.plan.expr;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.plan.type.SqlType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.Period;
import java.util.List;
import java.util.Objects;

/**
 * A constant of a SQL type, possibly NULL. The value is held in one canonical Java class per type,
 * which {@link #value()} returns:
 *
 * <pre>
 *   BOOLEAN Boolean       TINYINT..BIGINT Long     REAL, DOUBLE Double   DECIMAL BigDecimal
 *   VARCHAR String        DATE LocalDate           TIMESTAMP LocalDateTime (microseconds)
 *   INTERVAL YEAR TO MONTH Period (months only)    INTERVAL DAY TO SECOND Duration (milliseconds)
 * </pre>
 *
 * The constructor accepts the usual neighbours (Integer for BIGINT, Float for REAL, Long for a
 * DECIMAL, ...) and converts them; a value that does not fit the type is rejected.
 */
public final class Literal implements Expr {
  private static final long serialVersionUID = 1L;

  private final Object value;
  private final SqlType type;

  public Literal(Object value, SqlType type) {
    this.type = requireNonNull(type, "type is null");
    this.value = value == null ? null : canonical(value, type);
  }

  /** The canonical value (see the class doc), or null. */
  public Object value() {
    return value;
  }

  public boolean isNull() {
    return value == null;
  }

  @Override
  public SqlType sqlType() {
    return type;
  }

  @Override
  public boolean nullable() {
    return value == null;
  }

  @Override
  public List<Expr> children() {
    return List.of();
  }

  @Override
  public <R> R accept(ExprVisitor<R> visitor) {
    return visitor.visitLiteral(this);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Literal
        && type.equals(((Literal) other).type)
        && Objects.equals(value, ((Literal) other).value);
  }

  @Override
  public int hashCode() {
    return Objects.hash(type, value);
  }

  /** SQL literal syntax: {@code 42}, {@code 0.06}, {@code 'PROMO%'}, {@code DATE '1994-01-01'}. */
  @Override
  public String toString() {
    return LiteralText.format(value, type);
  }

  private static Object canonical(Object value, SqlType type) {
    switch (type.kind()) {
      case BOOLEAN:
        return as(Boolean.class, value, type);
      case TINYINT:
      case SMALLINT:
      case INTEGER:
      case BIGINT:
        return integer(value, type);
      case REAL:
        return (double) as(Number.class, value, type).floatValue();
      case DOUBLE:
        return as(Number.class, value, type).doubleValue();
      case DECIMAL:
        return decimal(value, type);
      case VARCHAR:
        return as(CharSequence.class, value, type).toString();
      case DATE:
        return as(LocalDate.class, value, type);
      case TIMESTAMP:
        LocalDateTime timestamp = as(LocalDateTime.class, value, type);
        if (timestamp.getNano() % 1000 != 0) {
          throw new IllegalArgumentException("timestamps hold microseconds: " + timestamp);
        }
        return timestamp;
      case INTERVAL_YEAR_MONTH:
        Period period = as(Period.class, value, type);
        if (period.getDays() != 0) {
          throw new IllegalArgumentException("a year-month interval has no days: " + period);
        }
        return Period.ofMonths(Math.toIntExact(period.toTotalMonths()));
      case INTERVAL_DAY_TIME:
        Duration duration = as(Duration.class, value, type);
        if (duration.getNano() % 1_000_000 != 0) {
          throw new IllegalArgumentException("a day-time interval holds milliseconds: " + duration);
        }
        return duration;
      default:
        throw new IllegalArgumentException("unknown type " + type);
    }
  }

  private static Long integer(Object value, SqlType type) {
    Number number = as(Number.class, value, type);
    if (number instanceof Double || number instanceof Float || number instanceof BigDecimal) {
      throw new IllegalArgumentException(type + " literal needs an integral value: " + value);
    }
    long v = number.longValue();
    int bits = ((org.apache.arrow.vector.types.pojo.ArrowType.Int) type.arrow()).getBitWidth();
    if (bits < 64 && (v < -(1L << (bits - 1)) || v >= (1L << (bits - 1)))) {
      throw new QuiverException(
          ErrorCode.NUMERIC_OVERFLOW, "literal " + v + " is out of range for " + type);
    }
    return v;
  }

  private static BigDecimal decimal(Object value, SqlType type) {
    BigDecimal decimal;
    if (value instanceof BigDecimal) {
      decimal = (BigDecimal) value;
    } else if (value instanceof Long || value instanceof Integer || value instanceof Short) {
      decimal = BigDecimal.valueOf(((Number) value).longValue());
    } else {
      throw new IllegalArgumentException(type + " literal needs a BigDecimal: " + value);
    }
    BigDecimal scaled;
    try {
      scaled = decimal.setScale(type.scale(), RoundingMode.UNNECESSARY);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(value + " has more digits than " + type + " holds", e);
    }
    if (scaled.precision() - scaled.scale() > type.precision() - type.scale()) {
      throw new QuiverException(
          ErrorCode.NUMERIC_OVERFLOW, "literal " + value + " does not fit " + type);
    }
    return scaled;
  }

  private static <T> T as(Class<T> expected, Object value, SqlType type) {
    if (!expected.isInstance(value)) {
      throw new IllegalArgumentException(
          type + " literal needs a " + expected.getSimpleName() + ", not " + value.getClass());
    }
    return expected.cast(value);
  }
}
