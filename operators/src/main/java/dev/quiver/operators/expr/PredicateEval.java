package dev.quiver.operators.expr;

import dev.quiver.plan.type.SqlType;
import org.apache.arrow.vector.FieldVector;

/**
 * A null-propagating predicate (comparison, LIKE, ...): NULL where any input is NULL, otherwise the
 * truth value a subclass computes into one byte per row. Bytes keep the type-specialised loops
 * simple; the bytes are then packed into a boolean vector, or, on the {@link #select} path of a
 * filter, turned straight into the selection of TRUE rows without building a vector.
 */
abstract class PredicateEval extends Eval {
  final Eval[] inputs;

  PredicateEval(String text, Eval... inputs) {
    super(SqlType.BOOLEAN, text);
    this.inputs = inputs;
  }

  /**
   * Writes 1 (true) or 0 (false) into {@code truth[row]} for every selected row. Rows where an
   * input is NULL may get either value but must raise no error.
   */
  abstract void truth(EvalContext ctx, Col[] values, Selection selection, byte[] truth);

  @Override
  public Col evaluate(EvalContext ctx, Selection selection) {
    Col[] values = evaluateInputs(ctx, selection);
    FieldVector out = ctx.newVector(field);
    if (values != null && !selection.isEmpty()) {
      byte[] truth = ctx.bytes(ctx.rows());
      truth(ctx, values, selection, truth);
      Bitmaps.validityAnd(out.getValidityBuffer(), ctx.rows(), values);
      Bitmaps.pack(truth, selection, out.getDataBuffer(), ctx.rows());
    }
    out.setValueCount(ctx.rows());
    return Col.of(out);
  }

  @Override
  public Selection select(EvalContext ctx, Selection selection) {
    Col[] values = evaluateInputs(ctx, selection);
    if (values == null || selection.isEmpty()) {
      return new Selection(selection.rows(), 0, false);
    }
    byte[] truth = ctx.bytes(ctx.rows());
    truth(ctx, values, selection, truth);
    int[] rows = selection.rows();
    for (Col value : values) {
      if (value.mayBeNull) {
        for (int k = 0, n = selection.size(); k < n; k++) {
          int i = rows[k];
          if (value.isNull(i)) {
            truth[i] = 0;
          }
        }
      }
    }
    return Bitmaps.selectTruth(ctx, truth, selection);
  }

  /** The inputs' values, or null when one is a NULL constant (every row is then NULL). */
  private Col[] evaluateInputs(EvalContext ctx, Selection selection) {
    Col[] values = new Col[inputs.length];
    for (int j = 0; j < inputs.length; j++) {
      values[j] = inputs[j].evaluate(ctx, selection);
      if (values[j].isNullConstant()) {
        return null;
      }
    }
    return values;
  }
}
