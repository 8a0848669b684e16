package dev.quiver.operators.function.date;

import static dev.quiver.operators.expr.CivilDates.MICROS_PER_DAY;

import dev.quiver.operators.expr.CivilDates;
import dev.quiver.operators.expr.Col;
import dev.quiver.operators.expr.Errors;
import dev.quiver.operators.expr.Eval;
import dev.quiver.operators.expr.EvalContext;
import dev.quiver.operators.expr.Selection;
import dev.quiver.operators.function.DeclaredFunction;
import dev.quiver.operators.function.FixedResultEval;
import dev.quiver.operators.function.Kernels;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.FunctionCall;
import dev.quiver.plan.expr.Signature;
import dev.quiver.plan.type.SqlType;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;

/**
 * {@code strptime(string, format)}: the TIMESTAMP a string spells in a {@link DateFormat} (e.g.
 * {@code strptime('17/05/2024 10:11', '%d/%m/%Y %H:%M')}); fields the format lacks are those of
 * 1900-01-01 00:00:00, as in DuckDB. Numbers may have fewer digits than their width ({@code %d}
 * reads {@code 7} and {@code 07}); {@code %y} is 1969 to 2068; {@code %f} reads up to six digits of
 * a fraction; month and day names are English, any case; week numbers ({@code %U %W %V}) and the
 * time zone ({@code %z %Z}) are not read. A string that does not match, or names a day that does
 * not exist, is an INVALID_ARGUMENT error. The format must be a literal, parsed once per call; each
 * row is read from the Arrow buffer without a String.
 */
final class Strptime extends DeclaredFunction {
  Strptime() {
    super(
        "strptime",
        List.of(),
        2,
        2,
        "strptime(string, format), the format a literal such as '%Y-%m-%d %H:%M:%S'");
  }

  @Override
  public Signature resolve(List<Expr> args) {
    if (!Kernels.isString(args.get(0).sqlType())
        || !(Kernels.literalValue(args.get(1)) instanceof String)) {
      return null;
    }
    return new Signature(SqlType.TIMESTAMP, List.of(SqlType.VARCHAR, SqlType.VARCHAR));
  }

  @Override
  public Eval kernel(FunctionCall call, Eval[] args) {
    DateFormat format = DateFormat.parse(name(), (String) Kernels.literalValue(call.arg(1)));
    for (char spec : format.specs) {
      if ("UWVzZ".indexOf(spec) >= 0) {
        throw new dev.quiver.error.QuiverException(
            dev.quiver.error.ErrorCode.INVALID_ARGUMENT,
            "strptime: cannot read %" + spec + " (format '" + format.text + "')");
      }
    }
    return new FixedResultEval(call, args) {
      @Override
      protected void compute(EvalContext ctx, Col[] values, FieldVector out, Selection rows) {
        Col s = values[0];
        ArrowBuf data = out.getDataBuffer();
        long[] fields = new long[FIELDS];
        int[] selected = rows.rows();
        for (int k = 0, n = rows.size(); k < n; k++) {
          int i = selected[k];
          int start = s.start(i);
          int end = s.end(i);
          if (!parse(format, s.data, start, end, fields)) {
            String value = text(s.data, start, end);
            throw Errors.invalidArgument(
                text, i, "'" + value + "' does not match the format '" + format.text + "'");
          }
          long year = fields[YEAR];
          long month = fields[MONTH];
          long day = fields[DAY];
          if (month < 1
              || month > 12
              || day < 1
              || day > CivilDates.daysInMonth(year, (int) month)
              || fields[HOUR] > 23
              || fields[MINUTE] > 59
              || fields[SECOND] > 59) {
            throw Errors.invalidArgument(
                text, i, "'" + text(s.data, start, end) + "' is not a valid date and time");
          }
          long epochDay =
              fields[DOY] > 0
                  ? CivilDates.daysFromCivil(year, 1, 1) + fields[DOY] - 1
                  : CivilDates.daysFromCivil(year, (int) month, (int) day);
          long seconds = fields[HOUR] * 3600 + fields[MINUTE] * 60 + fields[SECOND];
          data.setLong(
              (long) i << 3, epochDay * MICROS_PER_DAY + seconds * 1_000_000 + fields[MICROS]);
        }
      }
    };
  }

  private static final int YEAR = 0;
  private static final int MONTH = 1;
  private static final int DAY = 2;
  private static final int HOUR = 3;
  private static final int MINUTE = 4;
  private static final int SECOND = 5;
  private static final int MICROS = 6;
  private static final int DOY = 7;
  private static final int PM = 8; // -1 none, 0 AM, 1 PM
  private static final int FIELDS = 9;

