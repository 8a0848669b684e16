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
import dev.quiver.plan.expr.Signature;
import dev.quiver.plan.type.SqlType;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;

/**
 * {@code sign(x)}: -1, 0 or 1 as a TINYINT (DuckDB's type) for any number; NaN and -0.0 give 0, as
 * in DuckDB. TINYINT and SMALLINT are read as INTEGER, REAL as DOUBLE.
 */
final class Sign extends DeclaredFunction {
  Sign() {
    super("sign", List.of(), 1, 1, "sign(number)");
  }

  @Override
  public Signature resolve(List<Expr> args) {
    SqlType type = args.get(0).sqlType();
    if (type.isInteger()) {
      type = type.kind() == SqlType.Kind.BIGINT ? SqlType.BIGINT : SqlType.INTEGER;
    } else if (type.isFloatingPoint()) {
      type = SqlType.DOUBLE;
    } else if (!type.isDecimal()) {
      return null;
    }
    return new Signature(SqlType.TINYINT, List.of(type));
  }

  @Override
  public Eval kernel(FunctionCall call, Eval[] args) {
    SqlType.Kind kind = args[0].type.kind();
    return new FixedResultEval(call, args) {
      @Override
      protected void compute(EvalContext ctx, Col[] values, FieldVector out, Selection rows) {
        Col x = values[0];
        ArrowBuf o = out.getDataBuffer();
        int[] selected = rows.rows();
        int n = rows.size();
        switch (kind) {
          case INTEGER:
            for (int k = 0; k < n; k++) {
              int i = selected[k];
              o.setByte(i, Integer.signum(Kernels.getInt(x, i)));
            }
            break;
          case BIGINT:
            for (int k = 0; k < n; k++) {
              int i = selected[k];
              o.setByte(i, Long.signum(Kernels.getLong(x, i)));
            }
            break;
          case DOUBLE:
            for (int k = 0; k < n; k++) {
              int i = selected[k];
              double v = Kernels.getDouble(x, i);
              o.setByte(i, v > 0 ? 1 : v < 0 ? -1 : 0);
            }
            break;
          default: // DECIMAL: the sign of the high word, or of the low word when that is zero
            for (int k = 0; k < n; k++) {
              int i = selected[k];
              long at = (long) (i & x.mask) << 4;
              long hi = x.data.getLong(at + 8);
              o.setByte(i, hi != 0 ? Long.signum(hi) : x.data.getLong(at) != 0 ? 1 : 0);
            }
            break;
        }
      }
    };
  }
}
