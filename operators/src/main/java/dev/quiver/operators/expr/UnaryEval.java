package dev.quiver.operators.expr;

import dev.quiver.plan.type.SqlType;
import org.apache.arrow.vector.FieldVector;

/**
 * A null-propagating function of one operand: NULL stays NULL, and {@link #convert} computes the
 * other selected rows.
 */
abstract class UnaryEval extends Eval {
  final Eval input;

  UnaryEval(String text, Eval input, SqlType type) {
    super(type, text);
    this.input = input;
  }

  @Override
  public Col evaluate(EvalContext ctx, Selection selection) {
    Col in = input.evaluate(ctx, selection);
    FieldVector out = ctx.newVector(field);
    if (!selection.isEmpty() && !in.isNullConstant()) {
      Bitmaps.validityAnd(out.getValidityBuffer(), ctx.rows(), in);
      convert(ctx, in, out, selection);
    }
    out.setValueCount(ctx.rows());
    return Col.of(out);
  }

  /**
   * Computes the selected non-NULL rows of {@code in} into {@code out}, whose validity already
   * copies the input's. A kernel may clear a row's validity bit (a function that returns NULL).
   */
  abstract void convert(EvalContext ctx, Col in, FieldVector out, Selection selection);
}
