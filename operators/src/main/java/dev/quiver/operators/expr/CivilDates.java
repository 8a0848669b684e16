package dev.quiver.operators.expr;

/**
 * Proleptic Gregorian calendar arithmetic on epoch days without objects (H. Hinnant's
 * days-from-civil algorithms): the kernels of EXTRACT, date ± interval, date casts and the date
 * library functions ({@code dev.quiver.operators.function.date}).
 */
public final class CivilDates {
  public static final long MICROS_PER_DAY = 86_400_000_000L;
  public static final long MILLIS_PER_DAY = 86_400_000L;

  private CivilDates() {}

  /** The epoch day of {@code year-month-day}. */
  public static long daysFromCivil(long year, int month, int day) {
    long y = month <= 2 ? year - 1 : year;
    long era = Math.floorDiv(y, 400);
    long yearOfEra = y - era * 400;
    long dayOfYear = (153L * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
    long dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
    return era * 146_097 + dayOfEra - 719_468;
  }

  /** The date of an epoch day, packed as {@code year << 9 | month << 5 | day}. */
  public static long civil(long epochDay) {
    long z = epochDay + 719_468;
    long era = Math.floorDiv(z, 146_097);
    long dayOfEra = z - era * 146_097;
    long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
    long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
    long mp = (5 * dayOfYear + 2) / 153;
    long day = dayOfYear - (153 * mp + 2) / 5 + 1;
    long month = mp < 10 ? mp + 3 : mp - 9;
    long year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
    return year << 9 | month << 5 | day;
  }

  public static long year(long packed) {
    return packed >> 9;
  }

  public static int month(long packed) {
    return (int) (packed >>> 5) & 15;
  }

  public static int day(long packed) {
    return (int) packed & 31;
  }

  public static boolean isLeapYear(long year) {
    return (year & 3) == 0 && (year % 100 != 0 || year % 400 == 0);
  }

  public static int daysInMonth(long year, int month) {
    return month == 2 ? (isLeapYear(year) ? 29 : 28) : 30 + ((month + (month >> 3)) & 1);
  }

  /** {@code epochDay} plus {@code months}, the day clamped to the end of the target month. */
  static long addMonths(long epochDay, long months) {
    long date = civil(epochDay);
    long total = year(date) * 12 + month(date) - 1 + months;
    long year = Math.floorDiv(total, 12);
    int month = Math.floorMod(total, 12) + 1;
    return daysFromCivil(year, month, Math.min(day(date), daysInMonth(year, month)));
  }
}
