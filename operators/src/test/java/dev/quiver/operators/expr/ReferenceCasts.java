package dev.quiver.operators.expr;

import static dev.quiver.operators.expr.Reference.error;

import dev.quiver.error.ErrorCode;
import dev.quiver.plan.type.SqlType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reference CAST semantics with BigDecimal, BigInteger, String and java.time. */
final class ReferenceCasts {
  private static final Pattern INTEGER = Pattern.compile("[+-]?\\d+");
  private static final Pattern FLOAT =
      Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?|[+-]?(NaN|Infinity)");
  private static final Pattern DATE = Pattern.compile("(\\d{4})-(\\d{1,2})-(\\d{1,2})");
  private static final Pattern TIMESTAMP =
      Pattern.compile(
          "(\\d{4})-(\\d{1,2})-(\\d{1,2})([ T](\\d{1,2}):(\\d{2}):(\\d{2})(\\.(\\d{1,6}))?)?");

  private ReferenceCasts() {}

  static Object cast(Object value, SqlType from, SqlType to) {
    if (value == null || from.equals(to)) {
      return value;
    }
    String text = "CAST";
    switch (to.kind()) {
      case BOOLEAN:
        if (value instanceof String) {
          String s = ((String) value).trim().toLowerCase(Locale.ROOT);
          if (s.matches("true|t|yes|y|1")) {
            return true;
          }
          if (s.matches("false|f|no|n|0")) {
            return false;
          }
          throw invalid(value, to);
        }
        return Reference.decimal(
                    value instanceof Double ? BigDecimal.valueOf((Double) value) : value)
                .signum()
            != 0;
      case TINYINT:
      case SMALLINT:
      case INTEGER:
      case BIGINT:
        return fitInteger(integer(value, to), to, text);
      case REAL:
      case DOUBLE:
        double d;
        if (value instanceof String) {
          String s = ((String) value).trim();
          if (!FLOAT.matcher(s).matches()) {
            throw invalid(value, to);
          }
          d = Double.parseDouble(s);
        } else if (value instanceof Boolean) {
          d = (Boolean) value ? 1 : 0;
        } else {
          d =
              value instanceof BigDecimal
                  ? ((BigDecimal) value).doubleValue()
                  : ((Number) value).doubleValue();
        }
        return to.kind() == SqlType.Kind.REAL ? (double) (float) d : d;
      case DECIMAL:
        return fitDecimal(exact(value, to).setScale(to.scale(), RoundingMode.HALF_UP), to, text);
      case VARCHAR:
        return format(value, from);
      case DATE:
        if (value instanceof LocalDateTime) {
          return ((LocalDateTime) value).toLocalDate();
        }
        Matcher date = DATE.matcher(((String) value).trim());
        if (!date.matches()) {
          throw invalid(value, to);
        }
        try {
          return LocalDate.of(
              Integer.parseInt(date.group(1)),
              Integer.parseInt(date.group(2)),
              Integer.parseInt(date.group(3)));
        } catch (java.time.DateTimeException e) {
          throw invalid(value, to);
        }
      case TIMESTAMP:
        if (value instanceof LocalDate) {
          return ((LocalDate) value).atStartOfDay();
        }
        return timestamp((String) value, to);
      default:
        throw new IllegalArgumentException("no reference cast to " + to);
    }
  }

  private static BigInteger integer(Object value, SqlType to) {
    if (value instanceof Boolean) {
      return (Boolean) value ? BigInteger.ONE : BigInteger.ZERO;
    }
    if (value instanceof Long) {
      return BigInteger.valueOf((Long) value);
    }
    if (value instanceof Double) {
      double d = (Double) value;
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        throw error(ErrorCode.NUMERIC_OVERFLOW, d + " does not fit " + to);
      }
      return new BigDecimal(d).setScale(0, RoundingMode.HALF_UP).toBigIntegerExact();
    }
    if (value instanceof BigDecimal) {
      return ((BigDecimal) value).setScale(0, RoundingMode.HALF_UP).toBigIntegerExact();
    }
    String s = ((String) value).trim();
    if (!INTEGER.matcher(s).matches()) {
      throw invalid(value, to);
    }
    return new BigInteger(s);
  }

  private static BigDecimal exact(Object value, SqlType to) {
    if (value instanceof Boolean) {
      return (Boolean) value ? BigDecimal.ONE : BigDecimal.ZERO;
    }
    if (value instanceof Double) {
      double d = (Double) value;
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        throw error(ErrorCode.NUMERIC_OVERFLOW, d + " does not fit " + to);
      }
      return BigDecimal.valueOf(d);
    }
    if (value instanceof String) {
      try {
        return new BigDecimal(((String) value).trim());
      } catch (NumberFormatException e) {
        throw invalid(value, to);
      }
    }
    return Reference.decimal(value);
  }

  private static String format(Object value, SqlType from) {
    if (value instanceof Double) {
      return from.kind() == SqlType.Kind.REAL
          ? Float.toString((float) (double) (Double) value)
          : Double.toString((Double) value);
    }
    if (value instanceof BigDecimal) {
      return ((BigDecimal) value).toPlainString();
    }
    if (value instanceof LocalDateTime) {
      LocalDateTime t = (LocalDateTime) value;
      String text =
          String.format(
              "%s %02d:%02d:%02d", t.toLocalDate(), t.getHour(), t.getMinute(), t.getSecond());
      int micros = t.getNano() / 1000;
      return micros == 0 ? text : text + "." + String.format("%06d", micros).replaceAll("0+$", "");
    }
    return value.toString(); // Boolean, Long, LocalDate
  }

  private static LocalDateTime timestamp(String value, SqlType to) {
    Matcher m = TIMESTAMP.matcher(value.trim());
    if (!m.matches()) {
      throw invalid(value, to);
    }
    try {
      LocalDate date =
          LocalDate.of(
              Integer.parseInt(m.group(1)),
              Integer.parseInt(m.group(2)),
              Integer.parseInt(m.group(3)));
      if (m.group(4) == null) {
        return date.atStartOfDay();
      }
      String fraction = m.group(9) == null ? "" : m.group(9);
      int micros = fraction.isEmpty() ? 0 : Integer.parseInt((fraction + "00000").substring(0, 6));
      return date.atTime(
          Integer.parseInt(m.group(5)),
          Integer.parseInt(m.group(6)),
          Integer.parseInt(m.group(7)),
          micros * 1000);
    } catch (java.time.DateTimeException e) {
      throw invalid(value, to);
    }
  }

  static Object fitInteger(BigInteger value, SqlType type, String text) {
    int bits =
        type.kind() == SqlType.Kind.TINYINT
            ? 8
            : type.kind() == SqlType.Kind.SMALLINT
                ? 16
                : type.kind() == SqlType.Kind.INTEGER ? 32 : 64;
    if (value.bitLength() > bits - 1) {
      throw error(ErrorCode.NUMERIC_OVERFLOW, value + " does not fit " + type + " in " + text);
    }
    return value.longValue();
  }

  static BigDecimal fitDecimal(BigDecimal value, SqlType type, String text) {
    if (value.unscaledValue().abs().compareTo(BigInteger.TEN.pow(type.precision())) >= 0) {
      throw error(ErrorCode.NUMERIC_OVERFLOW, value + " does not fit " + type + " in " + text);
    }
    return value;
  }

  private static RuntimeException invalid(Object value, SqlType to) {
    return error(ErrorCode.INVALID_CAST, "cannot cast '" + value + "' to " + to);
  }
}
