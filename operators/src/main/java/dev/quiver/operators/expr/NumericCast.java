package dev.quiver.operators.expr;

import dev.quiver.plan.type.SqlType;
import java.math.BigDecimal;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;

/**
 * Casts among BOOLEAN, TINYINT..BIGINT, REAL, DOUBLE and DECIMAL. TRUE is 1 and any non-zero number
 * is TRUE. Floating point and decimals become integers rounded half away from zero; decimals
 * rescale HALF_UP; a value outside the target's range or precision (or NaN / infinity to an exact
 * type) is a NUMERIC_OVERFLOW error.
 *
 * <p>Two passes, each dispatched once on a type: the source is loaded into a primitive array in the
 * form the target needs (longs, doubles, or decimals read in place), then a loop per target stores
 * it. Slow paths (documented): float to decimal goes through {@link BigDecimal#valueOf(double)}
 * (the shortest decimal that reads back as the double), and decimals beyond 64 bits or 18 digits of
 * scale through {@link BigDecimal}.
 */
final class NumericCast extends CastEval {
  private static final double TWO_63 = 9.223372036854775808E18;
  private static final double[] POW10_DOUBLE = new double[23];

  static {
    for (int k = 0; k < POW10_DOUBLE.length; k++) {
      POW10_DOUBLE[k] = Double.parseDouble("1e" + k); // exact up to 1e22
    }
  }

  private final int fromScale;
  private final Int128 x = new Int128();

  NumericCast(String text, Eval input, SqlType target) {
    super(text, input, target);
    this.fromScale = input.type.scale();
  }

  @Override
  void convert(EvalContext ctx, Col in, FieldVector out, Selection selection) {
    ArrowBuf o = out.getDataBuffer();
    int[] rows = selection.rows();
    int n = selection.size();
    switch (type.kind()) {
      case BOOLEAN:
        double[] truth = doubles(ctx, in, selection);
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          if (truth[i] != 0) {
            Bitmaps.set(o, i);
          }
        }
        break;
      case REAL:
        double[] reals = doubles(ctx, in, selection);
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          o.setFloat((long) i << 2, (float) reals[i]);
        }
        break;
      case DOUBLE:
        double[] doubles = doubles(ctx, in, selection);
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          o.setDouble((long) i << 3, doubles[i]);
        }
        break;
      case DECIMAL:
        DecimalCasts.toDecimal(this, ctx, in, selection, o);
        break;
      default:
        storeIntegers(in, longs(ctx, in, selection), selection, o);
    }
  }

  /** Stores longs into the integer target, one loop per width, failing for values out of range. */
  private void storeIntegers(Col in, long[] values, Selection selection, ArrowBuf o) {
    int[] rows = selection.rows();
    int n = selection.size();
    int bits =
        type.kind() == SqlType.Kind.TINYINT
            ? 8
            : type.kind() == SqlType.Kind.SMALLINT
                ? 16
                : type.kind() == SqlType.Kind.INTEGER ? 32 : 64;
    long limit = bits == 64 ? Long.MAX_VALUE : 1L << (bits - 1);
    boolean bad = false;
    for (int k = 0; k < n && bits < 64; k++) {
      long v = values[rows[k]];
      bad |= v < -limit | v >= limit;
    }
    if (bad) { // maybe only NULL rows, whose values are arbitrary
      for (int k = 0; k < n; k++) {
        int i = rows[k];
        long v = values[i];
        if ((v < -limit || v >= limit) && !in.isNull(i)) {
          throw Errors.overflow(text, i, "value " + v + " does not fit " + type);
        }
      }
    }
    switch (bits) {
      case 8:
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          o.setByte(i, (byte) values[i]);
        }
        break;
      case 16:
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          o.setShort((long) i << 1, (short) values[i]);
        }
        break;
      case 32:
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          o.setInt((long) i << 2, (int) values[i]);
        }
        break;
      default:
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          o.setLong((long) i << 3, values[i]);
        }
    }
  }

  /** The source as longs: integers as they are, others rounded half away from zero. */
  private long[] longs(EvalContext ctx, Col in, Selection selection) {
    long[] values = ctx.longs(ctx.rows());
    int[] rows = selection.rows();
    int n = selection.size();
    switch (input.type.kind()) {
      case REAL:
      case DOUBLE:
        double[] doubles = ctx.doubles(ctx.rows());
        NumericLoads.doubles(in, input.type, selection, doubles);
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          double rounded = roundHalfAway(doubles[i]);
          if (!(rounded >= -TWO_63 && rounded < TWO_63) && !in.isNull(i)) {
            throw Errors.overflow(text, i, "value " + doubles[i] + " does not fit " + type);
          }
          values[i] = (long) rounded;
        }
        return values;
      case DECIMAL:
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          if (!in.isNull(i)) {
            values[i] = DecimalCasts.toLong(this, x, in, i, fromScale);
          }
        }
        return values;
      default:
        NumericLoads.longs(in, input.type, selection, values);
        return values;
    }
  }

  /** The source as doubles (decimals correctly rounded). */
  private double[] doubles(EvalContext ctx, Col in, Selection selection) {
    double[] values = ctx.doubles(ctx.rows());
    int[] rows = selection.rows();
    int n = selection.size();
    switch (input.type.kind()) {
      case REAL:
      case DOUBLE:
        NumericLoads.doubles(in, input.type, selection, values);
        return values;
      case DECIMAL:
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          x.load(in.data, i & in.mask);
          // Both operands exact in a double: the quotient is correctly rounded, like BigDecimal's.
          if (x.fitsLong() && Math.abs(x.lo) < (1L << 53) && fromScale < POW10_DOUBLE.length) {
            values[i] = x.lo / POW10_DOUBLE[fromScale];
          } else {
            values[i] =
                in.isNull(i) ? 0 : new BigDecimal(x.toBigInteger(), fromScale).doubleValue();
          }
        }
        return values;
      default:
        long[] longs = ctx.longs(ctx.rows());
        NumericLoads.longs(in, input.type, selection, longs);
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          values[i] = longs[i];
        }
        return values;
    }
  }

  /** Rounds half away from zero (Math.round rounds half up, toward positive infinity). */
  static double roundHalfAway(double d) {
    double floor = Math.floor(d);
    double fraction = d - floor;
    return fraction > 0.5 || fraction == 0.5 && d > 0 ? floor + 1 : floor;
  }
}
