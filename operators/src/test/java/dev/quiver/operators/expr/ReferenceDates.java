package dev.quiver.operators.expr;

import dev.quiver.error.ErrorCode;
import dev.quiver.plan.expr.ScalarFunction;
import java.math.BigInteger;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.Period;
import java.time.temporal.ChronoUnit;

/** Reference date arithmetic with java.time (whose plusMonths clamps to the month's end). */
final class ReferenceDates {
  private ReferenceDates() {}

  static Object arithmetic(ScalarFunction f, Object a, Object b) {
    boolean add = f == ScalarFunction.ADD;
    if (a instanceof Period && b instanceof Period) {
      return Period.ofMonths(
          (int) (((Period) a).toTotalMonths() + (add ? 1 : -1) * ((Period) b).toTotalMonths()));
    }
    if (a instanceof Duration && b instanceof Duration) {
      return add ? ((Duration) a).plus((Duration) b) : ((Duration) a).minus((Duration) b);
    }
    if (a instanceof Period || a instanceof Duration || a instanceof Long) {
      return arithmetic(f, b, a); // interval + date, days + date
    }
    if (b instanceof LocalDate) {
      return ChronoUnit.DAYS.between((LocalDate) b, (LocalDate) a);
    }
    if (a instanceof LocalDate) {
      LocalDate date = (LocalDate) a;
      if (b instanceof Long) { // days; a DATE is an int of days since 1970-01-01
        BigInteger days = BigInteger.valueOf((Long) b);
        BigInteger day = BigInteger.valueOf(date.toEpochDay()).add(add ? days : days.negate());
        if (day.bitLength() > 31) {
          throw Reference.error(ErrorCode.NUMERIC_OVERFLOW, date + " +/- " + b + " is no DATE");
        }
        return LocalDate.ofEpochDay(day.longValueExact());
      }
      if (b instanceof Period) {
        long months = ((Period) b).toTotalMonths();
        return date.plusMonths(add ? months : -months);
      }
      long millis = ((Duration) b).toMillis();
      long days = Math.floorDiv(add ? millis : -millis, 86_400_000L);
      return date.plusDays(days);
    }
    LocalDateTime timestamp = (LocalDateTime) a;
    if (b instanceof Period) {
      long months = ((Period) b).toTotalMonths();
      return timestamp.plusMonths(add ? months : -months);
    }
    return add ? timestamp.plus((Duration) b) : timestamp.minus((Duration) b);
  }
}
