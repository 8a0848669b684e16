package dev.quiver.operators.function.string;

import dev.quiver.operators.expr.Col;
import dev.quiver.operators.expr.Eval;
import dev.quiver.operators.expr.EvalContext;
import dev.quiver.operators.expr.Selection;
import dev.quiver.operators.expr.Utf8;
import dev.quiver.operators.function.DeclaredFunction;
import dev.quiver.operators.function.FixedResultEval;
import dev.quiver.operators.function.Kernels;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.FunctionCall;
import dev.quiver.plan.expr.Signature;
import dev.quiver.plan.type.SqlType;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;

/** {@code length(s)}: the number of characters (code points) of a string, as a BIGINT. */
final class Length extends DeclaredFunction {
  Length() {
    super("length", List.of(), 1, 1, "length(string)");
  }

  @Override
  public Signature resolve(List<Expr> args) {
    return Kernels.fromStrings(args, SqlType.BIGINT);
  }

  @Override
  public Eval kernel(FunctionCall call, Eval[] args) {
    return new FixedResultEval(call, args) {
      @Override
      protected void compute(EvalContext ctx, Col[] values, FieldVector out, Selection rows) {
        Col s = values[0];
        ArrowBuf data = out.getDataBuffer();
        int[] selected = rows.rows();
        for (int k = 0, n = rows.size(); k < n; k++) {
          int i = selected[k];
          int start = s.start(i);
          data.setLong((long) i << 3, Utf8.length(s.data, start, s.end(i) - start));
        }
      }
    };
  }
}
