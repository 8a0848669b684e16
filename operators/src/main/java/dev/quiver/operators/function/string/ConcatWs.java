package dev.quiver.operators.function.string;

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
import java.util.List;

/**
 * {@code concat_ws(separator, a, b, ...)}: the non-NULL arguments as text with the separator
 * between them; NULL when the separator is NULL (DuckDB, PostgreSQL).
 */
final class ConcatWs extends DeclaredFunction {
  ConcatWs() {
    super("concat_ws", List.of(), 2, Integer.MAX_VALUE, "concat_ws(separator, value, ...)");
  }

  @Override
  public Signature resolve(List<Expr> args) {
    return Kernels.allAsText(args);
  }

  @Override
  public boolean nullable(List<Expr> args) {
    return args.get(0).nullable();
  }

  @Override
  public boolean propagatesNull() {
    return false;
  }

  @Override
  public Eval kernel(FunctionCall call, Eval[] args) {
    return new StringResultEval(call, args, false) {
      @Override
      protected void write(EvalContext ctx, Utf8Writer writer, Col[] values, Selection rows) {
        Col separator = values[0];
        int[] selected = rows.rows();
        for (int k = 0, n = rows.size(); k < n; k++) {
          int i = selected[k];
          if (separator.isNull(i)) {
            continue; // not committed: NULL
          }
          writer.begin(i);
          boolean first = true;
          for (int j = 1; j < values.length; j++) {
            if (values[j].isNull(i)) {
              continue;
            }
            if (!first) {
              appendValue(writer, separator, i);
            }
            appendValue(writer, values[j], i);
            first = false;
          }
          writer.commit(i);
        }
      }
    };
  }
}
