package dev.quiver.operators.function.date;

import static dev.quiver.operators.expr.CivilDates.MICROS_PER_DAY;

import dev.quiver.operators.expr.CivilDates;
import dev.quiver.operators.expr.Col;
import dev.quiver.operators.expr.Eval;
import dev.quiver.operators.expr.EvalContext;
import dev.quiver.operators.expr.Selection;
import dev.quiver.operators.expr.Utf8Writer;
import dev.quiver.operators.function.DeclaredFunction;
import dev.quiver.operators.function.Kernels;
import dev.quiver.operators.function.StringResultEval;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.FunctionCall;
import dev.quiver.plan.expr.Signature;
import dev.quiver.plan.type.SqlType;
import java.util.List;
import java.util.function.BiFunction;

/**
 * {@code strftime(date or timestamp, format)}: the value as text in a {@link DateFormat} (DuckDB's
 * specifiers, e.g. {@code '%Y-%m-%d %H:%M:%S'}, {@code '%a %d %B %Y'}); {@code date_format(date or
 * timestamp, pattern)}, Flink's, the same with a Java pattern ({@code 'yyyy-MM-dd HH:mm:ss'},
 * {@link DateFormat#javaPattern}). The format must be a literal: it is parsed once per call, and
 * each row is written straight into the result. Names are English. {@code %Y} has at least four
 * digits ({@code 0044}), a sign before year 0 ({@code -44}).
 */
final class Strftime extends DeclaredFunction {
  private final BiFunction<String, String, DateFormat> parser;

  private Strftime(String name, String usage, BiFunction<String, String, DateFormat> parser) {
    super(name, List.of(), 2, 2, usage);
    this.parser = parser;
  }

  /** DuckDB's {@code strftime}. */
  static Strftime strftime() {
    return new Strftime(
        "strftime",
        "strftime(date or timestamp, format), the format a literal such as '%Y-%m-%d %H:%M:%S'",
        DateFormat::parse);
  }

  /** Flink's {@code DATE_FORMAT}. */
  static Strftime dateFormat() {
    return new Strftime(
        "date_format",
        "date_format(date or timestamp, pattern), the pattern a literal such as 'yyyy-MM-dd"
            + " HH:mm:ss'",
        DateFormat::javaPattern);
  }

  @Override
  public Signature resolve(List<Expr> args) {
    SqlType value = args.get(0).sqlType();
    if (!value.isDatetime() || !(Kernels.literalValue(args.get(1)) instanceof String)) {
      return null;
    }
    return new Signature(SqlType.VARCHAR, List.of(value, SqlType.VARCHAR));
  }

  @Override
  public Eval kernel(FunctionCall call, Eval[] args) {
    DateFormat format = parser.apply(name(), (String) Kernels.literalValue(call.arg(1)));
    boolean timestamp = args[0].type.kind() == SqlType.Kind.TIMESTAMP;
    return new StringResultEval(call, args) {
      @Override
      protected void write(EvalContext ctx, Utf8Writer writer, Col[] values, Selection rows) {
        Col x = values[0];
        byte[] digits = new byte[20];
        int[] selected = rows.rows();
        for (int k = 0, n = rows.size(); k < n; k++) {
          int i = selected[k];
          writer.begin(i);
          format(writer, format, DateUnit.micros(x, i, timestamp), digits);
          writer.commit(i);
        }
      }
    };
  }

