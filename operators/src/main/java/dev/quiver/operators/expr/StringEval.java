package dev.quiver.operators.expr;

import dev.quiver.plan.expr.Call;
import dev.quiver.plan.expr.ScalarFunction;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * The string functions, on UTF-8 bytes: {@code ||}, UPPER, LOWER, CHAR_LENGTH, TRIM and SUBSTRING.
 * NULL in any argument gives NULL. Positions and lengths count characters (code points), not bytes.
 * Results are written straight into the output vector, with no String per row.
 *
 * <p>UPPER and LOWER map each code point with {@link Character#toUpperCase(int)} / {@link
 * Character#toLowerCase(int)} (ASCII without decoding): one-to-one mappings only, so e.g. 'ß' stays
 * 'ß' where {@code String.toUpperCase} gives "SS", and a final sigma is not special. SUBSTRING(s
 * FROM a FOR b) is the characters at positions {@code [a, a + b)} within {@code [1, length]}; a
 * negative length is an INVALID_ARGUMENT error.
 */
final class StringEval extends Eval {
  private final ScalarFunction function;
  private final Eval[] args;

  private StringEval(Call call, Eval[] args) {
    super(call.sqlType(), call.toString());
    this.function = call.function();
    this.args = args;
  }

  static Eval create(Call call, Eval[] args) {
    return new StringEval(call, args);
  }

  @Override
  public Col evaluate(EvalContext ctx, Selection selection) {
    Col[] values = new Col[args.length];
    boolean nullConstant = false;
    for (int j = 0; j < args.length; j++) {
      values[j] = args[j].evaluate(ctx, selection);
      nullConstant |= values[j].isNullConstant();
    }
    FieldVector out = ctx.newVector(field);
    if (function == ScalarFunction.CHAR_LENGTH) {
      if (!nullConstant) {
        Bitmaps.validityAnd(out.getValidityBuffer(), ctx.rows(), values);
        charLength(values[0], selection, out.getDataBuffer());
      }
      out.setValueCount(ctx.rows());
      return Col.of(out);
    }
    Utf8Writer writer = new Utf8Writer((VarCharVector) out);
    if (!nullConstant) {
      Selection rows = nonNull(ctx, values, selection);
      switch (function) {
        case CONCAT:
          concat(writer, values[0], values[1], rows);
          break;
        case UPPER:
        case LOWER:
          changeCase(writer, values[0], rows, function == ScalarFunction.UPPER);
          break;
        case SUBSTRING:
          substring(writer, values, rows);
          break;
        default:
          trim(writer, values, rows);
      }
    }
    writer.finish(ctx.rows());
    return Col.of(out);
  }

  /** The selected rows where no argument is NULL: the only rows a string function writes. */
  private static Selection nonNull(EvalContext ctx, Col[] values, Selection selection) {
    Selection rows = selection;
    for (Col value : values) {
      rows = Bitmaps.selectNulls(ctx, value, rows, false);
    }
    return rows;
  }

  private static void concat(Utf8Writer writer, Col s, Col t, Selection selection) {
    int[] rows = selection.rows();
    for (int k = 0, n = selection.size(); k < n; k++) {
      int i = rows[k];
      writer.begin(i);
      writer.append(s.data, s.start(i), s.end(i) - s.start(i));
      writer.append(t.data, t.start(i), t.end(i) - t.start(i));
      writer.commit(i);
    }
  }

  private static void charLength(Col s, Selection selection, ArrowBuf out) {
    int[] rows = selection.rows();
    for (int k = 0, n = selection.size(); k < n; k++) {
      int i = rows[k];
      int start = s.start(i);
      out.setInt((long) i << 2, Utf8.length(s.data, start, s.end(i) - start));
    }
  }

  private static void changeCase(Utf8Writer writer, Col s, Selection selection, boolean upper) {
    int[] rows = selection.rows();
    for (int k = 0, n = selection.size(); k < n; k++) {
      int i = rows[k];
      writer.begin(i);
      changeCase(writer, s.data, s.start(i), s.end(i), upper);
      writer.commit(i);
    }
  }

  private static void changeCase(
      Utf8Writer writer, ArrowBuf data, int start, int end, boolean upper) {
    for (int at = start; at < end; ) {
      byte b = data.getByte(at);
      if (b >= 0) { // ASCII
        writer.appendByte(
            upper ? (b >= 'a' && b <= 'z' ? b - 32 : b) : (b >= 'A' && b <= 'Z' ? b + 32 : b));
        at++;
        continue;
      }
      int width = Utf8.width(b);
      int cp = Utf8.decode(data, at, width);
      writer.appendCodePoint(upper ? Character.toUpperCase(cp) : Character.toLowerCase(cp));
      at += width;
    }
  }

  private void substring(Utf8Writer writer, Col[] values, Selection selection) {
    int[] rows = selection.rows();
    for (int k = 0, n = selection.size(); k < n; k++) {
      int i = rows[k];
      writer.begin(i);
      substring(writer, values, i, values[0].start(i), values[0].end(i));
      writer.commit(i);
    }
  }

  private void substring(Utf8Writer writer, Col[] values, int row, int start, int end) {
    long from = values[1].data.getLong((long) (row & values[1].mask) << 3);
    long until = Long.MAX_VALUE; // exclusive character position, 1-based
    if (values.length > 2) {
      long length = values[2].data.getLong((long) (row & values[2].mask) << 3);
      if (length < 0) {
        throw Errors.invalidArgument(text, row, "negative SUBSTRING length " + length);
      }
      until = from + length < from ? Long.MAX_VALUE : from + length;
    }
    long position = 1;
    int at = start;
    while (at < end && position < from) { // skip to the first character taken
      at += Utf8.width(values[0].data.getByte(at));
      position++;
    }
    int first = at;
    while (at < end && position < until) {
      at += Utf8.width(values[0].data.getByte(at));
      position++;
    }
    writer.append(values[0].data, first, Math.min(at, end) - first);
  }

  private void trim(Utf8Writer writer, Col[] values, Selection selection) {
    int[] rows = selection.rows();
    for (int k = 0, n = selection.size(); k < n; k++) {
      int i = rows[k];
      writer.begin(i);
      trim(writer, values, i, values[0].start(i), values[0].end(i));
      writer.commit(i);
    }
  }

  private void trim(Utf8Writer writer, Col[] values, int row, int start, int end) {
    ArrowBuf data = values[0].data;
    Col chars = values.length > 1 ? values[1] : null;
    if (function != ScalarFunction.TRIM_TRAILING) {
      while (start < end) {
        int width = Utf8.width(data.getByte(start));
        if (!trimmed(chars, row, Utf8.decode(data, start, width))) {
          break;
        }
        start += width;
      }
    }
    if (function != ScalarFunction.TRIM_LEADING) {
      while (end > start) {
        int lead = end - 1;
        while (lead > start && !Utf8.isLead(data.getByte(lead))) {
          lead--;
        }
        if (!trimmed(chars, row, Utf8.decode(data, lead, end - lead))) {
          break;
        }
        end = lead;
      }
    }
    writer.append(data, start, end - start);
  }

  /** Whether code point {@code cp} is one of the characters to trim (a space by default). */
  private static boolean trimmed(Col chars, int row, int cp) {
    if (chars == null) {
      return cp == ' ';
    }
    int end = chars.end(row);
    for (int at = chars.start(row); at < end; ) {
      int width = Utf8.width(chars.data.getByte(at));
      if (Utf8.decode(chars.data, at, width) == cp) {
        return true;
      }
      at += width;
    }
    return false;
  }
}
