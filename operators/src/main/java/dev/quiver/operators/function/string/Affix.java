package dev.quiver.operators.function.string;

import dev.quiver.operators.expr.Bitmaps;
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
 * {@code starts_with(s, prefix)} (alias {@code prefix}) and {@code ends_with(s, suffix)} (alias
 * {@code suffix}), as in DuckDB: whether {@code s} begins (ends) with the other string; always true
 * for ''.
 */
final class Affix extends StringFunction {
  private final boolean start;

  Affix(boolean start) {
    super(
        start ? "starts_with" : "ends_with",
        List.of(start ? "prefix" : "suffix"),
        2,
        2,
        start ? "starts_with(string, prefix)" : "ends_with(string, suffix)");
    this.start = start;
  }

  @Override
  public Signature resolve(List<Expr> args) {
    return Kernels.fromStrings(args, SqlType.BOOLEAN);
  }

  @Override
  public Eval kernel(FunctionCall call, Eval[] args) {
    return new FixedResultEval(call, args) {
      @Override
      protected void compute(EvalContext ctx, Col[] values, FieldVector out, Selection rows) {
        Col s = values[0];
        Col affix = values[1];
        ArrowBuf data = out.getDataBuffer();
        int[] selected = rows.rows();
        for (int k = 0, n = rows.size(); k < n; k++) {
          int i = selected[k];
          int sStart = s.start(i);
          int sLength = s.end(i) - sStart;
          int affixStart = affix.start(i);
          int affixLength = affix.end(i) - affixStart;
          if (affixLength <= sLength
              && Utf8.equals(
                  s.data,
                  start ? sStart : sStart + sLength - affixLength,
                  affixLength,
                  affix.data,
                  affixStart,
                  affixLength)) {
            Bitmaps.set(data, i);
          }
        }
      }
    };
  }
}
