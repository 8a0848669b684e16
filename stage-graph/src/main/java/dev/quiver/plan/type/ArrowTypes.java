package dev.quiver.plan.type;

import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.IntervalUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;

/** The mapping between {@link SqlType} and Arrow's storage types, both ways. */
final class ArrowTypes {
  private ArrowTypes() {}

  /** One switch on the type id, then a cast to the matching class; null when unsupported. */
  static SqlType fromArrow(ArrowType type) {
    switch (type.getTypeID()) {
      case Bool:
        return SqlType.BOOLEAN;
      case Int:
        ArrowType.Int integer = (ArrowType.Int) type;
        if (!integer.getIsSigned()) {
          return null;
        }
        switch (integer.getBitWidth()) {
          case 8:
            return SqlType.TINYINT;
          case 16:
            return SqlType.SMALLINT;
          case 32:
            return SqlType.INTEGER;
          case 64:
            return SqlType.BIGINT;
          default:
            return null;
        }
      case FloatingPoint:
        switch (((ArrowType.FloatingPoint) type).getPrecision()) {
          case SINGLE:
            return SqlType.REAL;
          case DOUBLE:
            return SqlType.DOUBLE;
          default:
            return null;
        }
      case Decimal:
        ArrowType.Decimal decimal = (ArrowType.Decimal) type;
        return decimal.getBitWidth() == 128
            ? SqlType.decimal(decimal.getPrecision(), decimal.getScale())
            : null;
      case Utf8:
        return SqlType.VARCHAR;
      case Date:
        return ((ArrowType.Date) type).getUnit() == DateUnit.DAY ? SqlType.DATE : null;
      case Timestamp:
        ArrowType.Timestamp timestamp = (ArrowType.Timestamp) type;
        return timestamp.getUnit() == TimeUnit.MICROSECOND && timestamp.getTimezone() == null
            ? SqlType.TIMESTAMP
            : null;
      case Interval:
        switch (((ArrowType.Interval) type).getUnit()) {
          case DAY_TIME:
            return SqlType.INTERVAL_DAY_TIME;
          case YEAR_MONTH:
            return SqlType.INTERVAL_YEAR_MONTH;
          default:
            return null;
        }
      default:
        return null;
    }
  }

  static ArrowType toArrow(SqlType.Kind kind, int precision, int scale) {
    switch (kind) {
      case BOOLEAN:
        return ArrowType.Bool.INSTANCE;
      case TINYINT:
        return new ArrowType.Int(8, true);
      case SMALLINT:
        return new ArrowType.Int(16, true);
      case INTEGER:
        return new ArrowType.Int(32, true);
      case BIGINT:
        return new ArrowType.Int(64, true);
      case REAL:
        return new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
      case DOUBLE:
        return new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
      case DECIMAL:
        return new ArrowType.Decimal(precision, scale, 128);
      case VARCHAR:
        return ArrowType.Utf8.INSTANCE;
      case DATE:
        return new ArrowType.Date(DateUnit.DAY);
      case TIMESTAMP:
        return new ArrowType.Timestamp(TimeUnit.MICROSECOND, null);
      case INTERVAL_DAY_TIME:
        return new ArrowType.Interval(IntervalUnit.DAY_TIME);
      case INTERVAL_YEAR_MONTH:
        return new ArrowType.Interval(IntervalUnit.YEAR_MONTH);
      default:
        throw new IllegalArgumentException("unknown kind " + kind);
    }
  }
}
