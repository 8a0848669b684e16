package dev.quiver.operators.function;

import dev.quiver.operators.expr.Bitmaps;
import dev.quiver.operators.expr.Col;
import dev.quiver.operators.expr.Eval;
import dev.quiver.operators.expr.EvalContext;
import dev.quiver.operators.expr.Selection;
import dev.quiver.plan.expr.Casts;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.Literal;
import dev.quiver.plan.expr.Signature;
import dev.quiver.plan.type.SqlType;
import dev.quiver.plan.type.SqlType.Kind;
import java.util.Collections;
import java.util.List;

/** What kernels and signatures of library functions share. */
public final class Kernels {
  private Kernels() {}

  /** Each argument evaluated over {@code selection}. */
  public static Col[] evaluate(EvalContext ctx, Eval[] args, Selection selection) {
    Col[] values = new Col[args.length];
    for (int j = 0; j < args.length; j++) {
      values[j] = args[j].evaluate(ctx, selection);
    }
    return values;
  }

  /** Whether a value is the NULL constant (then a null-propagating function is NULL everywhere). */
  public static boolean anyNullConstant(Col[] values) {
    for (Col value : values) {
      if (value.isNullConstant()) {
        return true;
      }
    }
    return false;
  }

  /** The rows of {@code selection} where no value is NULL. */
  public static Selection nonNull(EvalContext ctx, Col[] values, Selection selection) {
    Selection rows = selection;
    for (Col value : values) {
      if (value.mayBeNull) {
        rows = Bitmaps.selectNulls(ctx, value, rows, false);
      }
    }
    return rows;
  }

  public static long getLong(Col col, int row) {
    return col.data.getLong((long) (row & col.mask) << 3);
  }

  public static int getInt(Col col, int row) {
    return col.data.getInt((long) (row & col.mask) << 2);
  }

  public static double getDouble(Col col, int row) {
    return col.data.getDouble((long) (row & col.mask) << 3);
  }

  public static boolean isString(SqlType type) {
    return type.kind() == Kind.VARCHAR;
  }

  /** VARCHAR, or a NULL literal (typed VARCHAR by the planner when untyped). */
  public static boolean allStrings(List<Expr> args) {
    for (Expr arg : args) {
      if (!isString(arg.sqlType())) {
        return false;
      }
    }
    return true;
  }

  /** Strings in (every argument VARCHAR), {@code result} out; or null. */
  public static Signature fromStrings(List<Expr> args, SqlType result) {
    return allStrings(args)
        ? new Signature(result, Collections.nCopies(args.size(), SqlType.VARCHAR))
        : null;
  }

  /** Every argument as text (any type that casts to VARCHAR), a VARCHAR result; or null. */
  public static Signature allAsText(List<Expr> args) {
    for (Expr arg : args) {
      if (!Casts.canCast(arg.sqlType(), SqlType.VARCHAR)) {
        return null;
      }
    }
    return new Signature(SqlType.VARCHAR, Collections.nCopies(args.size(), SqlType.VARCHAR));
  }

  /** The value of a non-NULL literal argument, or null when it is not one. */
  public static Object literalValue(Expr arg) {
    return arg instanceof Literal && !((Literal) arg).isNull() ? ((Literal) arg).value() : null;
  }
}
