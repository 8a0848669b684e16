package dev.quiver.operators.expr;

import dev.quiver.plan.expr.ColumnRef;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/** An input column, passed through as it is: no copy. */
final class ColumnEval extends Eval {
  final int index;

  ColumnEval(ColumnRef column) {
    super(column.sqlType(), column.toString());
    this.index = column.index();
  }

  @Override
  public Col evaluate(EvalContext ctx, Selection selection) {
    VectorSchemaRoot batch = ctx.batch();
    if (batch == null || index >= batch.getFieldVectors().size()) {
      throw new IllegalArgumentException(
          "expression refers to column " + text + " but the batch has no such column");
    }
    FieldVector vector = batch.getVector(index);
    if (!vector.getField().getType().equals(type.arrow())) {
      throw new IllegalArgumentException(
          "column "
              + text
              + " is "
              + vector.getField().getType()
              + " in the batch but "
              + type
              + " in the expression");
    }
    return Col.of(vector);
  }
}
