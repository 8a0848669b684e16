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

/**
 * {@code left(s, n)} and {@code right(s, n)}: the first (last) {@code n} characters of {@code s}; a
 * negative {@code n} gives all but the last (first) {@code -n} characters, as in DuckDB and
 * PostgreSQL.
 */
final class LeftRight extends StringFunction {
  private final boolean left;

  LeftRight(boolean left) {
    super(
        left ? "left" : "right",
        List.of(),
        2,
        2,
        (left ? "left" : "right") + "(string, characters)");
    this.left = left;
  }

  @Override
  public Signature resolve(List<Expr> args) {
    return isString(args, 0) && isInteger(args, 1)
        ? new Signature(SqlType.VARCHAR, List.of(SqlType.VARCHAR, SqlType.BIGINT))
        : null;
  }

  @Override
  public Eval kernel(FunctionCall call, Eval[] args) {
    return new StringResultEval(call, args) {
      @Override
      protected void write(EvalContext ctx, Utf8Writer writer, Col[] values, Selection rows) {
        Col s = values[0];
        int[] selected = rows.rows();
        for (int k = 0, n = rows.size(); k < n; k++) {
          int i = selected[k];
          long chars = Kernels.getLong(values[1], i);
          int start = s.start(i);
          int end = s.end(i);
          writer.begin(i);
          long count = chars == Long.MIN_VALUE ? Long.MAX_VALUE : Math.abs(chars);
          // left(s, n >= 0) and right(s, n < 0) cut after |n| characters from the start;
          // right(s, n >= 0) and left(s, n < 0) before the last |n|
          int cut =
              chars >= 0 == left
                  ? Utf8.skip(s.data, start, end, count)
                  : Utf8.skipBack(s.data, start, end, count);
          if (left) {
            writer.append(s.data, start, cut - start);
          } else {
            writer.append(s.data, cut, end - cut);
          }
          writer.commit(i);
        }
      }
    };
  }
}
