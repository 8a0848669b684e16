package dev.quiver.operators.function.string;

import dev.quiver.operators.expr.Col;
import dev.quiver.operators.expr.Eval;
import dev.quiver.operators.expr.EvalContext;
import dev.quiver.operators.expr.Selection;
import dev.quiver.operators.expr.Utf8;
import dev.quiver.operators.function.FixedResultEval;
import dev.quiver.operators.function.Kernels;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.FunctionCall;
import dev.quiver.plan.expr.Signature;
import dev.quiver.plan.type.SqlType;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;

/**
 * {@code strpos(s, sub)} (alias {@code instr}): the 1-based character position of the first
 * occurrence of {@code sub} in {@code s}, 0 when there is none, 1 for an empty {@code sub}; a
 * BIGINT, as in DuckDB. SQL's {@code POSITION(sub IN s)} is this function with the arguments
 * swapped (the SQL front end translates it).
 */
final class Strpos extends StringFunction {
  Strpos() {
    super("strpos", List.of("instr"), 2, 2, "strpos(string, substring)");
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
        Col sub = values[1];
        ArrowBuf data = out.getDataBuffer();
        int[] selected = rows.rows();
        for (int k = 0, n = rows.size(); k < n; k++) {
          int i = selected[k];
          int start = s.start(i);
          int subStart = sub.start(i);
          int found =
              Utf8.indexOf(s.data, start, s.end(i), sub.data, subStart, sub.end(i) - subStart);
          data.setLong(
              (long) i << 3, found < 0 ? 0 : Utf8.length(s.data, start, found - start) + 1);
        }
      }
    };
  }
}
