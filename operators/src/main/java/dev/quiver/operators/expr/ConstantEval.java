package dev.quiver.operators.expr;

import dev.quiver.plan.expr.Literal;
import org.apache.arrow.vector.FieldVector;

/** A literal: a one-row vector that kernels read at every row (see {@link Col#mask}). */
final class ConstantEval extends Eval {
  final Object value;

  ConstantEval(Literal literal) {
    super(literal.sqlType(), literal.toString());
    this.value = literal.value();
  }

  boolean isNull() {
    return value == null;
  }

  @Override
  public Col evaluate(EvalContext ctx, Selection selection) {
    FieldVector vector = ctx.newVector(field, 1);
    Values.write(vector, 0, value, type);
    vector.setValueCount(1);
    return Col.constant(vector);
  }
}