  private static void format(Utf8Writer writer, DateFormat format, long micros, byte[] digits) {
    long day = Math.floorDiv(micros, MICROS_PER_DAY);
    long time = micros - day * MICROS_PER_DAY;
    long date = CivilDates.civil(day);
    long year = CivilDates.year(date);
    int month = CivilDates.month(date);
    int dow = DateUnit.isoDayOfWeek(day) % 7; // Sunday 0
    long doy = day - CivilDates.daysFromCivil(year, 1, 1); // from 0
    long second = time / 1_000_000;
    int hour = (int) (second / 3600);
    char[] specs = format.specs;
    for (int s = 0; s < specs.length; s++) {
      int width = format.unpadded[s] ? 1 : 2;
      switch (specs[s]) {
        case '\0' -> writer.append(format.literals[s], 0, format.literals[s].length);
        case 'a' -> writer.append(DateFormat.DAYS[dow], 0, 3);
        case 'A' -> writer.append(DateFormat.DAYS[dow], 0, DateFormat.DAYS[dow].length);
        case 'w' -> number(writer, dow, 1, digits);
        case 'u' -> number(writer, dow == 0 ? 7 : dow, 1, digits);
        case 'd' -> number(writer, CivilDates.day(date), width, digits);
        case 'b', 'h' -> writer.append(DateFormat.MONTHS[month - 1], 0, 3);
        case 'B' ->
            writer.append(DateFormat.MONTHS[month - 1], 0, DateFormat.MONTHS[month - 1].length);
        case 'm' -> number(writer, month, width, digits);
        case 'y' -> number(writer, Math.abs(year) % 100, width, digits);
        case 'Y' -> year(writer, year, digits);
        case 'G' -> year(writer, DateUnit.isoYear(day), digits);
        case 'H' -> number(writer, hour, width, digits);
        case 'I' -> number(writer, hour % 12 == 0 ? 12 : hour % 12, width, digits);
        case 'p' -> writer.append(hour < 12 ? AM : PM, 0, 2);
        case 'M' -> number(writer, second / 60 % 60, width, digits);
        case 'S' -> number(writer, second % 60, width, digits);
        case 'f' -> number(writer, time % 1_000_000, 6, digits);
        case 'g' -> number(writer, time % 1_000_000 / 1000, 3, digits);
        case 'j' -> number(writer, doy + 1, format.unpadded[s] ? 1 : 3, digits);
        case 'U' -> number(writer, (doy + 7 - dow) / 7, 2, digits);
        case 'W' -> number(writer, (doy + 7 - (dow + 6) % 7) / 7, 2, digits);
        case 'V' -> number(writer, DateUnit.isoWeek(day), 2, digits);
        case 'z' -> writer.append(UTC, 0, 3);
        case 'Z' -> {}
        case 'c' -> {
          date(writer, year, month, CivilDates.day(date), digits);
          writer.appendByte(' ');
          time(writer, second, digits);
        }
        case 'x' -> date(writer, year, month, CivilDates.day(date), digits);
        case 'X' -> time(writer, second, digits);
        default -> throw new IllegalStateException("specifier " + specs[s]);
      }
    }
  }

  private static final byte[] AM = {'A', 'M'};
  private static final byte[] PM = {'P', 'M'};
  private static final byte[] UTC = {'+', '0', '0'};

  private static void date(Utf8Writer writer, long year, int month, int day, byte[] digits) {
    year(writer, year, digits);
    writer.appendByte('-');
    number(writer, month, 2, digits);
    writer.appendByte('-');
    number(writer, day, 2, digits);
  }

  private static void time(Utf8Writer writer, long second, byte[] digits) {
    number(writer, second / 3600, 2, digits);
    writer.appendByte(':');
    number(writer, second / 60 % 60, 2, digits);
    writer.appendByte(':');
    number(writer, second % 60, 2, digits);
  }

  private static void year(Utf8Writer writer, long year, byte[] digits) {
    if (year < 0) {
      writer.appendByte('-');
      number(writer, -year, 1, digits);
    } else {
      number(writer, year, 4, digits);
    }
  }

  /** A non-negative number in decimal, left-padded with zeros to {@code width} digits. */
  static void number(Utf8Writer writer, long value, int width, byte[] digits) {
    int at = digits.length;
    do {
      digits[--at] = (byte) ('0' + value % 10);
      value /= 10;
    } while (value > 0);
    while (digits.length - at < width) {
      digits[--at] = '0';
    }
    writer.append(digits, at, digits.length - at);
  }
}
