package dev.quiver.operators.expr;

import dev.quiver.plan.expr.ScalarFunction;
import dev.quiver.plan.type.SqlType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;

/**
 * Exact + − × ÷ % on decimal128 operands of any scales, to the result type of {@link
 * dev.quiver.plan.type.TypeRules}.
 *
 * <p>Where the operand types guarantee it, + − and × run as plain long loops (a 64×64→128-bit
 * product for ×) over the whole selection; a row that does not fit sends the batch down the general
 * path. The general path is allocation-free 128-bit arithmetic ({@link Int128}): + and − rescale
 * both operands to the larger scale and add; × multiplies two operands that fit 64 bits into an
 * exact 128-bit product; ÷ and % whose operands fit 64 bits use long division with HALF_UP
 * rounding. The slow path, with {@link BigDecimal}, takes the rest: a product of wider operands, a
 * quotient whose scaled dividend exceeds 64 bits, an intermediate beyond 128 bits, and results
 * whose scale was capped below the exact scale (rounded HALF_UP). Either way a result with more
 * digits than the result precision is a NUMERIC_OVERFLOW error naming the expression and row.
 */
final class DecimalArithmetic extends BinaryEval {
  private final ScalarFunction op;
  private final int leftScale;
  private final int rightScale;
  private final int precision;
  private final int scale;
  private final Int128 x = new Int128();
  private final Int128 y = new Int128();
  // Type-level guarantees that allow plain long kernels (see addLongs, multiplyLongs).
  private final boolean longAdd;
  private final boolean longMultiply;
  // Both operands' types have at most 18 digits: their values fit a long, high words unread.
  private final boolean narrowOperands;

  DecimalArithmetic(SqlType type, String text, ScalarFunction op, Eval left, Eval right) {
    super(type, text, left, right);
    this.op = op;
    this.leftScale = left.type.scale();
    this.rightScale = right.type.scale();
    this.precision = type.precision();
    this.scale = type.scale();
    int leftPrecision = left.type.precision();
    int rightPrecision = right.type.precision();
    int integerDigits = Math.max(leftPrecision - leftScale, rightPrecision - rightScale);
    this.longAdd = scale == Math.max(leftScale, rightScale) && integerDigits + scale <= 18;
    this.longMultiply =
        scale == leftScale + rightScale
            && (leftPrecision + rightPrecision <= precision || precision == 38);
    this.narrowOperands = leftPrecision <= 18 && rightPrecision <= 18;
  }

  @Override
  void compute(EvalContext ctx, Col a, Col b, FieldVector out, Selection selection) {
    boolean done;
    switch (op) {
      case ADD:
      case SUBTRACT:
        done = longAdd && addLongs(a, b, out.getDataBuffer(), selection);
        break;
      case MULTIPLY:
        done = longMultiply && multiplyLongs(a, b, out.getDataBuffer(), selection);
        break;
      default:
        done = false;
    }
    if (!done) {
      general(a, b, out, selection);
    }
  }

  /**
   * + and − when both operands, rescaled, are below 10^18 by their types: plain long arithmetic, no
   * validity checks (NULL rows compute garbage harmlessly). False if a result may exceed the
   * precision, which only the general path can tell apart from garbage in NULL rows.
   */
  private boolean addLongs(Col a, Col b, ArrowBuf o, Selection selection) {
    long fa = Int128.POW10_LO[scale - leftScale];
    long fb = Int128.POW10_LO[scale - rightScale] * (op == ScalarFunction.SUBTRACT ? -1 : 1);
    long limit = precision <= 18 ? Int128.POW10_LO[precision] : Long.MAX_VALUE;
    ArrowBuf x = a.data;
    ArrowBuf y = b.data;
    int am = a.mask;
    int bm = b.mask;
    int[] rows = selection.rows();
    boolean all = selection.isAll();
    boolean bad = false;
    for (int k = 0, n = selection.size(); k < n; k++) {
      int i = all ? k : rows[k];
      long r = x.getLong((long) (i & am) << 4) * fa + y.getLong((long) (i & bm) << 4) * fb;
      bad |= r >= limit | r <= -limit;
      long at = (long) i << 4;
      o.setLong(at, r);
      o.setLong(at + 8, r >> 63);
    }
    return !bad;
  }

  /**
   * × of operands that fit 64 bits: an exact 128-bit product whose digits cannot exceed the result
   * precision (checked on the types). False if some row needs the general path.
   */
  private boolean multiplyLongs(Col a, Col b, ArrowBuf o, Selection selection) {
    ArrowBuf x = a.data;
    ArrowBuf y = b.data;
    int am = a.mask;
    int bm = b.mask;
    int[] rows = selection.rows();
    boolean all = selection.isAll();
    int n = selection.size();
    if (narrowOperands) {
      // Operands below 10^18 by their types (NULL rows: garbage, harmless): low words only.
      for (int k = 0; k < n; k++) {
        int i = all ? k : rows[k];
        long u = x.getLong((long) (i & am) << 4);
        long v = y.getLong((long) (i & bm) << 4);
        long at = (long) i << 4;
        o.setLong(at, u * v);
        o.setLong(at + 8, Math.multiplyHigh(u, v));
      }
      return true;
    }
    long wide = 0;
    for (int k = 0; k < n; k++) {
      int i = all ? k : rows[k];
      long sa = (long) (i & am) << 4;
      long sb = (long) (i & bm) << 4;
      long u = x.getLong(sa);
      long v = y.getLong(sb);
      wide |= (x.getLong(sa + 8) ^ (u >> 63)) | (y.getLong(sb + 8) ^ (v >> 63));
      long at = (long) i << 4;
      o.setLong(at, u * v);
      o.setLong(at + 8, Math.multiplyHigh(u, v));
    }
    return wide == 0;
  }

