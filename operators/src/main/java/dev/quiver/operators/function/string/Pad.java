package dev.quiver.operators.function.string;

import dev.quiver.operators.expr.Col;
import dev.quiver.operators.expr.Errors;
import dev.quiver.operators.expr.Eval;
import dev.quiver.operators.expr.EvalContext;
import dev.quiver.operators.expr.Selection;
import dev.quiver.operators.expr.Utf8;
import dev.quiver.operators.expr.Utf8Writer;
import dev.quiver.operators.function.DeclaredFunction;
import dev.quiver.operators.function.Kernels;
import dev.quiver.operators.function.StringResultEval;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.FunctionCall;
import dev.quiver.plan.expr.Signature;
import dev.quiver.plan.type.SqlType;
import java.util.List;

/**
 * {@code lpad(s, n [, fill])} and {@code rpad(s, n [, fill])}: {@code s} filled on the left (right)
 * with {@code fill} (a space by default), repeated as needed, to {@code n} characters; a longer
 * {@code s} is cut to its first {@code n} characters; {@code n <= 0} gives ''. An empty fill where
 * padding is needed is an INVALID_ARGUMENT error, as in DuckDB.
 */
final class Pad extends DeclaredFunction {
  private final boolean left;

  Pad(boolean left) {
    super(
        left ? "lpad" : "rpad",
        List.of(),
        2,
        3,
        (left ? "lpad" : "rpad") + "(string, length [, fill])");
    this.left = left;
  }

  @Override
  public Signature resolve(List<Expr> args) {
    if (!Kernels.isString(args.get(0).sqlType()) || !args.get(1).sqlType().isInteger()) {
      return null;
    }
    if (args.size() == 3) {
      return Kernels.isString(args.get(2).sqlType())
          ? new Signature(
              SqlType.VARCHAR, List.of(SqlType.VARCHAR, SqlType.BIGINT, SqlType.VARCHAR))
          : null;
    }
    return new Signature(SqlType.VARCHAR, List.of(SqlType.VARCHAR, SqlType.BIGINT));
  }

  @Override
  public Eval kernel(FunctionCall call, Eval[] args) {
    return new StringResultEval(call, args) {
      @Override
      protected void write(EvalContext ctx, Utf8Writer writer, Col[] values, Selection rows) {
        Col s = values[0];
        Col fill = values.length > 2 ? values[2] : null;
        int[] selected = rows.rows();
        for (int k = 0, n = rows.size(); k < n; k++) {
          int i = selected[k];
          long target = Kernels.getLong(values[1], i);
          writer.begin(i);
          if (target > 0) {
            pad(writer, s, fill, i, target, text);
          }
          writer.commit(i);
        }
      }
    };
  }

  private void pad(Utf8Writer writer, Col s, Col fill, int row, long target, String text) {
    int start = s.start(row);
    int end = s.end(row);
    long length = Utf8.length(s.data, start, end - start);
    if (length >= target) {
      writer.append(s.data, start, Utf8.skip(s.data, start, end, target) - start);
      return;
    }
    if (!left) {
      writer.append(s.data, start, end - start);
    }
    long missing = target - length;
    if (fill == null) {
      for (long c = 0; c < missing; c++) {
        writer.appendByte(' ');
      }
    } else {
      int fillStart = fill.start(row);
      int fillEnd = fill.end(row);
      if (fillEnd == fillStart) {
        throw Errors.invalidArgument(text, row, "insufficient padding: the fill is empty");
      }
      for (int at = fillStart; missing > 0; missing--) {
        int width = Utf8.width(fill.data.getByte(at));
        writer.append(fill.data, at, width);
        at += width;
        if (at >= fillEnd) {
          at = fillStart;
        }
      }
    }
    if (left) {
      writer.append(s.data, start, end - start);
    }
  }
}
