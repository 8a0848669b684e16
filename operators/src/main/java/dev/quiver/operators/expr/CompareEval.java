package dev.quiver.operators.expr;

import dev.quiver.plan.expr.ScalarFunction;
import org.apache.arrow.memory.ArrowBuf;

/**
 * The six comparisons over two operands of one type (decimals may differ in scale). One loop per
 * physical type computes {@code c = compare(a, b)} in {-1, 0, 1}, and the operator is a 3-bit mask
 * over {less, equal, greater}: {@code truth = mask >>> (c + 1) & 1}, so the six operators share the
 * loop without a branch.
 *
 * <p>Orders: integers, dates and timestamps numerically; floating point with -0.0 = 0.0 and NaN
 * equal to itself and above every other value (as PostgreSQL); decimals exactly, across scales;
 * strings by code point (unsigned UTF-8 bytes); FALSE before TRUE.
 */
final class CompareEval extends PredicateEval {
  private final int mask;
  private final int rescaleLeft;
  private final int rescaleRight;
  private final Int128 x = new Int128();
  private final Int128 y = new Int128();
  // Decimals of one scale that fit 64 bits by their types compare as longs.
  private final boolean longDecimals;

  CompareEval(String text, ScalarFunction op, Eval left, Eval right) {
    super(text, left, right);
    this.mask = mask(op);
    this.rescaleLeft = Math.max(0, right.type.scale() - left.type.scale());
    this.rescaleRight = Math.max(0, left.type.scale() - right.type.scale());
    this.longDecimals =
        left.type.isDecimal()
            && rescaleLeft == 0
            && rescaleRight == 0
            && left.type.precision() <= 18
            && right.type.precision() <= 18;
  }

  /**
   * The filter path fused into one loop for non-NULL fixed-width operands ({@link FusedCompare}):
   * the selection is built directly, without truth bytes.
   */
  @Override
  public Selection select(EvalContext ctx, Selection selection) {
    int shift = fusedShift();
    if (shift < 0 || selection.isEmpty()) {
      return super.select(ctx, selection);
    }
    Col a = inputs[0].evaluate(ctx, selection);
    Col b = inputs[1].evaluate(ctx, selection);
    if (a.mayBeNull || b.mayBeNull || a.constant && b.constant) {
      return super.select(ctx, selection); // evaluates again: rare, keeps this loop simple
    }
    int m = mask;
    if (a.constant && !b.constant) { // c < x is x > c: mirror the less and greater bits
      Col swap = a;
      a = b;
      b = swap;
      m = (m & 0b010) | (m & 0b001) << 2 | (m & 0b100) >>> 2;
    }
    int n = selection.size();
    int[] out = ctx.ints(n);
    int count =
        b.constant
            ? FusedCompare.againstConstant(a.data, shift, b.data, m, selection, out)
            : FusedCompare.columns(a.data, a.mask, b.data, shift, m, selection, out);
    return new Selection(out, count, count == n && selection.isAll());
  }

  /** log2 of the slot width for types the fused loop handles (decimals: their low word), or -1. */
  private int fusedShift() {
    switch (inputs[0].type.kind()) {
      case INTEGER:
      case DATE:
        return 2;
      case BIGINT:
      case TIMESTAMP:
        return 3;
      case DECIMAL:
        return longDecimals ? 4 : -1;
      default:
        return -1;
    }
  }

  static int mask(ScalarFunction op) {
    switch (op) {
      case LESS_THAN:
        return 0b001;
      case EQUAL:
        return 0b010;
      case GREATER_THAN:
        return 0b100;
      case LESS_THAN_OR_EQUAL:
        return 0b011;
      case GREATER_THAN_OR_EQUAL:
        return 0b110;
      case NOT_EQUAL:
        return 0b101;
      default:
        throw new IllegalArgumentException("not a comparison: " + op);
    }
  }

