package dev.quiver.operators.function.math;

import dev.quiver.operators.expr.Col;
import dev.quiver.operators.expr.Eval;
import dev.quiver.operators.expr.EvalContext;
import dev.quiver.operators.expr.Selection;
import dev.quiver.operators.function.DeclaredFunction;
import dev.quiver.operators.function.FixedResultEval;
import dev.quiver.operators.function.Kernels;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.FunctionCall;
import dev.quiver.plan.expr.Literal;
import dev.quiver.plan.expr.Signature;
import dev.quiver.plan.type.SqlType;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;

/**
 * The DOUBLE functions of numbers: {@code sqrt}, {@code cbrt}, {@code exp}, {@code ln}, {@code
 * log10}, {@code log(x)} (base 10, as DuckDB), {@code log(b, x)} and {@code power(x, y)} (alias
 * {@code pow}). Any numeric argument is cast to DOUBLE. As in DuckDB (and IEEE 754), a value
 * outside the domain is not an error: {@code sqrt(-1)} and {@code ln(-1)} are NaN, {@code ln(0)} is
 * -Infinity, {@code exp(1000)} is Infinity.
 */
final class DoubleFunction extends DeclaredFunction {
  enum Op {
    SQRT,
    CBRT,
    EXP,
    LN,
    LOG10,
    LOG,
    POWER
  }

  private final Op op;

  DoubleFunction(Op op) {
    super(
        op.name().toLowerCase(Locale.ROOT),
        op == Op.POWER ? List.of("pow") : List.of(),
        op == Op.POWER ? 2 : 1,
        op == Op.POWER || op == Op.LOG ? 2 : 1,
        switch (op) {
          case LOG -> "log([base, ] number)";
          case POWER -> "power(base, exponent)";
          default -> op.name().toLowerCase(Locale.ROOT) + "(number)";
        });
    this.op = op;
  }

  @Override
  public Signature resolve(List<Expr> args) {
    for (Expr arg : args) {
      if (!arg.sqlType().isNumeric() && !(arg instanceof Literal && ((Literal) arg).isNull())) {
        return null; // an untyped NULL (a VARCHAR NULL literal) is a NULL DOUBLE
      }
    }
    return new Signature(SqlType.DOUBLE, Collections.nCopies(args.size(), SqlType.DOUBLE));
  }

  @Override
  public Eval kernel(FunctionCall call, Eval[] args) {
    return new FixedResultEval(call, args) {
      @Override
      protected void compute(EvalContext ctx, Col[] values, FieldVector out, Selection rows) {
        ArrowBuf o = out.getDataBuffer();
        if (values.length == 2) {
          binary(values[0], values[1], o, rows);
        } else {
          unary(values[0], o, rows);
        }
      }
    };
  }

  /** One loop per function: the dispatch happens once per batch, not per row. */
  private void unary(Col x, ArrowBuf o, Selection rows) {
    int[] selected = rows.rows();
    int n = rows.size();
    switch (op) {
      case SQRT:
        for (int k = 0; k < n; k++) {
          int i = selected[k];
          o.setDouble((long) i << 3, Math.sqrt(Kernels.getDouble(x, i)));
        }
        break;
      case CBRT:
        for (int k = 0; k < n; k++) {
          int i = selected[k];
          o.setDouble((long) i << 3, Math.cbrt(Kernels.getDouble(x, i)));
        }
        break;
      case EXP:
        for (int k = 0; k < n; k++) {
          int i = selected[k];
          o.setDouble((long) i << 3, Math.exp(Kernels.getDouble(x, i)));
        }
        break;
      case LN:
        for (int k = 0; k < n; k++) {
          int i = selected[k];
          o.setDouble((long) i << 3, Math.log(Kernels.getDouble(x, i)));
        }
        break;
      case LOG10:
      case LOG:
        for (int k = 0; k < n; k++) {
          int i = selected[k];
          o.setDouble((long) i << 3, Math.log10(Kernels.getDouble(x, i)));
        }
        break;
      default:
        throw new IllegalStateException(op + " takes two arguments");
    }
  }

  private void binary(Col a, Col b, ArrowBuf o, Selection rows) {
    int[] selected = rows.rows();
    int n = rows.size();
    if (op == Op.POWER) {
      for (int k = 0; k < n; k++) {
        int i = selected[k];
        o.setDouble((long) i << 3, Math.pow(Kernels.getDouble(a, i), Kernels.getDouble(b, i)));
      }
    } else {
      // log(b, x) = ln(x) / ln(b), as DuckDB computes it: log(1, x) is Infinity, not an error.
      for (int k = 0; k < n; k++) {
        int i = selected[k];
        o.setDouble(
            (long) i << 3, Math.log(Kernels.getDouble(b, i)) / Math.log(Kernels.getDouble(a, i)));
      }
    }
  }
}
