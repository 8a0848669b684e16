package dev.quiver.operators.expr;

import dev.quiver.plan.type.SqlType;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;

/** DATE to TIMESTAMP (midnight) and TIMESTAMP to DATE (the day it falls in). */
final class DateCast extends CastEval {
  static final long MICROS_PER_DAY = 86_400_000_000L;

  DateCast(String text, Eval input, SqlType target) {
    super(text, input, target);
  }

  @Override
  void convert(EvalContext ctx, Col in, FieldVector out, Selection selection) {
    ArrowBuf o = out.getDataBuffer();
    int[] rows = selection.rows();
    int m = in.mask;
    if (type.kind() == SqlType.Kind.TIMESTAMP) {
      for (int k = 0, n = selection.size(); k < n; k++) {
        int i = rows[k];
        o.setLong((long) i << 3, in.data.getInt((long) (i & m) << 2) * MICROS_PER_DAY);
      }
    } else {
      for (int k = 0, n = selection.size(); k < n; k++) {
        int i = rows[k];
        long micros = in.data.getLong((long) (i & m) << 3);
        o.setInt((long) i << 2, (int) Math.floorDiv(micros, MICROS_PER_DAY));
      }
    }
  }
}
