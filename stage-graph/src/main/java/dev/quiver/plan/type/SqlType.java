package dev.quiver.plan.type;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import java.io.ObjectStreamException;
import java.io.Serializable;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * A SQL type Quiver computes with, and the Arrow type that stores it.
 *
 * <p>Arrow's {@link ArrowType} is not {@link Serializable}, but expressions travel inside Flink
 * jobs, so plans hold this small value instead: a {@link Kind} plus the precision and scale of
 * decimals. {@link #arrow()} gives the Arrow type; {@link #of(ArrowType)} maps back and rejects
 * Arrow types Quiver does not compute with. {@link #toString()} is the SQL name, e.g. {@code
 * DECIMAL(15,2)}.
 */
public final class SqlType implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Largest decimal precision (decimal128). */
  public static final int MAX_PRECISION = 38;

  /** The type families, each with one Arrow storage type. */
  public enum Kind {
    BOOLEAN,
    TINYINT,
    SMALLINT,
    INTEGER,
    BIGINT,
    REAL,
    DOUBLE,
    DECIMAL,
    VARCHAR,
    DATE,
    TIMESTAMP,
    INTERVAL_DAY_TIME,
    INTERVAL_YEAR_MONTH
  }

  public static final SqlType BOOLEAN = new SqlType(Kind.BOOLEAN, 0, 0);
  public static final SqlType TINYINT = new SqlType(Kind.TINYINT, 3, 0);
  public static final SqlType SMALLINT = new SqlType(Kind.SMALLINT, 5, 0);
  public static final SqlType INTEGER = new SqlType(Kind.INTEGER, 10, 0);
  public static final SqlType BIGINT = new SqlType(Kind.BIGINT, 19, 0);
  public static final SqlType REAL = new SqlType(Kind.REAL, 0, 0);
  public static final SqlType DOUBLE = new SqlType(Kind.DOUBLE, 0, 0);
  public static final SqlType VARCHAR = new SqlType(Kind.VARCHAR, 0, 0);
  public static final SqlType DATE = new SqlType(Kind.DATE, 0, 0);

  /** Microseconds since the epoch, without time zone. */
  public static final SqlType TIMESTAMP = new SqlType(Kind.TIMESTAMP, 0, 0);

  /** Days and milliseconds (Arrow {@code Interval(DAY_TIME)}). */
  public static final SqlType INTERVAL_DAY_TIME = new SqlType(Kind.INTERVAL_DAY_TIME, 0, 0);

  /** Months (Arrow {@code Interval(YEAR_MONTH)}). */
  public static final SqlType INTERVAL_YEAR_MONTH = new SqlType(Kind.INTERVAL_YEAR_MONTH, 0, 0);

  private final Kind kind;
  // For DECIMAL the declared precision and scale; for integers the decimal digits they can hold.
  private final int precision;
  private final int scale;
  private final transient ArrowType arrow;

  private SqlType(Kind kind, int precision, int scale) {
    this.kind = kind;
    this.precision = precision;
    this.scale = scale;
    this.arrow = ArrowTypes.toArrow(kind, precision, scale);
  }

  /**
   * {@code DECIMAL(precision, scale)}; fails unless {@code 1 <= precision <= 38} and {@code 0 <=
   * scale <= precision}.
   */
  public static SqlType decimal(int precision, int scale) {
    if (precision < 1 || precision > MAX_PRECISION || scale < 0 || scale > precision) {
      throw new QuiverException(
          ErrorCode.UNSUPPORTED_TYPE,
          "DECIMAL("
              + precision
              + ","
              + scale
              + ") is not supported: precision must be in [1, 38]"
              + " and scale in [0, precision]");
    }
    return new SqlType(Kind.DECIMAL, precision, scale);
  }

  /** The SQL type stored as {@code type}, or an {@link ErrorCode#UNSUPPORTED_TYPE} error. */
  public static SqlType of(ArrowType type) {
    requireNonNull(type, "type is null");
    SqlType result = ArrowTypes.fromArrow(type);
    if (result == null) {
      throw new QuiverException(
          ErrorCode.UNSUPPORTED_TYPE, "Arrow type " + type + " is not supported in expressions");
    }
    return result;
  }

  public Kind kind() {
    return kind;
  }

  /** Decimal precision; for integer types the number of decimal digits they can hold. */
  public int precision() {
    return precision;
  }

  /** Decimal scale; 0 for every other type. */
  public int scale() {
    return scale;
  }

  /** The Arrow type that stores values of this type. */
  public ArrowType arrow() {
    return arrow;
  }

  public boolean isInteger() {
    return kind == Kind.TINYINT
        || kind == Kind.SMALLINT
        || kind == Kind.INTEGER
        || kind == Kind.BIGINT;
  }

  public boolean isFloatingPoint() {
    return kind == Kind.REAL || kind == Kind.DOUBLE;
  }

  public boolean isDecimal() {
    return kind == Kind.DECIMAL;
  }

  /** Integers, floating point and decimals. */
  public boolean isNumeric() {
    return isInteger() || isFloatingPoint() || isDecimal();
  }

  public boolean isInterval() {
    return kind == Kind.INTERVAL_DAY_TIME || kind == Kind.INTERVAL_YEAR_MONTH;
  }

  /** DATE and TIMESTAMP. */
  public boolean isDatetime() {
    return kind == Kind.DATE || kind == Kind.TIMESTAMP;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof SqlType
        && ((SqlType) other).kind == kind
        && ((SqlType) other).precision == precision
        && ((SqlType) other).scale == scale;
  }

  @Override
  public int hashCode() {
    return (kind.hashCode() * 31 + precision) * 31 + scale;
  }

  /** The SQL name: {@code INTEGER}, {@code DECIMAL(15,2)}, {@code INTERVAL YEAR TO MONTH}, ... */
  @Override
  public String toString() {
    switch (kind) {
      case DECIMAL:
        return "DECIMAL(" + precision + "," + scale + ")";
      case INTERVAL_DAY_TIME:
        return "INTERVAL DAY TO SECOND";
      case INTERVAL_YEAR_MONTH:
        return "INTERVAL YEAR TO MONTH";
      default:
        return kind.name();
    }
  }

  /** Restores the Arrow type, which is not serialized, and the shared constants. */
  private Object readResolve() throws ObjectStreamException {
    return kind == Kind.DECIMAL ? new SqlType(kind, precision, scale) : forKind(kind);
  }

  static SqlType forKind(Kind kind) {
    switch (kind) {
      case BOOLEAN:
        return BOOLEAN;
      case TINYINT:
        return TINYINT;
      case SMALLINT:
        return SMALLINT;
      case INTEGER:
        return INTEGER;
      case BIGINT:
        return BIGINT;
      case REAL:
        return REAL;
      case DOUBLE:
        return DOUBLE;
      case VARCHAR:
        return VARCHAR;
      case DATE:
        return DATE;
      case TIMESTAMP:
        return TIMESTAMP;
      case INTERVAL_DAY_TIME:
        return INTERVAL_DAY_TIME;
      case INTERVAL_YEAR_MONTH:
        return INTERVAL_YEAR_MONTH;
      default:
        throw new IllegalArgumentException("DECIMAL needs a precision and scale");
    }
  }
}