  private static String text(ArrowBuf data, int start, int end) {
    byte[] bytes = new byte[end - start];
    data.getBytes(start, bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  /** Reads {@code [start, end)} into {@code fields}; false when it does not match. */
  static boolean parse(DateFormat format, ArrowBuf data, int start, int end, long[] fields) {
    fields[YEAR] = 1900;
    fields[MONTH] = 1;
    fields[DAY] = 1;
    fields[HOUR] = 0;
    fields[MINUTE] = 0;
    fields[SECOND] = 0;
    fields[MICROS] = 0;
    fields[DOY] = 0;
    fields[PM] = -1;
    int at = start;
    char[] specs = format.specs;
    for (int s = 0; s < specs.length; s++) {
      char spec = specs[s];
      if (spec == '\0') {
        byte[] literal = format.literals[s];
        if (end - at < literal.length) {
          return false;
        }
        for (byte b : literal) {
          if (data.getByte(at++) != b) {
            return false;
          }
        }
        continue;
      }
      if (spec == 'a' || spec == 'A' || spec == 'b' || spec == 'h' || spec == 'B') {
        byte[][] names = spec == 'a' || spec == 'A' ? DateFormat.DAYS : DateFormat.MONTHS;
        int matched = -1;
        int length = 0;
        for (int v = 0; v < names.length && matched < 0; v++) {
          if (spec == 'A' || spec == 'B') {
            length = names[v].length;
          } else {
            length = 3;
          }
          if (matches(data, at, end, names[v], length)) {
            matched = v;
          }
        }
        if (matched < 0) {
          return false;
        }
        at += length;
        if (names == DateFormat.MONTHS) {
          fields[MONTH] = matched + 1;
        }
        continue;
      }
      if (spec == 'p') {
        if (end - at < 2 || (data.getByte(at + 1) | 0x20) != 'm') {
          return false;
        }
        int ap = data.getByte(at) | 0x20;
        if (ap != 'a' && ap != 'p') {
          return false;
        }
        fields[PM] = ap == 'p' ? 1 : 0;
        at += 2;
        continue;
      }
      if (spec == 'c' || spec == 'x' || spec == 'X') {
        return false; // composite specifiers: not read
      }
      boolean negative = false;
      if ((spec == 'Y' || spec == 'G') && at < end && data.getByte(at) == '-') {
        negative = true;
        at++;
      }
      int maxDigits =
          switch (spec) {
            case 'Y', 'G' -> 9;
            case 'f' -> 6;
            case 'g', 'j' -> 3;
            case 'w', 'u' -> 1;
            default -> 2;
          };
      long value = 0;
      int digits = 0;
      while (digits < maxDigits && at < end) {
        int b = data.getByte(at);
        if (b < '0' || b > '9') {
          break;
        }
        value = value * 10 + (b - '0');
        digits++;
        at++;
      }
      if (digits == 0) {
        return false;
      }
      switch (spec) {
        case 'Y', 'G' -> fields[YEAR] = negative ? -value : value;
        case 'y' -> fields[YEAR] = value < 69 ? 2000 + value : 1900 + value;
        case 'm' -> fields[MONTH] = value;
        case 'd' -> fields[DAY] = value;
        case 'H', 'I' -> fields[HOUR] = value;
        case 'M' -> fields[MINUTE] = value;
        case 'S' -> fields[SECOND] = value;
        case 'f' -> {
          for (int d = digits; d < 6; d++) {
            value *= 10;
          }
          fields[MICROS] = value;
        }
        case 'g' -> {
          for (int d = digits; d < 3; d++) {
            value *= 10;
          }
          fields[MICROS] = value * 1000;
        }
        case 'j' -> {
          if (value < 1 || value > 366) {
            return false;
          }
          fields[DOY] = value;
        }
        default -> {} // %w, %u: the weekday follows from the date
      }
    }
    if (at != end) {
      return false;
    }
    if (fields[PM] >= 0) {
      if (fields[HOUR] < 1 || fields[HOUR] > 12) {
        return false;
      }
      fields[HOUR] = fields[HOUR] % 12 + (fields[PM] == 1 ? 12 : 0);
    }
    return true;
  }

  /** Whether the bytes at {@code at} are the first {@code length} of {@code name}, any case. */
  private static boolean matches(ArrowBuf data, int at, int end, byte[] name, int length) {
    if (end - at < length) {
      return false;
    }
    for (int c = 0; c < length; c++) {
      if ((data.getByte(at + c) | 0x20) != (name[c] | 0x20)) {
        return false;
      }
    }
    return true;
  }
}
