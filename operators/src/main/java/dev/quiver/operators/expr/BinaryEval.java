package dev.quiver.operators.expr;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.type.SqlType;
import org.apache.arrow.vector.FieldVector;

/**
 * A null-propagating function of two operands: the result is NULL where either operand is, and
 * {@link #compute} fills in the values of the other selected rows.
 */
abstract class BinaryEval extends Eval {
  final Eval left;
  final Eval right;

  BinaryEval(SqlType type, String text, Eval left, Eval right) {
    super(type, text);
    this.left = requireNonNull(left, "left is null");
    this.right = requireNonNull(right, "right is null");
  }

  @Override
  public Col evaluate(EvalContext ctx, Selection selection) {
    Col a = left.evaluate(ctx, selection);
    Col b = right.evaluate(ctx, selection);
    FieldVector out = ctx.newVector(field);
    if (!selection.isEmpty() && !a.isNullConstant() && !b.isNullConstant()) {
      Bitmaps.validityAnd(out.getValidityBuffer(), ctx.rows(), a, b);
      compute(ctx, a, b, out, selection);
    }
    out.setValueCount(ctx.rows());
    return Col.of(out);
  }

  /**
   * Writes the values of the selected rows into {@code out}, whose validity is already set. Rows
   * whose validity bit is clear hold arbitrary operand values and must raise no error.
   */
  abstract void compute(EvalContext ctx, Col a, Col b, FieldVector out, Selection selection);
}