  /** Row by row with {@link Int128}, falling back to BigDecimal; errors only for non-NULL rows. */
  private void general(Col a, Col b, FieldVector out, Selection selection) {
    ArrowBuf validity = out.getValidityBuffer();
    ArrowBuf o = out.getDataBuffer();
    int[] rows = selection.rows();
    for (int k = 0, n = selection.size(); k < n; k++) {
      int i = rows[k];
      if (!Bitmaps.get(validity, i)) {
        continue;
      }
      x.load(a.data, i & a.mask);
      y.load(b.data, i & b.mask);
      if ((op == ScalarFunction.DIVIDE || op == ScalarFunction.MODULO) && y.isZero()) {
        throw Errors.divisionByZero(text, i);
      }
      if (!fast()) {
        slow(a, b, i);
      }
      if (!x.fitsPrecision(precision)) {
        throw overflow(i, new BigDecimal(x.toBigInteger(), scale).toPlainString());
      }
      x.store(o, i);
    }
  }

  /** Computes x = x op y on the common path; false to take the slow path. */
  private boolean fast() {
    switch (op) {
      case ADD:
      case SUBTRACT:
        int exact = Math.max(leftScale, rightScale);
        return exact == scale
            && x.scaleUp(exact - leftScale)
            && y.scaleUp(exact - rightScale)
            && (op == ScalarFunction.ADD || y.negate())
            && x.add(y);
      case MULTIPLY:
        if (!x.fitsLong() || !y.fitsLong() || scale != leftScale + rightScale) {
          return false;
        }
        x.set(Math.multiplyHigh(x.lo, y.lo), x.lo * y.lo);
        return true;
      case DIVIDE:
        return divide();
      default:
        return modulo();
    }
  }

  /** Quotient rounded HALF_UP at the result scale, when the scaled dividend fits 64 bits. */
  private boolean divide() {
    int shift = scale + rightScale - leftScale;
    if (!x.fitsLong() || !y.fitsLong() || y.lo == Long.MIN_VALUE || shift < 0 || shift > 18) {
      return false;
    }
    long power = Int128.POW10_LO[shift];
    long dividend = x.lo * power;
    if (Math.multiplyHigh(x.lo, power) != dividend >> 63) {
      return false;
    }
    long divisor = y.lo;
    long quotient = dividend / divisor;
    long remainder = Math.abs(dividend % divisor);
    if (remainder >= Math.abs(divisor) - remainder) { // 2|r| >= |d| without overflow
      quotient += (dividend ^ divisor) < 0 ? -1 : 1;
    }
    x.setLong(quotient);
    return true;
  }

  private boolean modulo() {
    int exact = Math.max(leftScale, rightScale);
    if (exact != scale
        || !x.scaleUp(exact - leftScale)
        || !y.scaleUp(exact - rightScale)
        || !x.fitsLong()
        || !y.fitsLong()) {
      return false;
    }
    x.setLong(x.lo % y.lo); // MIN % -1 is 0 in Java, no trap
    return true;
  }

  /** Recomputes row {@code i} with BigDecimal from the operands in the buffers. */
  private void slow(Col a, Col b, int i) {
    BigDecimal u = new BigDecimal(Int128.toBigInteger(hiOf(a, i), loOf(a, i)), leftScale);
    BigDecimal v = new BigDecimal(Int128.toBigInteger(hiOf(b, i), loOf(b, i)), rightScale);
    BigDecimal result;
    switch (op) {
      case ADD:
        result = u.add(v);
        break;
      case SUBTRACT:
        result = u.subtract(v);
        break;
      case MULTIPLY:
        result = u.multiply(v);
        break;
      case DIVIDE:
        result = u.divide(v, scale, RoundingMode.HALF_UP);
        break;
      default:
        result = u.remainder(v);
    }
    BigDecimal rounded = result.setScale(scale, RoundingMode.HALF_UP);
    if (!x.set(rounded.unscaledValue())) {
      throw overflow(i, rounded.toPlainString());
    }
  }

  private static long hiOf(Col col, int row) {
    return col.data.getLong(((long) (row & col.mask) << 4) + 8);
  }

  private static long loOf(Col col, int row) {
    return col.data.getLong((long) (row & col.mask) << 4);
  }

  private RuntimeException overflow(int row, String value) {
    return Errors.overflow(text, row, "value " + value + " does not fit " + type);
  }
}
