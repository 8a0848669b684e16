package dev.quiver.operators.function.math;

import dev.quiver.operators.expr.Bitmaps;
import dev.quiver.operators.expr.Col;
import dev.quiver.operators.expr.Eval;
import dev.quiver.operators.expr.EvalContext;
import dev.quiver.operators.expr.Int128;
import dev.quiver.operators.expr.Selection;
import dev.quiver.operators.expr.Utf8;
import dev.quiver.operators.expr.Utf8Writer;
import dev.quiver.operators.function.DeclaredFunction;
import dev.quiver.operators.function.StringResultEval;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.FunctionCall;
import dev.quiver.plan.expr.Literal;
import dev.quiver.plan.expr.Signature;
import dev.quiver.plan.type.SqlType;
import dev.quiver.plan.type.TypeRules;
import java.util.Collections;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;

/**
 * {@code greatest(a, b, ...)} and {@code least(a, b, ...)}: the largest (smallest) of the
 * arguments, converted to their common type (numbers, strings, dates, timestamps; decimals of
 * different scales meet at the larger scale). NULL arguments are skipped, as in DuckDB: the result
 * is NULL only when every argument is. Strings compare byte-wise as UTF-8 (code point order),
 * doubles as {@link Double#compare} (NaN is the largest, -0.0 is below 0.0). TINYINT and SMALLINT
 * give an INTEGER.
 */
final class Extremum extends DeclaredFunction {
  private final boolean greatest;

  Extremum(boolean greatest) {
    super(
        greatest ? "greatest" : "least",
        List.of(),
        1,
        Integer.MAX_VALUE,
        (greatest ? "greatest" : "least") + "(value, ...)");
    this.greatest = greatest;
  }

  @Override
  public Signature resolve(List<Expr> args) {
    SqlType common = null;
    for (Expr arg : args) {
      if (arg instanceof Literal && ((Literal) arg).isNull()) {
        continue; // an untyped NULL takes any type
      }
      SqlType type = arg.sqlType();
      common = common == null ? type : TypeRules.commonType(common, type);
      if (common == null) {
        return null;
      }
    }
    if (common == null) {
      common = SqlType.VARCHAR;
    }
    if (common.isInteger() && common.precision() < SqlType.INTEGER.precision()) {
      common = SqlType.INTEGER;
    }
    if (!common.isNumeric() && !common.isDatetime() && common.kind() != SqlType.Kind.VARCHAR) {
      return null;
    }
    return new Signature(common, Collections.nCopies(args.size(), common));
  }

  @Override
  public boolean nullable(List<Expr> args) {
    for (Expr arg : args) {
      if (!arg.nullable()) {
        return false;
      }
    }
    return true;
  }

  @Override
  public boolean propagatesNull() {
    return false;
  }

  @Override
  public Eval kernel(FunctionCall call, Eval[] args) {
    int sign = greatest ? 1 : -1;
    if (call.sqlType().kind() == SqlType.Kind.VARCHAR) {
      return new StringResultEval(call, args, false) {
        @Override
        protected void write(EvalContext ctx, Utf8Writer writer, Col[] values, Selection rows) {
          int[] selected = rows.rows();
          for (int k = 0, n = rows.size(); k < n; k++) {
            int i = selected[k];
            Col best = null;
            for (Col value : values) {
              if (!value.isNull(i) && (best == null || compare(value, best, i) * sign > 0)) {
                best = value;
              }
            }
            if (best != null) {
              writer.begin(i);
              appendValue(writer, best, i);
              writer.commit(i);
            }
          }
        }
      };
    }
    return new FixedExtremum(call, args, sign);
  }

  private static int compare(Col a, Col b, int row) {
    int aStart = a.start(row);
    int bStart = b.start(row);
    return Utf8.compare(a.data, aStart, a.end(row) - aStart, b.data, bStart, b.end(row) - bStart);
  }

  /**
   * Fixed-width values: the result starts NULL and each argument in turn replaces it, column at a
   * time, where it is not NULL and the result is NULL or worse.
   */
  private static final class FixedExtremum extends Eval {
    private final Eval[] args;
    private final int sign;

    FixedExtremum(FunctionCall call, Eval[] args, int sign) {
      super(call.sqlType(), call.toString());
      this.args = args;
      this.sign = sign;
    }

    @Override
    public Col evaluate(EvalContext ctx, Selection selection) {
      FieldVector out = ctx.newVector(field);
      ArrowBuf valid = out.getValidityBuffer();
      ArrowBuf o = out.getDataBuffer();
      int[] selected = selection.rows();
      int n = selection.size();
      for (Eval arg : args) {
        Col x = arg.evaluate(ctx, selection);
        if (x.isNullConstant()) {
          continue;
        }
        switch (type.kind()) {
          case INTEGER:
          case DATE:
            for (int k = 0; k < n; k++) {
              int i = selected[k];
              if (!x.isNull(i)) {
                int v = x.data.getInt((long) (i & x.mask) << 2);
                if (!Bitmaps.get(valid, i)
                    || Integer.compare(v, o.getInt((long) i << 2)) * sign > 0) {
                  o.setInt((long) i << 2, v);
                  Bitmaps.set(valid, i);
                }
              }
            }
            break;
          case BIGINT:
          case TIMESTAMP:
            for (int k = 0; k < n; k++) {
              int i = selected[k];
              if (!x.isNull(i)) {
                long v = x.data.getLong((long) (i & x.mask) << 3);
                if (!Bitmaps.get(valid, i)
                    || Long.compare(v, o.getLong((long) i << 3)) * sign > 0) {
                  o.setLong((long) i << 3, v);
                  Bitmaps.set(valid, i);
                }
              }
            }
            break;
          case REAL:
            for (int k = 0; k < n; k++) {
              int i = selected[k];
              if (!x.isNull(i)) {
                float v = x.data.getFloat((long) (i & x.mask) << 2);
                if (!Bitmaps.get(valid, i)
                    || Float.compare(v, o.getFloat((long) i << 2)) * sign > 0) {
                  o.setFloat((long) i << 2, v);
                  Bitmaps.set(valid, i);
                }
              }
            }
            break;
          case DOUBLE:
            for (int k = 0; k < n; k++) {
              int i = selected[k];
              if (!x.isNull(i)) {
                double v = x.data.getDouble((long) (i & x.mask) << 3);
                if (!Bitmaps.get(valid, i)
                    || Double.compare(v, o.getDouble((long) i << 3)) * sign > 0) {
                  o.setDouble((long) i << 3, v);
                  Bitmaps.set(valid, i);
                }
              }
            }
            break;
          case DECIMAL:
            for (int k = 0; k < n; k++) {
              int i = selected[k];
              if (!x.isNull(i)) {
                long at = (long) (i & x.mask) << 4;
                long lo = x.data.getLong(at);
                long hi = x.data.getLong(at + 8);
                long to = (long) i << 4;
                if (!Bitmaps.get(valid, i)
                    || Int128.compare(hi, lo, o.getLong(to + 8), o.getLong(to)) * sign > 0) {
                  o.setLong(to, lo);
                  o.setLong(to + 8, hi);
                  Bitmaps.set(valid, i);
                }
              }
            }
            break;
          default:
            throw new IllegalStateException("no " + text + " for " + type);
        }
      }
      out.setValueCount(ctx.rows());
      return Col.of(out);
    }
  }
}
