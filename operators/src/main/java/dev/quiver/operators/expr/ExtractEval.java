package dev.quiver.operators.expr;

import dev.quiver.plan.expr.Call;
import dev.quiver.plan.expr.ScalarFunction;
import dev.quiver.plan.type.SqlType;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;

/** EXTRACT(YEAR | MONTH | DAY FROM date or timestamp) as an INTEGER. */
final class ExtractEval extends UnaryEval {
  private final ScalarFunction field;

  ExtractEval(Call call, Eval input) {
    super(call.toString(), input, call.sqlType());
    this.field = call.function();
  }

  @Override
  void convert(EvalContext ctx, Col in, FieldVector out, Selection selection) {
    ArrowBuf o = out.getDataBuffer();
    boolean timestamp = input.type.kind() == SqlType.Kind.TIMESTAMP;
    int[] rows = selection.rows();
    for (int k = 0, n = selection.size(); k < n; k++) {
      int i = rows[k];
      int slot = i & in.mask;
      long day =
          timestamp
              ? Math.floorDiv(in.data.getLong((long) slot << 3), CivilDates.MICROS_PER_DAY)
              : in.data.getInt((long) slot << 2);
      long date = CivilDates.civil(day);
      long value =
          field == ScalarFunction.EXTRACT_YEAR
              ? CivilDates.year(date)
              : field == ScalarFunction.EXTRACT_MONTH
                  ? CivilDates.month(date)
                  : CivilDates.day(date);
      o.setInt((long) i << 2, (int) value);
    }
  }
}
