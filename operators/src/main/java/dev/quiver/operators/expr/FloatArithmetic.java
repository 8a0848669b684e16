package dev.quiver.operators.expr;

import dev.quiver.plan.expr.ScalarFunction;
import dev.quiver.plan.type.SqlType;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;

/**
 * + − × ÷ % on REAL or DOUBLE operands of the result type, IEEE 754 arithmetic; one loop per type
 * and operator. Division and modulo by zero are errors (as in PostgreSQL), not infinities: a zero
 * divisor only sets a flag in the loop, and the first non-NULL offending row is searched for after.
 */
final class FloatArithmetic extends BinaryEval {
  private final ScalarFunction op;
  private final boolean single;

  FloatArithmetic(SqlType type, String text, ScalarFunction op, Eval left, Eval right) {
    super(type, text, left, right);
    this.op = op;
    this.single = type.kind() == SqlType.Kind.REAL;
  }

  @Override
  void compute(EvalContext ctx, Col a, Col b, FieldVector out, Selection selection) {
    boolean zero =
        single
            ? floats(a, b, out.getDataBuffer(), selection)
            : doubles(a, b, out.getDataBuffer(), selection);
    if (zero) {
      int[] rows = selection.rows();
      for (int k = 0; k < selection.size(); k++) {
        int i = rows[k];
        int slot = i & b.mask;
        double v = single ? b.data.getFloat((long) slot << 2) : b.data.getDouble((long) slot << 3);
        if (v == 0 && Bitmaps.get(out.getValidityBuffer(), i)) {
          throw Errors.divisionByZero(text, i);
        }
      }
    }
  }

  /** DOUBLE: returns whether some divisor was zero. */
  private boolean doubles(Col a, Col b, ArrowBuf o, Selection selection) {
    ArrowBuf x = a.data;
    ArrowBuf y = b.data;
    int am = a.mask;
    int bm = b.mask;
    int[] rows = selection.rows();
    int n = selection.size();
    boolean zero = false;
    switch (op) {
      case ADD:
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          o.setDouble(
              (long) i << 3, x.getDouble((long) (i & am) << 3) + y.getDouble((long) (i & bm) << 3));
        }
        return false;
      case SUBTRACT:
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          o.setDouble(
              (long) i << 3, x.getDouble((long) (i & am) << 3) - y.getDouble((long) (i & bm) << 3));
        }
        return false;
      case MULTIPLY:
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          o.setDouble(
              (long) i << 3, x.getDouble((long) (i & am) << 3) * y.getDouble((long) (i & bm) << 3));
        }
        return false;
      case DIVIDE:
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          double v = y.getDouble((long) (i & bm) << 3);
          zero |= v == 0;
          o.setDouble((long) i << 3, x.getDouble((long) (i & am) << 3) / v);
        }
        return zero;
      default:
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          double v = y.getDouble((long) (i & bm) << 3);
          zero |= v == 0;
          o.setDouble((long) i << 3, x.getDouble((long) (i & am) << 3) % v);
        }
        return zero;
    }
  }

  /** REAL: float arithmetic; returns whether some divisor was zero. */
  private boolean floats(Col a, Col b, ArrowBuf o, Selection selection) {
    ArrowBuf x = a.data;
    ArrowBuf y = b.data;
    int am = a.mask;
    int bm = b.mask;
    int[] rows = selection.rows();
    int n = selection.size();
    boolean zero = false;
    switch (op) {
      case ADD:
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          o.setFloat(
              (long) i << 2, x.getFloat((long) (i & am) << 2) + y.getFloat((long) (i & bm) << 2));
        }
        return false;
      case SUBTRACT:
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          o.setFloat(
              (long) i << 2, x.getFloat((long) (i & am) << 2) - y.getFloat((long) (i & bm) << 2));
        }
        return false;
      case MULTIPLY:
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          o.setFloat(
              (long) i << 2, x.getFloat((long) (i & am) << 2) * y.getFloat((long) (i & bm) << 2));
        }
        return false;
      case DIVIDE:
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          float v = y.getFloat((long) (i & bm) << 2);
          zero |= v == 0;
          o.setFloat((long) i << 2, x.getFloat((long) (i & am) << 2) / v);
        }
        return zero;
      default:
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          float v = y.getFloat((long) (i & bm) << 2);
          zero |= v == 0;
          o.setFloat((long) i << 2, x.getFloat((long) (i & am) << 2) % v);
        }
        return zero;
    }
  }
}
