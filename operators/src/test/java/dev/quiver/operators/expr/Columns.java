package dev.quiver.operators.expr;

import dev.quiver.plan.expr.ColumnRef;
import dev.quiver.plan.expr.Exprs;
import dev.quiver.plan.type.SqlType;
import dev.quiver.testing.RandomBatches;
import org.apache.arrow.vector.types.pojo.Field;

/** Column references into {@link RandomBatches#ALL_TYPES}, by name. */
final class Columns {
  static final ColumnRef BOOL = ref(0);
  static final ColumnRef I8 = ref(1);
  static final ColumnRef I16 = ref(2);
  static final ColumnRef I32 = ref(3);
  static final ColumnRef I64 = ref(4);
  static final ColumnRef F32 = ref(5);
  static final ColumnRef F64 = ref(6);
  static final ColumnRef DEC15 = ref(7);
  static final ColumnRef DEC38 = ref(8);
  static final ColumnRef UTF8 = ref(9);
  static final ColumnRef DATE = ref(10);
  static final ColumnRef TS = ref(11);

  private Columns() {}

  private static ColumnRef ref(int index) {
    Field field = RandomBatches.ALL_TYPES.getFields().get(index);
    return Exprs.col(index, SqlType.of(field.getType()), field.getName());
  }
}
