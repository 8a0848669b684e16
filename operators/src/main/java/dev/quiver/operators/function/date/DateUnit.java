package dev.quiver.operators.function.date;

import static dev.quiver.operators.expr.CivilDates.MICROS_PER_DAY;

import dev.quiver.operators.expr.CivilDates;
import dev.quiver.operators.expr.Col;
import dev.quiver.operators.function.Kernels;
import dev.quiver.plan.expr.Expr;
import java.util.Locale;

/**
 * The units that {@code date_trunc}, {@code date_part} and {@code date_diff} take as their first
 * argument (a string literal, any case, as DuckDB spells them), and the calendar arithmetic they
 * share on epoch days and microseconds.
 */
enum DateUnit {
  YEAR,
  QUARTER,
  MONTH,
  WEEK,
  DAY,
  HOUR,
  MINUTE,
  SECOND,
  MILLISECOND,
  MICROSECOND,
  DOW,
  ISODOW,
  DOY,
  EPOCH,
  ISOYEAR;

  static final long MICROS_PER_HOUR = 3_600_000_000L;
  static final long MICROS_PER_MINUTE = 60_000_000L;
  static final long MICROS_PER_SECOND = 1_000_000L;

  /** The unit a literal argument names, or null when it is not a literal or not a unit. */
  static DateUnit of(Expr arg) {
    Object value = Kernels.literalValue(arg);
    if (!(value instanceof String text)) {
      return null;
    }
    return switch (text.strip().toLowerCase(Locale.ROOT)) {
      case "year", "years", "y", "yr", "yrs" -> YEAR;
      case "quarter", "quarters" -> QUARTER;
      case "month", "months", "mon", "mons" -> MONTH;
      case "week", "weeks", "w", "weekofyear" -> WEEK;
      case "day", "days", "d", "dayofmonth" -> DAY;
      case "hour", "hours", "h", "hr", "hrs" -> HOUR;
      case "minute", "minutes", "m", "min", "mins" -> MINUTE;
      case "second", "seconds", "s", "sec", "secs" -> SECOND;
      case "millisecond", "milliseconds", "ms", "msec", "msecs" -> MILLISECOND;
      case "microsecond", "microseconds", "us", "usec", "usecs" -> MICROSECOND;
      case "dow", "dayofweek", "weekday" -> DOW;
      case "isodow" -> ISODOW;
      case "doy", "dayofyear" -> DOY;
      case "epoch" -> EPOCH;
      case "isoyear" -> ISOYEAR;
      default -> null;
    };
  }

  /** The unit's SQL spelling, for plans and messages. */
  String sqlName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The value at {@code row} in microseconds since the epoch: a DATE is its midnight. */
  static long micros(Col col, int row, boolean timestamp) {
    return timestamp ? Kernels.getLong(col, row) : Kernels.getInt(col, row) * MICROS_PER_DAY;
  }

  /** The epoch day of the value at {@code row}. */
  static long day(Col col, int row, boolean timestamp) {
    return timestamp
        ? Math.floorDiv(Kernels.getLong(col, row), MICROS_PER_DAY)
        : Kernels.getInt(col, row);
  }

  /** ISO day of the week, Monday 1 to Sunday 7 (1970-01-01 was a Thursday). */
  static int isoDayOfWeek(long epochDay) {
    return Math.floorMod(epochDay + 3, 7) + 1;
  }

  /** The ISO year of an epoch day: the year of the Thursday of its (Monday-based) week. */
  static long isoYear(long epochDay) {
    return CivilDates.year(CivilDates.civil(epochDay - isoDayOfWeek(epochDay) + 4));
  }

  /** The ISO week of an epoch day, 1 to 53: week 1 holds the year's first Thursday. */
  static int isoWeek(long epochDay) {
    long thursday = epochDay - isoDayOfWeek(epochDay) + 4;
    long year = CivilDates.year(CivilDates.civil(thursday));
    return (int) ((thursday - CivilDates.daysFromCivil(year, 1, 1)) / 7) + 1;
  }
}
