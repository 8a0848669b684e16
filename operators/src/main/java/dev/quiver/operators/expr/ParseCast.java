package dev.quiver.operators.expr;

import dev.quiver.plan.type.SqlType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;

/**
 * CAST from VARCHAR, parsing UTF-8 bytes in place after trimming ASCII whitespace and control
 * characters. Accepted forms: BOOLEAN {@code true/t/yes/y/1, false/f/no/n/0} (any case); integers
 * {@code [+-]digits}; decimals {@code [+-]digits[.digits]} with an optional exponent; floating
 * point the same or {@code NaN}/{@code Infinity}; DATE {@code yyyy-m-d}; TIMESTAMP {@code yyyy-m-d[
 * |T]hh:mm:ss[.ffffff]}. Anything else is INVALID_CAST naming the value; a number out of range is
 * NUMERIC_OVERFLOW. Slow paths (documented): floating point goes through {@link
 * Double#parseDouble}, decimals with an exponent or more than 18 digits through {@link BigDecimal}.
 */
final class ParseCast extends CastEval {
  private final Int128 x = new Int128();
  private final int[] fields = new int[7];
  // The value being parsed: its buffer, row and trimmed byte range.
  private ArrowBuf data;
  private int row;
  private int start;
  private int end;

  ParseCast(String text, Eval input, SqlType target) {
    super(text, input, target);
  }

  @Override
  void convert(EvalContext ctx, Col in, FieldVector out, Selection selection) {
    ArrowBuf o = out.getDataBuffer();
    data = in.data;
    Selection valid = Bitmaps.selectNulls(ctx, in, selection, false);
    int[] rows = valid.rows();
    int n = valid.size();
    switch (type.kind()) {
      case BOOLEAN:
        for (int k = 0; k < n; k++) {
          trim(in, rows[k]);
          if (parseBoolean()) {
            Bitmaps.set(o, rows[k]);
          }
        }
        break;
      case TINYINT:
        for (int k = 0; k < n; k++) {
          trim(in, rows[k]);
          o.setByte(rows[k], (byte) range(parseLong(), 8));
        }
        break;
      case SMALLINT:
        for (int k = 0; k < n; k++) {
          trim(in, rows[k]);
          o.setShort((long) rows[k] << 1, (short) range(parseLong(), 16));
        }
        break;
      case INTEGER:
        for (int k = 0; k < n; k++) {
          trim(in, rows[k]);
          o.setInt((long) rows[k] << 2, (int) range(parseLong(), 32));
        }
        break;
      case BIGINT:
        for (int k = 0; k < n; k++) {
          trim(in, rows[k]);
          o.setLong((long) rows[k] << 3, parseLong());
        }
        break;
      case REAL:
        for (int k = 0; k < n; k++) {
          trim(in, rows[k]);
          o.setFloat((long) rows[k] << 2, (float) parseDouble());
        }
        break;
      case DOUBLE:
        for (int k = 0; k < n; k++) {
          trim(in, rows[k]);
          o.setDouble((long) rows[k] << 3, parseDouble());
        }
        break;
      case DECIMAL:
        for (int k = 0; k < n; k++) {
          trim(in, rows[k]);
          parseDecimal();
          x.store(o, rows[k]);
        }
        break;
      case DATE:
        for (int k = 0; k < n; k++) {
          trim(in, rows[k]);
          o.setInt((long) rows[k] << 2, (int) parseDate(false));
        }
        break;
      case TIMESTAMP:
        for (int k = 0; k < n; k++) {
          trim(in, rows[k]);
          o.setLong((long) rows[k] << 3, parseDate(true));
        }
        break;
      default:
        throw new IllegalStateException("no cast from VARCHAR to " + type);
    }
  }

  /**
   * Sets {@link #row}, {@link #start} and {@link #end} to the value of {@code i} without leading
   * and trailing whitespace.
   */
  private void trim(Col in, int i) {
    row = i;
    start = in.start(i);
    end = in.end(i);
    while (start < end && (data.getByte(start) & 0xFF) <= ' ') {
      start++;
    }
    while (end > start && (data.getByte(end - 1) & 0xFF) <= ' ') {
      end--;
    }
  }

