package dev.quiver.operators.expr;

import org.apache.arrow.memory.ArrowBuf;

/** Scanners for number and date text in UTF-8 buffers (no String, no allocation). */
final class Numbers {
  private Numbers() {}

  private static boolean isDigit(int b) {
    return b >= '0' && b <= '9';
  }

  /** Whether {@code [start, end)} matches {@code [+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?}. */
  static boolean isDecimal(ArrowBuf data, int start, int end) {
    int at = start;
    if (at < end && (data.getByte(at) == '+' || data.getByte(at) == '-')) {
      at++;
    }
    int digits = 0;
    while (at < end && isDigit(data.getByte(at))) {
      at++;
      digits++;
    }
    if (at < end && data.getByte(at) == '.') {
      at++;
      while (at < end && isDigit(data.getByte(at))) {
        at++;
        digits++;
      }
    }
    if (digits == 0) {
      return false;
    }
    if (at < end && (data.getByte(at) | 0x20) == 'e') {
      at++;
      if (at < end && (data.getByte(at) == '+' || data.getByte(at) == '-')) {
        at++;
      }
      int exponent = at;
      while (at < end && isDigit(data.getByte(at))) {
        at++;
      }
      if (at == exponent) {
        return false;
      }
    }
    return at == end;
  }

  /** {@link #isDecimal} or {@code [+-]?(NaN|Infinity)}. */
  static boolean isFloat(ArrowBuf data, int start, int end) {
    if (isDecimal(data, start, end)) {
      return true;
    }
    int at =
        start < end && (data.getByte(start) == '+' || data.getByte(start) == '-')
            ? start + 1
            : start;
    return matches(data, at, end, "NaN") || matches(data, at, end, "Infinity");
  }

  private static boolean matches(ArrowBuf data, int start, int end, String word) {
    if (end - start != word.length()) {
      return false;
    }
    for (int j = 0; j < word.length(); j++) {
      if (data.getByte(start + j) != word.charAt(j)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Sets {@code x} to the unscaled value at {@code scale} of a decimal without exponent (checked by
   * {@link #isDecimal}), rounding HALF_UP. Returns false (caller takes the BigDecimal path) for an
   * exponent, more than 18 significant digits or a 128-bit overflow.
   */
  static boolean parseUnscaled(ArrowBuf data, int start, int end, int scale, Int128 x) {
    int at = start;
    boolean negative = data.getByte(at) == '-';
    if (data.getByte(at) == '-' || data.getByte(at) == '+') {
      at++;
    }
    long value = 0;
    int significant = 0;
    int fraction = 0;
    boolean dot = false;
    int dropped = -1; // the first digit beyond the scale decides the rounding
    for (; at < end; at++) {
      byte b = data.getByte(at);
      if (b == '.') {
        dot = true;
        continue;
      }
      if (!isDigit(b)) {
        return false; // an exponent
      }
      int digit = b - '0';
      if (dot && fraction == scale) {
        dropped = dropped < 0 ? digit : dropped;
        continue;
      }
      value = value * 10 + digit;
      fraction += dot ? 1 : 0;
      significant += value == 0 ? 0 : 1;
      if (significant > 18) {
        return false;
      }
    }
    x.setLong(dropped >= 5 ? value + 1 : value);
    if (!x.scaleUp(scale - fraction)) {
      return false;
    }
    return !negative || x.negate();
  }

  /**
   * Parses {@code yyyy-m-d} and, for timestamps, an optional {@code [ T]h:mm:ss[.ffffff]} into
   * {@code fields} (year, month, day, hour, minute, second, microseconds). Returns -1 when the text
   * does not have that form (ranges are the caller's to check), else 0.
   */
  static int dateFields(ArrowBuf data, int start, int end, boolean timestamp, int[] fields) {
    java.util.Arrays.fill(fields, 0);
    int at = number(data, start, end, 4, 4, fields, 0);
    at = separated(data, at, end, '-', 1, 2, fields, 1);
    at = separated(data, at, end, '-', 1, 2, fields, 2);
    if (at == end || at < 0) {
      return at < 0 ? -1 : 0;
    }
    if (!timestamp || data.getByte(at) != ' ' && data.getByte(at) != 'T') {
      return -1;
    }
    at = number(data, at + 1, end, 1, 2, fields, 3);
    at = separated(data, at, end, ':', 2, 2, fields, 4);
    at = separated(data, at, end, ':', 2, 2, fields, 5);
    if (at >= 0 && at < end) {
      int from = at + 1;
      at = separated(data, at, end, '.', 1, 6, fields, 6);
      for (int digits = at - from; at >= 0 && digits < 6; digits++) {
        fields[6] *= 10;
      }
    }
    return at == end ? 0 : -1;
  }

  private static int separated(
      ArrowBuf data, int at, int end, char separator, int min, int max, int[] fields, int field) {
    if (at < 0 || at >= end || data.getByte(at) != separator) {
      return -1;
    }
    return number(data, at + 1, end, min, max, fields, field);
  }

  /** Reads {@code min..max} digits into {@code fields[field]}; the next position or -1. */
  private static int number(
      ArrowBuf data, int at, int end, int min, int max, int[] fields, int field) {
    if (at < 0) {
      return -1;
    }
    int value = 0;
    int digits = 0;
    while (at < end && digits < max && isDigit(data.getByte(at))) {
      value = value * 10 + data.getByte(at++) - '0';
      digits++;
    }
    if (digits < min || at < end && isDigit(data.getByte(at))) {
      return -1;
    }
    fields[field] = value;
    return at;
  }
}
