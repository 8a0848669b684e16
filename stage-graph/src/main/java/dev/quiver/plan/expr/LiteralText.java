package dev.quiver.plan.expr;

import dev.quiver.plan.type.SqlType;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.Period;

/** SQL literal syntax for the canonical values of {@link Literal}. */
final class LiteralText {
  private LiteralText() {}

  static String format(Object value, SqlType type) {
    if (value == null) {
      return "CAST(NULL AS " + type + ")";
    }
    switch (type.kind()) {
      case BOOLEAN:
        return (Boolean) value ? "TRUE" : "FALSE";
      case DECIMAL:
        return ((BigDecimal) value).toPlainString();
      case REAL:
        return "CAST(" + floating((Double) value) + " AS REAL)";
      case DOUBLE:
        return floating((Double) value);
      case VARCHAR:
        return quote((String) value);
      case DATE:
        return "DATE '" + value + "'";
      case TIMESTAMP:
        return "TIMESTAMP '" + timestamp((LocalDateTime) value) + "'";
      case INTERVAL_YEAR_MONTH:
        return yearMonth((int) ((Period) value).toTotalMonths());
      case INTERVAL_DAY_TIME:
        return dayTime((Duration) value);
      default:
        return value.toString();
    }
  }

  /** A single-quoted SQL string, quotes doubled. */
  static String quote(String text) {
    return "'" + text.replace("'", "''") + "'";
  }

  private static String floating(double value) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      return "CAST('" + value + "' AS DOUBLE)";
    }
    String text = Double.toString(value);
    return text.indexOf('E') >= 0 ? text : text + "E0";
  }

  /** {@code yyyy-MM-dd HH:mm:ss[.ffffff]}, trailing zeros of the fraction dropped. */
  static String timestamp(LocalDateTime value) {
    StringBuilder text = new StringBuilder(value.toLocalDate().toString());
    text.append(
        String.format(" %02d:%02d:%02d", value.getHour(), value.getMinute(), value.getSecond()));
    int micros = value.getNano() / 1000;
    if (micros != 0) {
      String fraction = String.format("%06d", micros);
      text.append('.').append(fraction.replaceAll("0+$", ""));
    }
    return text.toString();
  }

  private static String yearMonth(int months) {
    String sign = months < 0 ? "-" : "";
    int magnitude = Math.abs(months);
    if (magnitude % 12 == 0) {
      return "INTERVAL '" + sign + magnitude / 12 + "' YEAR";
    }
    if (magnitude < 12) {
      return "INTERVAL '" + sign + magnitude + "' MONTH";
    }
    return "INTERVAL '" + sign + magnitude / 12 + "-" + magnitude % 12 + "' YEAR TO MONTH";
  }

  private static String dayTime(Duration value) {
    String sign = value.isNegative() ? "-" : "";
    Duration magnitude = value.abs();
    long days = magnitude.toDays();
    Duration rest = magnitude.minusDays(days);
    if (rest.isZero()) {
      return "INTERVAL '" + sign + days + "' DAY";
    }
    long millis = rest.toMillis();
    return String.format(
        "INTERVAL '%s%d %02d:%02d:%02d.%03d' DAY TO SECOND",
        sign, days, millis / 3_600_000, millis / 60_000 % 60, millis / 1000 % 60, millis % 1000);
  }
}
