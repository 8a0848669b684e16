package dev.quiver.operators.function.math;

import dev.quiver.operators.expr.Col;
import dev.quiver.operators.expr.Eval;
import dev.quiver.operators.expr.EvalContext;
import dev.quiver.operators.expr.Int128;
import dev.quiver.operators.expr.Selection;
import dev.quiver.operators.function.DeclaredFunction;
import dev.quiver.operators.function.FixedResultEval;
import dev.quiver.operators.function.Kernels;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.FunctionCall;
import dev.quiver.plan.expr.Signature;
import dev.quiver.plan.type.SqlType;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;

/**
 * {@code floor(x)}, {@code ceil(x)} (alias {@code ceiling}) and {@code trunc(x [, d])}: x rounded
 * down, up or toward zero to an integer, or for {@code trunc(x, d)} to {@code d} decimals ({@code
 * d} an integer literal; a negative {@code d} truncates to tens, hundreds...).
 *
 * <p>Result types, as DuckDB and Calcite (which types FLOOR and CEIL itself, they are its own
 * syntax): integers keep their type (the value is the argument: no kernel runs), REAL and DOUBLE
 * stay floating, {@code DECIMAL(p,s)} becomes {@code DECIMAL(p,0)}, or for {@code trunc(x, d)}
 * {@code DECIMAL(p, min(max(d,0), s))}. DuckDB 2.0 gives DOUBLE for floor and ceil of an integer;
 * Quiver keeps the integer, as Calcite types it. For {@code trunc(x, d)} with {@code d < 0} TINYINT
 * and SMALLINT are computed as INTEGER.
 */
final class Rounding extends DeclaredFunction {
  enum Mode {
    FLOOR,
    CEIL,
    TRUNC
  }

  private final Mode mode;

  Rounding(Mode mode) {
    super(
        mode.name().toLowerCase(java.util.Locale.ROOT),
        mode == Mode.CEIL ? List.of("ceiling") : List.of(),
        1,
        mode == Mode.TRUNC ? 2 : 1,
        mode == Mode.TRUNC
            ? "trunc(number [, integer literal])"
            : mode.name().toLowerCase(java.util.Locale.ROOT) + "(number)");
    this.mode = mode;
  }

  @Override
  public Signature resolve(List<Expr> args) {
    SqlType type = args.get(0).sqlType();
    if (!type.isNumeric()) {
      return null;
    }
    if (args.size() == 1) {
      SqlType result = type.isDecimal() ? SqlType.decimal(type.precision(), 0) : type;
      return new Signature(result, List.of(type));
    }
    SqlType digitsType = args.get(1).sqlType();
    if (!digitsType.isInteger() || digits(args.get(1)) == null) {
      return null;
    }
    int d = digits(args.get(1));
    if (type.isDecimal()) {
      int scale = Math.min(Math.max(d, 0), type.scale());
      return new Signature(SqlType.decimal(type.precision(), scale), List.of(type, digitsType));
    }
    if (type.isInteger() && d < 0 && type.precision() < SqlType.INTEGER.precision()) {
      type = SqlType.INTEGER;
    }
    return new Signature(type, List.of(type, digitsType));
  }

  /** The value of an integer literal, clamped to [-100, 100]; null when not a literal. */
  private static Integer digits(Expr arg) {
    Object value = Kernels.literalValue(arg);
    if (!(value instanceof Number)) {
      return null;
    }
    return (int) Math.max(-100, Math.min(100, ((Number) value).longValue()));
  }

  @Override
  public Eval kernel(FunctionCall call, Eval[] args) {
    SqlType input = args[0].type; // not `type`: inside an Eval that is the result type
    int d = call.args().size() == 2 ? digits(call.arg(1)) : 0;
    if (input.isInteger() && d >= 0) {
      return args[0]; // an integer is its own floor, ceiling and truncation
    }
    Eval[] operands = {args[0]};
    return new FixedResultEval(call, operands) {
      private final Int128 x = new Int128();

      @Override
      protected void compute(EvalContext ctx, Col[] values, FieldVector out, Selection rows) {
        ArrowBuf o = out.getDataBuffer();
        switch (input.kind()) {
          case INTEGER:
          case BIGINT:
            truncIntegers(values[0], o, rows, input.kind() == SqlType.Kind.BIGINT, -d);
            break;
          case REAL:
          case DOUBLE:
            floating(values[0], o, rows, input.kind() == SqlType.Kind.DOUBLE, d);
            break;
          case DECIMAL:
            decimal(values[0], o, rows, x, input.scale(), d, call.sqlType().scale());
            break;
          default:
            throw new IllegalStateException("no " + call.name() + " for " + input);
        }
      }
    };
  }

  /** Integers with their last {@code drop} digits set to zero (drop > 0). */
  private static void truncIntegers(Col in, ArrowBuf o, Selection rows, boolean wide, int drop) {
    long power = 0; // 10^drop, or 0 when it exceeds every BIGINT (the result is then 0)
    if (drop <= 18) {
      power = 1;
      for (int j = 0; j < drop; j++) {
        power *= 10;
      }
    }
    int[] selected = rows.rows();
    for (int k = 0, n = rows.size(); k < n; k++) {
      int i = selected[k];
      if (wide) {
        long v = Kernels.getLong(in, i);
        o.setLong((long) i << 3, power == 0 ? 0 : v - v % power);
      } else {
        long v = Kernels.getInt(in, i);
        o.setInt((long) i << 2, (int) (power == 0 ? 0 : v - v % power));
      }
    }
  }

  private void floating(Col in, ArrowBuf o, Selection rows, boolean isDouble, int d) {
    double scale = Math.pow(10, d);
    int[] selected = rows.rows();
    for (int k = 0, n = rows.size(); k < n; k++) {
      int i = selected[k];
      double v = isDouble ? Kernels.getDouble(in, i) : in.data.getFloat((long) (i & in.mask) << 2);
      double r;
      if (d == 0) {
        r = round(v);
      } else {
        r = round(v * scale) / scale;
      }
      if (isDouble) {
        o.setDouble((long) i << 3, r);
      } else {
        o.setFloat((long) i << 2, (float) r);
      }
    }
  }

  private double round(double v) {
    switch (mode) {
      case FLOOR:
        return Math.floor(v);
      case CEIL:
        return Math.ceil(v);
      default:
        return v < 0 ? Math.ceil(v) : Math.floor(v);
    }
  }

  /**
   * Decimals at {@code scale} cut to {@code d} decimals and stored at {@code resultScale}: the last
   * {@code scale - d} digits are divided away, rounded by the mode, and, for {@code d < 0}, the
   * zeros put back ({@code resultScale} is then 0). The result never has more digits than the input
   * type's precision allows, so no overflow check is needed.
   */
  private void decimal(
      Col in, ArrowBuf o, Selection rows, Int128 x, int scale, int d, int resultScale) {
    int drop = scale - d;
    int restore = resultScale - d;
    int[] selected = rows.rows();
    for (int k = 0, n = rows.size(); k < n; k++) {
      int i = selected[k];
      x.load(in.data, i & in.mask);
      if (drop > 0) {
        boolean negative = x.hi < 0;
        boolean inexact = x.divideByPowerOfTen(Math.min(drop, 39));
        if (inexact && mode == Mode.FLOOR && negative) {
          x.add(-1);
        } else if (inexact && mode == Mode.CEIL && !negative) {
          x.add(1);
        }
        if (restore > 0 && !x.isZero()) {
          x.scaleUp(restore);
        }
      }
      x.store(o, i);
    }
  }
}
