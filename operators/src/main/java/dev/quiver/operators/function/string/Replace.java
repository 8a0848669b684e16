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
 * {@code replace(s, from, to)}: every occurrence of {@code from} in {@code s}, left to right and
 * not overlapping, replaced by {@code to}; an empty {@code from} leaves {@code s} as it is (DuckDB,
 * PostgreSQL).
 */
final class Replace extends StringFunction {
  Replace() {
    super("replace", List.of(), 3, 3, "replace(string, from, to)");
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
        Col from = values[1];
        Col to = values[2];
        int[] selected = rows.rows();
        for (int k = 0, n = rows.size(); k < n; k++) {
          int i = selected[k];
          int at = s.start(i);
          int end = s.end(i);
          int fromStart = from.start(i);
          int fromLength = from.end(i) - fromStart;
          writer.begin(i);
          if (fromLength > 0) {
            int toStart = to.start(i);
            int toLength = to.end(i) - toStart;
            for (int found;
                (found = Utf8.indexOf(s.data, at, end, from.data, fromStart, fromLength)) >= 0;
                at = found + fromLength) {
              writer.append(s.data, at, found - at);
              writer.append(to.data, toStart, toLength);
            }
          }
          writer.append(s.data, at, end - at);
          writer.commit(i);
        }
      }
    };
  }
}
