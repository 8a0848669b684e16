package dev.quiver.operators.expr;

import dev.quiver.plan.type.SqlType;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * CAST to VARCHAR: {@code true}/{@code false}; integers in decimal; decimals in plain notation with
 * exactly their scale's digits ({@code 1.50}); DATE {@code yyyy-mm-dd}; TIMESTAMP {@code yyyy-mm-dd
 * hh:mm:ss} plus a fraction without trailing zeros when it has one. Digits are written straight
 * into the vector. Slow paths (documented): REAL and DOUBLE use Java's shortest round-trip text
 * ({@link Double#toString}), decimals beyond 64 bits {@link BigDecimal#toPlainString}, years
 * outside 0..9999 {@link LocalDate#toString}.
 */
final class FormatCast extends CastEval {
  private final byte[] digits = new byte[40];
  private final Int128 x = new Int128();

  FormatCast(String text, Eval input, SqlType target) {
    super(text, input, target);
  }

  @Override
  void convert(EvalContext ctx, Col in, FieldVector out, Selection selection) {
    Utf8Writer writer = new Utf8Writer((VarCharVector) out);
    Selection rows = Bitmaps.selectNulls(ctx, in, selection, false);
    int[] indices = rows.rows();
    int n = rows.size();
    ArrowBuf data = in.data;
    int m = in.mask;
    switch (input.type.kind()) {
      case BOOLEAN:
        for (int k = 0; k < n; k++) {
          int i = indices[k];
          writer.begin(i);
          ascii(writer, Bitmaps.get(data, i & m) ? "true" : "false");
          writer.commit(i);
        }
        break;
      case REAL:
        for (int k = 0; k < n; k++) {
          int i = indices[k];
          writer.begin(i);
          ascii(writer, Float.toString(data.getFloat((long) (i & m) << 2)));
          writer.commit(i);
        }
        break;
      case DOUBLE:
        for (int k = 0; k < n; k++) {
          int i = indices[k];
          writer.begin(i);
          ascii(writer, Double.toString(data.getDouble((long) (i & m) << 3)));
          writer.commit(i);
        }
        break;
      case DECIMAL:
        for (int k = 0; k < n; k++) {
          int i = indices[k];
          writer.begin(i);
          x.load(data, i & m);
          if (x.fitsLong() && x.lo != Long.MIN_VALUE) {
            integer(writer, x.lo, input.type.scale());
          } else {
            ascii(writer, new BigDecimal(x.toBigInteger(), input.type.scale()).toPlainString());
          }
          writer.commit(i);
        }
        break;
      case DATE:
        for (int k = 0; k < n; k++) {
          int i = indices[k];
          writer.begin(i);
          date(writer, data.getInt((long) (i & m) << 2));
          writer.commit(i);
        }
        break;
      case TIMESTAMP:
        for (int k = 0; k < n; k++) {
          int i = indices[k];
          writer.begin(i);
          timestamp(writer, data.getLong((long) (i & m) << 3));
          writer.commit(i);
        }
        break;
      default: // integers
        long[] values = ctx.longs(ctx.rows());
        NumericLoads.longs(in, input.type, rows, values);
        for (int k = 0; k < n; k++) {
          int i = indices[k];
          writer.begin(i);
          integer(writer, values[i], 0);
          writer.commit(i);
        }
    }
    writer.finish(ctx.rows());
  }

  /** {@code value / 10^scale} in plain notation, e.g. -5 at scale 2 is {@code -0.05}. */
  private void integer(Utf8Writer writer, long value, int scale) {
    if (value == Long.MIN_VALUE) {
      ascii(writer, Long.toString(value));
      return;
    }
    long magnitude = Math.abs(value);
    int at = digits.length;
    int written = 0;
    do {
      if (written == scale && scale > 0) {
        digits[--at] = '.';
      }
      digits[--at] = (byte) ('0' + magnitude % 10);
      magnitude /= 10;
      written++;
    } while (magnitude > 0 || written <= scale);
    if (value < 0) {
      digits[--at] = '-';
    }
    writer.append(digits, at, digits.length - at);
  }

  private void date(Utf8Writer writer, long epochDay) {
    long date = CivilDates.civil(epochDay);
    long year = CivilDates.year(date);
    if (year < 0 || year > 9999) {
      ascii(writer, LocalDate.ofEpochDay(epochDay).toString());
      return;
    }
    pad(writer, year, 4);
    writer.appendByte('-');
    pad(writer, CivilDates.month(date), 2);
    writer.appendByte('-');
    pad(writer, CivilDates.day(date), 2);
  }

  private void timestamp(Utf8Writer writer, long micros) {
    long day = Math.floorDiv(micros, CivilDates.MICROS_PER_DAY);
    long time = Math.floorMod(micros, CivilDates.MICROS_PER_DAY);
    date(writer, day);
    long seconds = time / 1_000_000;
    writer.appendByte(' ');
    pad(writer, seconds / 3600, 2);
    writer.appendByte(':');
    pad(writer, seconds / 60 % 60, 2);
    writer.appendByte(':');
    pad(writer, seconds % 60, 2);
    long fraction = time % 1_000_000;
    if (fraction != 0) {
      int length = 6;
      while (fraction % 10 == 0) {
        fraction /= 10;
        length--;
      }
      writer.appendByte('.');
      pad(writer, fraction, length);
    }
  }

  private static void pad(Utf8Writer writer, long value, int width) {
    for (long power = (long) Math.pow(10, width - 1); power > 0; power /= 10) {
      writer.appendByte((int) ('0' + value / power % 10));
    }
  }

  private static void ascii(Utf8Writer writer, String text) {
    byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
    writer.append(bytes, 0, bytes.length);
  }
}
