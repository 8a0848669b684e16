package dev.quiver.flink.slt;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * A column of a {@code table} directive: its name and SQL type, the Arrow field the Parquet file
 * stores it as, and how a cell of the directive's rows becomes a Java value of that type.
 *
 * <p>Only the types a file can carry into Quiver unchanged are accepted, so that a test's data is
 * exactly what it says: BOOLEAN, INTEGER, BIGINT, DOUBLE, DECIMAL(p,s), VARCHAR, DATE, TIMESTAMP
 * ({@code 2024-01-02 03:04:05.25}, microseconds).
 */
record TableColumn(String name, String sqlType, ArrowType arrowType) {
  private static final Pattern DECIMAL =
      Pattern.compile("DECIMAL\\s*\\(\\s*(\\d+)\\s*,\\s*(\\d+)\\s*\\)", Pattern.CASE_INSENSITIVE);

  TableColumn {
    requireNonNull(name, "name is null");
    requireNonNull(sqlType, "sqlType is null");
    requireNonNull(arrowType, "arrowType is null");
  }

  /** The column {@code name} of SQL type {@code type}, e.g. {@code DECIMAL(10, 2)}. */
  static TableColumn of(String name, String type) {
    String upper = type.strip().toUpperCase(Locale.ROOT);
    Matcher decimal = DECIMAL.matcher(upper);
    ArrowType arrow =
        switch (upper) {
          case "BOOLEAN" -> ArrowType.Bool.INSTANCE;
          case "INTEGER", "INT" -> new ArrowType.Int(32, true);
          case "BIGINT" -> new ArrowType.Int(64, true);
          case "DOUBLE" -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
          case "VARCHAR" -> ArrowType.Utf8.INSTANCE;
          case "DATE" -> new ArrowType.Date(DateUnit.DAY);
          case "TIMESTAMP" -> new ArrowType.Timestamp(TimeUnit.MICROSECOND, null);
          default -> {
            if (!decimal.matches()) {
              throw new IllegalArgumentException(
                  "column "
                      + name
                      + ": type "
                      + type
                      + " is not one of BOOLEAN, INTEGER, BIGINT, DOUBLE, DECIMAL(p,s), VARCHAR,"
                      + " DATE, TIMESTAMP");
            }
            yield new ArrowType.Decimal(
                Integer.parseInt(decimal.group(1)), Integer.parseInt(decimal.group(2)), 128);
          }
        };
    return new TableColumn(name, upper, arrow);
  }

  /** The nullable Arrow field of this column. */
  Field field() {
    return Field.nullable(name, arrowType);
  }

  /**
   * The Java value of a cell: an unquoted {@code NULL} is null, a quoted cell is its text (so
   * {@code 'NULL'} is a string). A decimal keeps the column's scale and must fit it exactly, so
   * that a typo cannot round the test data silently.
   */
  Object parse(String cell, boolean quoted) {
    if (!quoted && cell.equals("NULL")) {
      return null;
    }
    if (arrowType instanceof ArrowType.Bool) {
      return switch (cell.toLowerCase(Locale.ROOT)) {
        case "true" -> true;
        case "false" -> false;
        default -> throw new IllegalArgumentException("not a BOOLEAN: " + cell);
      };
    }
    if (arrowType instanceof ArrowType.Int integer) {
      return integer.getBitWidth() == 32 ? (Object) Integer.parseInt(cell) : Long.parseLong(cell);
    }
    if (arrowType instanceof ArrowType.FloatingPoint) {
      return Double.parseDouble(cell);
    }
    if (arrowType instanceof ArrowType.Decimal decimal) {
      BigDecimal value =
          new BigDecimal(cell).setScale(decimal.getScale(), RoundingMode.UNNECESSARY);
      if (value.precision() > decimal.getPrecision()) {
        throw new IllegalArgumentException(cell + " does not fit " + sqlType);
      }
      return value;
    }
    if (arrowType instanceof ArrowType.Date) {
      return LocalDate.parse(cell);
    }
    if (arrowType instanceof ArrowType.Timestamp) {
      return LocalDateTime.parse(cell.replace(' ', 'T'));
    }
    return cell;
  }
}