  @Override
  void truth(EvalContext ctx, Col[] values, Selection selection, byte[] truth) {
    Col a = values[0];
    Col b = values[1];
    ArrowBuf u = a.data;
    ArrowBuf v = b.data;
    int am = a.mask;
    int bm = b.mask;
    int m = mask;
    int[] rows = selection.rows();
    int n = selection.size();
    switch (inputs[0].type.kind()) {
      case INTEGER:
      case DATE:
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          int c = Integer.compare(u.getInt((long) (i & am) << 2), v.getInt((long) (i & bm) << 2));
          truth[i] = (byte) ((m >>> (c + 1)) & 1);
        }
        break;
      case BIGINT:
      case TIMESTAMP:
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          int c = Long.compare(u.getLong((long) (i & am) << 3), v.getLong((long) (i & bm) << 3));
          truth[i] = (byte) ((m >>> (c + 1)) & 1);
        }
        break;
      case REAL:
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          int c = compare(u.getFloat((long) (i & am) << 2), v.getFloat((long) (i & bm) << 2));
          truth[i] = (byte) ((m >>> (c + 1)) & 1);
        }
        break;
      case DOUBLE:
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          int c = compare(u.getDouble((long) (i & am) << 3), v.getDouble((long) (i & bm) << 3));
          truth[i] = (byte) ((m >>> (c + 1)) & 1);
        }
        break;
      case DECIMAL:
        decimals(a, b, rows, n, truth);
        break;
      case VARCHAR:
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          int as = a.start(i);
          int bs = b.start(i);
          int c = Utf8.compare(u, as, a.end(i) - as, v, bs, b.end(i) - bs);
          truth[i] = (byte) ((m >>> (c + 1)) & 1);
        }
        break;
      case BOOLEAN:
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          int c = Boolean.compare(Bitmaps.get(u, i & am), Bitmaps.get(v, i & bm));
          truth[i] = (byte) ((m >>> (c + 1)) & 1);
        }
        break;
      default:
        throw new IllegalStateException("cannot compare " + inputs[0].type);
    }
  }

  private void decimals(Col a, Col b, int[] rows, int n, byte[] truth) {
    int m = mask;
    if (longDecimals) {
      for (int k = 0; k < n; k++) {
        int i = rows[k];
        int c =
            Long.compare(
                a.data.getLong((long) (i & a.mask) << 4), b.data.getLong((long) (i & b.mask) << 4));
        truth[i] = (byte) ((m >>> (c + 1)) & 1);
      }
      return;
    }
    if (rescaleLeft == 0 && rescaleRight == 0) {
      for (int k = 0; k < n; k++) {
        int i = rows[k];
        long at = (long) (i & a.mask) << 4;
        long bt = (long) (i & b.mask) << 4;
        int c =
            Int128.compare(
                a.data.getLong(at + 8),
                a.data.getLong(at),
                b.data.getLong(bt + 8),
                b.data.getLong(bt));
        truth[i] = (byte) ((m >>> (c + 1)) & 1);
      }
      return;
    }
    for (int k = 0; k < n; k++) {
      int i = rows[k];
      x.load(a.data, i & a.mask);
      y.load(b.data, i & b.mask);
      int c;
      // A value that overflows 128 bits when rescaled is beyond any 38-digit decimal.
      if (!x.scaleUp(rescaleLeft)) {
        c = a.data.getLong(((long) (i & a.mask) << 4) + 8) < 0 ? -1 : 1;
      } else if (!y.scaleUp(rescaleRight)) {
        c = b.data.getLong(((long) (i & b.mask) << 4) + 8) < 0 ? 1 : -1;
      } else {
        c = Integer.signum(x.compareTo(y));
      }
      truth[i] = (byte) ((m >>> (c + 1)) & 1);
    }
  }

  /** SQL order of floating point: -0.0 = 0.0, NaN = NaN and NaN above all numbers. */
  static int compare(double u, double v) {
    return u < v ? -1 : u > v ? 1 : u == v ? 0 : Double.compare(u, v);
  }
}
