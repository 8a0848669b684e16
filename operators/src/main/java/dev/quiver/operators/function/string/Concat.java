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
 * {@code concat(a, b, ...)}: the arguments as text, one after the other; NULL arguments are skipped
 * (as in DuckDB and PostgreSQL), so the result is never NULL. Any argument that casts to VARCHAR is
 * accepted. {@code a || b} is the operator, which gives NULL for a NULL operand.
 */
final class Concat extends DeclaredFunction {
  Concat() {
    super("concat", List.of(), 1, Integer.MAX_VALUE, "concat(value, ...)");
  }

  @Override
  public Signature resolve(List<Expr> args) {
    return Kernels.allAsText(args);
  }

  @Override
  public boolean nullable(List<Expr> args) {
    return false;
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
        int[] selected = rows.rows();
        for (int k = 0, n = rows.size(); k < n; k++) {
          int i = selected[k];
          writer.begin(i);
          for (Col value : values) {
            if (!value.isNull(i)) {
              appendValue(writer, value, i);
            }
          }
          writer.commit(i);
        }
      }
    };
  }
}
