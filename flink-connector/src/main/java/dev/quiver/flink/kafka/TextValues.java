package dev.quiver.flink.kafka;

import java.time.DateTimeException;
import java.time.LocalDate;

/**
 * Parses the text forms of numbers, dates and timestamps straight from characters, without
 * substrings: {@code [+-]digits}; dates {@code YYYY-MM-DD}; timestamps {@code YYYY-MM-DD[T
 * ]HH:MM[:SS[.fraction]]} with an optional {@code Z} or {@code +HH:MM} / {@code -HH:MM} offset (a
 * value without one is UTC), or all digits for milliseconds since the epoch.
 */
final class TextValues {
  private TextValues() {}

  /** {@code s[from, to)} as a long; throws {@link BadValue} for {@code column} otherwise. */
  static long parseLong(CharSequence s, int from, int to, int column, String type) throws BadValue {
    int i = from;
    boolean negative = false;
    if (i < to && (s.charAt(i) == '-' || s.charAt(i) == '+')) {
      negative = s.charAt(i) == '-';
      i++;
    }
    if (i == to) {
      throw notA(s, from, to, column, type);
    }
    long value = 0; // accumulated negatively: Long.MIN_VALUE has no positive counterpart
    for (; i < to; i++) {
      int digit = s.charAt(i) - '0';
      if (digit < 0 || digit > 9) {
        throw notA(s, from, to, column, type);
      }
      if (value < Long.MIN_VALUE / 10
          || (value == Long.MIN_VALUE / 10 && digit > -(Long.MIN_VALUE % 10))) {
        throw new BadValue(column, quote(s, from, to) + " is out of range for " + type);
      }
      value = value * 10 - digit;
    }
    if (!negative) {
      if (value == Long.MIN_VALUE) {
        throw new BadValue(column, quote(s, from, to) + " is out of range for " + type);
      }
      return -value;
    }
    return value;
  }

  /** {@code YYYY-MM-DD} as days since 1970-01-01. */
  static int parseDate(CharSequence s, int from, int to, int column) throws BadValue {
    if (to - from != 10 || s.charAt(from + 4) != '-' || s.charAt(from + 7) != '-') {
      throw notA(s, from, to, column, "DATE (YYYY-MM-DD)");
    }
    return (int) epochDay(s, from, to, column);
  }

  /** A timestamp (see the class comment) as microseconds since the epoch, UTC. */
  static long parseTimestampMicros(CharSequence s, int from, int to, int column) throws BadValue {
    String type = "TIMESTAMP (YYYY-MM-DD HH:MM:SS[.ffffff])";
    if (to - from < 16 || s.charAt(from + 4) != '-') {
      if (allDigits(s, from, to)) {
        long millis = parseLong(s, from, to, column, "TIMESTAMP");
        return millisToMicros(millis, column);
      }
      throw notA(s, from, to, column, type);
    }
    long day = epochDay(s, from, from + 10, column);
    char separator = s.charAt(from + 10);
    if ((separator != ' ' && separator != 'T') || s.charAt(from + 13) != ':') {
      throw notA(s, from, to, column, type);
    }
    int i = from + 11;
    long hour = digits(s, i, 2, from, to, column, type);
    long minute = digits(s, i + 3, 2, from, to, column, type);
    i += 5;
    long second = 0;
    long micros = 0;
    if (i < to && s.charAt(i) == ':') {
      second = digits(s, i + 1, 2, from, to, column, type);
      i += 3;
      if (i < to && s.charAt(i) == '.') {
        i++;
        int start = i;
        long scale = 100_000;
        while (i < to && Character.isDigit(s.charAt(i))) {
          micros += (s.charAt(i) - '0') * scale; // digits beyond microseconds are truncated
          scale /= 10;
          i++;
        }
        if (i == start) {
          throw notA(s, from, to, column, type);
        }
      }
    }
    long offsetSeconds = 0;
    if (i < to) {
      char zone = s.charAt(i);
      if (zone == 'Z' && i + 1 == to) {
        i++;
      } else if ((zone == '+' || zone == '-') && i + 6 == to && s.charAt(i + 3) == ':') {
        long h = digits(s, i + 1, 2, from, to, column, type);
        long m = digits(s, i + 4, 2, from, to, column, type);
        offsetSeconds = (zone == '-' ? -1 : 1) * (h * 3600 + m * 60);
        i = to;
      } else {
        throw notA(s, from, to, column, type);
      }
    }
    if (hour > 23 || minute > 59 || second > 59) {
      throw notA(s, from, to, column, type);
    }
    long seconds = day * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds;
    return seconds * 1_000_000 + micros;
  }

  /** Milliseconds to microseconds; {@link BadValue} if that overflows. */
  static long millisToMicros(long millis, int column) throws BadValue {
    if (millis > Long.MAX_VALUE / 1000 || millis < Long.MIN_VALUE / 1000) {
      throw new BadValue(column, millis + " milliseconds is out of range for TIMESTAMP");
    }
    return millis * 1000;
  }

  private static long epochDay(CharSequence s, int from, int to, int column) throws BadValue {
    String type = "DATE (YYYY-MM-DD)";
    int year = (int) digits(s, from, 4, from, to, column, type);
    int month = (int) digits(s, from + 5, 2, from, to, column, type);
    int day = (int) digits(s, from + 8, 2, from, to, column, type);
    try {
      return LocalDate.of(year, month, day).toEpochDay();
    } catch (DateTimeException e) {
      throw new BadValue(column, quote(s, from, to) + " is not a valid date: " + e.getMessage());
    }
  }

  private static long digits(
      CharSequence s, int at, int count, int from, int to, int column, String type)
      throws BadValue {
    if (at + count > to) {
      throw notA(s, from, to, column, type);
    }
    long value = 0;
    for (int i = at; i < at + count; i++) {
      int digit = s.charAt(i) - '0';
      if (digit < 0 || digit > 9) {
        throw notA(s, from, to, column, type);
      }
      value = value * 10 + digit;
    }
    return value;
  }

  private static boolean allDigits(CharSequence s, int from, int to) {
    int i = from < to && s.charAt(from) == '-' ? from + 1 : from;
    if (i == to) {
      return false;
    }
    for (; i < to; i++) {
      if (!Character.isDigit(s.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  static BadValue notA(CharSequence s, int from, int to, int column, String type) {
    return new BadValue(column, "cannot read " + quote(s, from, to) + " as " + type);
  }

  /** The text in double quotes, cut after 64 characters. */
  static String quote(CharSequence s, int from, int to) {
    int end = Math.min(to, from + 64);
    return "\"" + s.subSequence(from, end) + (end < to ? "...\"" : "\"");
  }
}
