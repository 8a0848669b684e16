package dev.quiver.operators.expr;

import dev.quiver.plan.expr.ScalarFunction;
import dev.quiver.plan.type.SqlType;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;

/**
 * + − × ÷ % on INTEGER or BIGINT operands of the result type. Overflow and division by zero do not
 * branch in the loops: they set flags, and only when a flag is up is the selection searched for the
 * first offending row that is not NULL (NULL rows hold arbitrary values and may overflow). Integer
 * division truncates toward zero; the remainder takes the dividend's sign.
 */
final class IntegerArithmetic extends BinaryEval {
  private final ScalarFunction op;
  private final boolean wide;

  IntegerArithmetic(SqlType type, String text, ScalarFunction op, Eval left, Eval right) {
    super(type, text, left, right);
    this.op = op;
    this.wide = type.kind() == SqlType.Kind.BIGINT;
  }

  @Override
  void compute(EvalContext ctx, Col a, Col b, FieldVector out, Selection selection) {
    long flags =
        wide
            ? computeLongs(a, b, out.getDataBuffer(), selection)
            : computeInts(a, b, out.getDataBuffer(), selection);
    if (flags != 0) {
      locateError(a, b, out, selection);
    }
  }

  /** Returns non-zero if some row may have overflowed or divided by zero. */
  private long computeLongs(Col a, Col b, ArrowBuf o, Selection selection) {
    ArrowBuf x = a.data;
    ArrowBuf y = b.data;
    int am = a.mask;
    int bm = b.mask;
    int[] rows = selection.rows();
    int n = selection.size();
    long bad = 0;
    switch (op) {
      case ADD:
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          long u = x.getLong((long) (i & am) << 3);
          long v = y.getLong((long) (i & bm) << 3);
          long r = u + v;
          bad |= (u ^ r) & (v ^ r);
          o.setLong((long) i << 3, r);
        }
        return bad >>> 63;
      case SUBTRACT:
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          long u = x.getLong((long) (i & am) << 3);
          long v = y.getLong((long) (i & bm) << 3);
          long r = u - v;
          bad |= (u ^ v) & (u ^ r);
          o.setLong((long) i << 3, r);
        }
        return bad >>> 63;
      case MULTIPLY:
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          long u = x.getLong((long) (i & am) << 3);
          long v = y.getLong((long) (i & bm) << 3);
          long r = u * v;
          bad |= Math.multiplyHigh(u, v) ^ (r >> 63);
          o.setLong((long) i << 3, r);
        }
        return bad;
      case DIVIDE:
      case MODULO:
        boolean divide = op == ScalarFunction.DIVIDE;
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          long u = x.getLong((long) (i & am) << 3);
          long v = y.getLong((long) (i & bm) << 3);
          if (v == 0 || divide && v == -1 && u == Long.MIN_VALUE) {
            bad = 1;
            continue;
          }
          o.setLong((long) i << 3, divide ? u / v : u % v);
        }
        return bad;
      default:
        throw new IllegalStateException("not arithmetic: " + op);
    }
  }

  private long computeInts(Col a, Col b, ArrowBuf o, Selection selection) {
    ArrowBuf x = a.data;
    ArrowBuf y = b.data;
    int am = a.mask;
    int bm = b.mask;
    int[] rows = selection.rows();
    int n = selection.size();
    long bad = 0;
    switch (op) {
      case ADD:
      case SUBTRACT:
      case MULTIPLY:
        int sign = op == ScalarFunction.SUBTRACT ? -1 : 1;
        boolean multiply = op == ScalarFunction.MULTIPLY;
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          long u = x.getInt((long) (i & am) << 2);
          long v = y.getInt((long) (i & bm) << 2);
          // In 64 bits none of these overflow; the result fits INTEGER iff it survives the cast.
          long r = multiply ? u * v : u + sign * v;
          bad |= r ^ (int) r;
          o.setInt((long) i << 2, (int) r);
        }
        return bad;
      case DIVIDE:
      case MODULO:
        boolean divide = op == ScalarFunction.DIVIDE;
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          int u = x.getInt((long) (i & am) << 2);
          int v = y.getInt((long) (i & bm) << 2);
          if (v == 0 || divide && v == -1 && u == Integer.MIN_VALUE) {
            bad = 1;
            continue;
          }
          o.setInt((long) i << 2, divide ? u / v : u % v);
        }
        return bad;
      default:
        throw new IllegalStateException("not arithmetic: " + op);
    }
  }

  /** Throws for the first non-NULL selected row that overflows or divides by zero, if any. */
  private void locateError(Col a, Col b, FieldVector out, Selection selection) {
    int[] rows = selection.rows();
    for (int k = 0; k < selection.size(); k++) {
      int i = rows[k];
      if (!Bitmaps.get(out.getValidityBuffer(), i)) {
        continue;
      }
      long u =
          wide ? a.data.getLong((long) (i & a.mask) << 3) : a.data.getInt((long) (i & a.mask) << 2);
      long v =
          wide ? b.data.getLong((long) (i & b.mask) << 3) : b.data.getInt((long) (i & b.mask) << 2);
      if (v == 0 && (op == ScalarFunction.DIVIDE || op == ScalarFunction.MODULO)) {
        throw Errors.divisionByZero(text, i);
      }
      try {
        long r = exact(u, v);
        if (!wide) {
          Math.toIntExact(r);
        }
      } catch (ArithmeticException e) {
        throw Errors.overflow(text, i, u + " " + op.symbol() + " " + v + " does not fit " + type);
      }
    }
    // Only NULL rows overflowed: their values are arbitrary and their results are NULL.
  }

  private long exact(long u, long v) {
    switch (op) {
      case ADD:
        return Math.addExact(u, v);
      case SUBTRACT:
        return Math.subtractExact(u, v);
      case MULTIPLY:
        return Math.multiplyExact(u, v);
      case DIVIDE:
        if (u == Long.MIN_VALUE && v == -1) {
          throw new ArithmeticException("overflow");
        }
        return u / v;
      default:
        return u % v;
    }
  }
}
