package dev.quiver.operators.expr;

import dev.quiver.plan.expr.Call;
import dev.quiver.plan.expr.Literal;
import dev.quiver.plan.expr.ScalarFunction;
import dev.quiver.plan.type.SqlType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;

/**
 * Unary minus, ABS and ROUND(x, d) on INTEGER, BIGINT, REAL, DOUBLE and DECIMAL. Negating or taking
 * ABS of the smallest integer overflows (an error). ROUND rounds half away from zero: exactly for
 * integers and decimals (a negative {@code d} rounds to tens, hundreds...), and for floating point
 * as {@code roundHalfAway(x * 10^d) / 10^d}, which is approximate like all binary floating point.
 */
final class MathEval extends UnaryEval {
  private final ScalarFunction function;
  private final int digits;
  private final Int128 x = new Int128();

  private MathEval(String text, ScalarFunction function, Eval input, SqlType type, int digits) {
    super(text, input, type);
    this.function = function;
    this.digits = digits;
  }

  static Eval create(Call call, Eval[] args) {
    int digits = 0;
    if (call.function() == ScalarFunction.ROUND && call.args().size() == 2) {
      digits = Math.toIntExact((Long) ((Literal) call.arg(1)).value());
    }
    return new MathEval(call.toString(), call.function(), args[0], call.sqlType(), digits);
  }

  @Override
  void convert(EvalContext ctx, Col in, FieldVector out, Selection selection) {
    ArrowBuf o = out.getDataBuffer();
    ArrowBuf data = in.data;
    int m = in.mask;
    int[] rows = selection.rows();
    int n = selection.size();
    switch (input.type.kind()) {
      case INTEGER:
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          if (!in.isNull(i)) {
            o.setInt((long) i << 2, (int) checkInt(apply(data.getInt((long) (i & m) << 2), i), i));
          }
        }
        break;
      case BIGINT:
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          if (!in.isNull(i)) {
            o.setLong((long) i << 3, apply(data.getLong((long) (i & m) << 3), i));
          }
        }
        break;
      case REAL:
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          o.setFloat((long) i << 2, (float) apply(data.getFloat((long) (i & m) << 2)));
        }
        break;
      case DOUBLE:
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          o.setDouble((long) i << 3, apply(data.getDouble((long) (i & m) << 3)));
        }
        break;
      case DECIMAL:
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          if (in.isNull(i)) {
            continue;
          }
          x.load(data, i & m);
          if (function == ScalarFunction.ROUND) {
            roundDecimal(i);
          } else if (function == ScalarFunction.NEGATE || x.hi < 0) {
            x.negate(); // |x| < 10^38 < 2^127: never the one value without a negation
          }
          x.store(o, i);
        }
        break;
      default:
        throw new IllegalStateException("no " + function + " for " + input.type);
    }
  }

  private long apply(long v, int row) {
    switch (function) {
      case NEGATE:
        return exact(v == Long.MIN_VALUE, -v, v, row);
      case ABS:
        return exact(v == Long.MIN_VALUE, Math.abs(v), v, row);
      default:
        if (digits >= 0) {
          return v;
        }
        if (-digits > 18) {
          return 0;
        }
        long power = Int128.POW10_LO[-digits];
        long q = v / power;
        long r = Math.abs(v % power);
        long rounded = r >= power - r ? q + (v < 0 ? -1 : 1) : q;
        long hi = Math.multiplyHigh(rounded, power);
        long result = rounded * power;
        return exact(hi != result >> 63, result, v, row);
    }
  }

  private long exact(boolean overflow, long result, long v, int row) {
    if (overflow) {
      throw Errors.overflow(text, row, function.symbol() + " of " + v + " does not fit " + type);
    }
    return result;
  }

  private long checkInt(long value, int row) {
    if (value != (int) value) {
      throw Errors.overflow(text, row, "value " + value + " does not fit " + type);
    }
    return value;
  }

  private double apply(double v) {
    switch (function) {
      case NEGATE:
        return -v;
      case ABS:
        return Math.abs(v);
      default:
        if (digits == 0) {
          return NumericCast.roundHalfAway(v);
        }
        double scale = Math.pow(10, digits);
        return NumericCast.roundHalfAway(v * scale) / scale;
    }
  }

  /** Rounds {@link #x} (at the input scale) to {@code digits} and rescales it to the result. */
  private void roundDecimal(int row) {
    int scale = input.type.scale();
    if (digits >= scale) {
      return; // the result type is the input type
    }
    int drop = scale - digits;
    long high = x.hi;
    long low = x.lo;
    if (x.fitsLong() && drop <= 18) {
      long power = Int128.POW10_LO[drop];
      long q = x.lo / power;
      long r = Math.abs(x.lo % power);
      x.setLong(r >= power - r ? q + (x.lo < 0 ? -1 : 1) : q);
      if (digits >= 0 || x.scaleUp(-digits)) {
        return;
      }
    }
    BigDecimal value =
        new BigDecimal(Int128.toBigInteger(high, low), scale)
            .setScale(digits, RoundingMode.HALF_UP);
    BigDecimal result = value.setScale(type.scale(), RoundingMode.UNNECESSARY);
    if (!x.set(result.unscaledValue()) || !x.fitsPrecision(type.precision())) {
      throw Errors.overflow(text, row, "value " + result.toPlainString() + " does not fit " + type);
    }
  }
}