  private boolean parseBoolean() {
    int length = end - start;
    long word = 0; // up to five lower-cased ASCII letters
    for (int j = 0; j < length && length <= 5; j++) {
      word = word << 8 | (data.getByte(start + j) | 0x20) & 0xFF;
    }
    if (length <= 5) {
      if (word == word("true")
          || word == word("t")
          || word == word("yes")
          || word == word("y")
          || word == ('1' | 0x20)) {
        return true;
      }
      if (word == word("false")
          || word == word("f")
          || word == word("no")
          || word == word("n")
          || word == ('0' | 0x20)) {
        return false;
      }
    }
    throw invalid(start, end);
  }

  private static long word(String letters) {
    long word = 0;
    for (int j = 0; j < letters.length(); j++) {
      word = word << 8 | letters.charAt(j);
    }
    return word;
  }

  /** {@code [+-]digits} as a long; accumulates negatively so that Long.MIN_VALUE parses. */
  private long parseLong() {
    int at = start;
    boolean negative = at < end && data.getByte(at) == '-';
    if (at < end && (data.getByte(at) == '-' || data.getByte(at) == '+')) {
      at++;
    }
    if (at == end) {
      throw invalid(start, end);
    }
    long value = 0;
    boolean overflow = false;
    for (; at < end; at++) {
      int digit = data.getByte(at) - '0';
      if (digit < 0 || digit > 9) {
        throw invalid(start, end);
      }
      overflow |= value < Long.MIN_VALUE / 10 || value * 10 < Long.MIN_VALUE + digit;
      value = value * 10 - digit;
    }
    if (overflow || !negative && value == Long.MIN_VALUE) {
      throw Errors.overflow(text, row, "value " + string(start, end) + " does not fit " + type);
    }
    return negative ? value : -value;
  }

  private long range(long value, int bits) {
    long limit = 1L << (bits - 1);
    if (value < -limit || value >= limit) {
      throw Errors.overflow(text, row, "value " + value + " does not fit " + type);
    }
    return value;
  }

  private double parseDouble() {
    if (!Numbers.isFloat(data, start, end)) {
      throw invalid(start, end);
    }
    return Double.parseDouble(string(start, end));
  }

  /** Sets {@link #x} to the value rounded HALF_UP to the target scale. */
  private void parseDecimal() {
    int scale = type.scale();
    if (!Numbers.isDecimal(data, start, end)) {
      throw invalid(start, end);
    }
    if (!Numbers.parseUnscaled(data, start, end, scale, x)) {
      BigDecimal value = new BigDecimal(string(start, end)).setScale(scale, RoundingMode.HALF_UP);
      if (!x.set(value.unscaledValue())) {
        throw Errors.overflow(
            text, row, "value " + value.toPlainString() + " does not fit " + type);
      }
    }
    if (!x.fitsPrecision(type.precision())) {
      throw Errors.overflow(text, row, "value " + string(start, end) + " does not fit " + type);
    }
  }

  /** Epoch day (DATE) or microseconds (TIMESTAMP). */
  private long parseDate(boolean timestamp) {
    int count = Numbers.dateFields(data, start, end, timestamp, fields);
    if (count < 0) {
      throw invalid(start, end);
    }
    int year = fields[0];
    int month = fields[1];
    int day = fields[2];
    if (month < 1
        || month > 12
        || day < 1
        || day > CivilDates.daysInMonth(year, month)
        || fields[3] > 23
        || fields[4] > 59
        || fields[5] > 59) {
      throw invalid(start, end);
    }
    long epochDay = CivilDates.daysFromCivil(year, month, day);
    if (!timestamp) {
      return epochDay;
    }
    long seconds = fields[3] * 3600L + fields[4] * 60L + fields[5];
    return epochDay * CivilDates.MICROS_PER_DAY + seconds * 1_000_000L + fields[6];
  }

  private String string(int start, int end) {
    byte[] bytes = new byte[end - start];
    data.getBytes(start, bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private RuntimeException invalid(int start, int end) {
    return Errors.invalidCast(text, row, "'" + string(start, end) + "'", type);
  }
}
