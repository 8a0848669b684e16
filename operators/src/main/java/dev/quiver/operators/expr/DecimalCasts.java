package dev.quiver.operators.expr;

import dev.quiver.plan.type.SqlType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import org.apache.arrow.memory.ArrowBuf;

/** The decimal side of {@link NumericCast}: to and from DECIMAL, one loop per source family. */
final class DecimalCasts {
  private DecimalCasts() {}

  /** Row {@code row} of a decimal column rounded HALF_UP to an integer. */
  static long toLong(CastEval cast, Int128 x, Col in, int row, int scale) {
    x.load(in.data, row & in.mask);
    if (x.fitsLong() && scale <= 18) {
      long power = Int128.POW10_LO[scale];
      long q = x.lo / power;
      long r = Math.abs(x.lo % power);
      return r >= power - r ? q + (x.lo < 0 ? -1 : 1) : q;
    }
    BigDecimal value = new BigDecimal(x.toBigInteger(), scale);
    try {
      return value.setScale(0, RoundingMode.HALF_UP).longValueExact();
    } catch (ArithmeticException e) {
      throw Errors.overflow(
          cast.text, row, "value " + value.toPlainString() + " does not fit " + cast.type);
    }
  }

  /** Casts the selected non-NULL rows of {@code in} to the cast's decimal type. */
  static void toDecimal(CastEval cast, EvalContext ctx, Col in, Selection selection, ArrowBuf o) {
    SqlType from = cast.input.type;
    SqlType to = cast.type;
    int scale = to.scale();
    int[] rows = selection.rows();
    int n = selection.size();
    Int128 x = new Int128(); // one per batch, not per row
    switch (from.kind()) {
      case REAL:
      case DOUBLE:
        double[] doubles = ctx.doubles(ctx.rows());
        NumericLoads.doubles(in, from, selection, doubles);
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          if (in.isNull(i)) {
            continue;
          }
          double d = doubles[i];
          if (Double.isNaN(d) || Double.isInfinite(d)) {
            throw Errors.overflow(cast.text, i, "value " + d + " does not fit " + to);
          }
          set(cast, x, BigDecimal.valueOf(d), i);
          x.store(o, i);
        }
        return;
      case DECIMAL:
        int fromScale = from.scale();
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          if (in.isNull(i)) {
            continue;
          }
          x.load(in.data, i & in.mask);
          if (scale >= fromScale
              ? !x.scaleUp(scale - fromScale)
              : !rescaleDown(x, fromScale - scale)) {
            x.load(in.data, i & in.mask);
            set(cast, x, new BigDecimal(x.toBigInteger(), fromScale), i);
          }
          check(cast, x, i);
          x.store(o, i);
        }
        return;
      default:
        long[] longs = ctx.longs(ctx.rows());
        NumericLoads.longs(in, from, selection, longs);
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          if (in.isNull(i)) {
            continue;
          }
          x.setLong(longs[i]);
          if (!x.scaleUp(scale)) {
            throw Errors.overflow(cast.text, i, "value " + longs[i] + " does not fit " + to);
          }
          check(cast, x, i);
          x.store(o, i);
        }
    }
  }

  /** x = round(x / 10^digits) HALF_UP for 64-bit x; false for the BigDecimal path. */
  private static boolean rescaleDown(Int128 x, int digits) {
    if (!x.fitsLong() || digits > 18) {
      return false;
    }
    long power = Int128.POW10_LO[digits];
    long q = x.lo / power;
    long r = Math.abs(x.lo % power);
    x.setLong(r >= power - r ? q + (x.lo < 0 ? -1 : 1) : q);
    return true;
  }

  private static void set(CastEval cast, Int128 x, BigDecimal value, int row) {
    BigDecimal scaled = value.setScale(cast.type.scale(), RoundingMode.HALF_UP);
    if (!x.set(scaled.unscaledValue()) || !x.fitsPrecision(cast.type.precision())) {
      throw Errors.overflow(
          cast.text, row, "value " + scaled.toPlainString() + " does not fit " + cast.type);
    }
  }

  private static void check(CastEval cast, Int128 x, int row) {
    if (!x.fitsPrecision(cast.type.precision())) {
      BigDecimal value = new BigDecimal(x.toBigInteger(), cast.type.scale());
      throw Errors.overflow(
          cast.text, row, "value " + value.toPlainString() + " does not fit " + cast.type);
    }
  }
}
