package dev.quiver.operators.function.string;

import dev.quiver.operators.expr.Col;
import dev.quiver.operators.expr.Eval;
import dev.quiver.operators.expr.EvalContext;
import dev.quiver.operators.expr.Selection;
import dev.quiver.operators.expr.Utf8;
import dev.quiver.operators.expr.Utf8Writer;
import dev.quiver.operators.function.Kernels;
import dev.quiver.operators.function.StringResultEval;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.FunctionCall;
import dev.quiver.plan.expr.Signature;
import dev.quiver.plan.type.SqlType;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;

/**
 * {@code split_part(s, delimiter, index)}, as in DuckDB: {@code s} split at every (non-overlapping)
 * occurrence of the delimiter, and the part at the 1-based {@code index}; a negative index counts
 * from the last part (-1). An empty delimiter splits {@code s} into its characters. Index 0 and an
 * index past the parts give ''.
 */
final class SplitPart extends StringFunction {
  SplitPart() {
    super("split_part", List.of(), 3, 3, "split_part(string, delimiter, index)");
  }

  @Override
  public Signature resolve(List<Expr> args) {
    return isString(args, 0) && isString(args, 1) && isInteger(args, 2)
        ? new Signature(SqlType.VARCHAR, List.of(SqlType.VARCHAR, SqlType.VARCHAR, SqlType.BIGINT))
        : null;
  }

  @Override
  public Eval kernel(FunctionCall call, Eval[] args) {
    return new StringResultEval(call, args) {
      @Override
      protected void write(EvalContext ctx, Utf8Writer writer, Col[] values, Selection rows) {
        Col s = values[0];
        Col delimiter = values[1];
        int[] selected = rows.rows();
        for (int k = 0, n = rows.size(); k < n; k++) {
          int i = selected[k];
          long index = Kernels.getLong(values[2], i);
          int start = s.start(i);
          int end = s.end(i);
          int dStart = delimiter.start(i);
          int dLength = delimiter.end(i) - dStart;
          writer.begin(i);
          if (dLength == 0) {
            character(writer, s.data, start, end, index);
          } else if (index != 0) {
            part(writer, s.data, start, end, delimiter.data, dStart, dLength, index);
          }
          writer.commit(i);
        }
      }
    };
  }

  /** The character at {@code index} (negative: from the end), if there is one. */
  private static void character(Utf8Writer writer, ArrowBuf data, int start, int end, long index) {
    int at;
    if (index > 0) {
      at = Utf8.skip(data, start, end, index - 1);
    } else if (index < 0) {
      if (index < -Utf8.length(data, start, end - start)) {
        return;
      }
      at = Utf8.skipBack(data, start, end, -index);
    } else {
      return;
    }
    if (at < end) {
      writer.append(data, at, Utf8.width(data.getByte(at)));
    }
  }

  private static void part(
      Utf8Writer writer,
      ArrowBuf data,
      int start,
      int end,
      ArrowBuf delimiter,
      int dStart,
      int dLength,
      long index) {
    if (index < 0) {
      long parts = 1;
      for (int at = start, found;
          (found = Utf8.indexOf(data, at, end, delimiter, dStart, dLength)) >= 0;
          at = found + dLength) {
        parts++;
      }
      if (index < -parts) {
        return;
      }
      index = parts + index + 1;
    }
    int at = start;
    for (long part = 1; part < index; part++) {
      int found = Utf8.indexOf(data, at, end, delimiter, dStart, dLength);
      if (found < 0) {
        return;
      }
      at = found + dLength;
    }
    int found = Utf8.indexOf(data, at, end, delimiter, dStart, dLength);
    int partEnd = found < 0 ? end : found;
    writer.append(data, at, partEnd - at);
  }
}
