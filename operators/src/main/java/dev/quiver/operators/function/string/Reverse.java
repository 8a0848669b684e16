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
 * {@code reverse(s)}: the characters (code points) of {@code s} in reverse order. DuckDB reverses
 * grapheme clusters, so a base letter followed by a combining mark (e.g. 'e' + U+0301) stays in
 * that order there and is swapped here; precomposed characters are the same in both.
 */
final class Reverse extends StringFunction {
  Reverse() {
    super("reverse", List.of(), 1, 1, "reverse(string)");
  }

  @Override
  public Signature resolve(List<Expr> args) {
    return Kernels.fromStrings(args, SqlType.VARCHAR);
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
          int start = s.start(i);
          writer.begin(i);
          for (int end = s.end(i); end > start; ) {
            int at = Utf8.skipBack(s.data, start, end, 1);
            writer.append(s.data, at, end - at);
            end = at;
          }
          writer.commit(i);
        }
      }
    };
  }
}
