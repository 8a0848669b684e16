package dev.quiver.operators.function;

import dev.quiver.operators.expr.Bitmaps;
import dev.quiver.operators.expr.Col;
import dev.quiver.operators.expr.Eval;
import dev.quiver.operators.expr.EvalContext;
import dev.quiver.operators.expr.Selection;
import dev.quiver.plan.expr.FunctionCall;
import org.apache.arrow.vector.FieldVector;

/**
 * A null-propagating kernel with a fixed-width result (numbers, dates, booleans): a row is NULL
 * when any argument is; {@link #compute} fills the other selected rows straight into the result's
 * data buffer and may clear a row's validity bit to return NULL.
 */
public abstract class FixedResultEval extends Eval {
  protected final Eval[] args;

  protected FixedResultEval(FunctionCall call, Eval[] args) {
    super(call.sqlType(), call.toString());
    this.args = args;
  }

  @Override
  public Col evaluate(EvalContext ctx, Selection selection) {
    Col[] values = Kernels.evaluate(ctx, args, selection);
    boolean nullConstant = Kernels.anyNullConstant(values);
    FieldVector out = ctx.newVector(field);
    if (!nullConstant && !selection.isEmpty()) {
      Bitmaps.validityAnd(out.getValidityBuffer(), ctx.rows(), values);
      compute(ctx, values, out, Kernels.nonNull(ctx, values, selection));
    }
    out.setValueCount(ctx.rows());
    return Col.of(out);
  }

  /** Computes each row of {@code rows} (no argument NULL there) into {@code out}. */
  protected abstract void compute(EvalContext ctx, Col[] values, FieldVector out, Selection rows);
}
