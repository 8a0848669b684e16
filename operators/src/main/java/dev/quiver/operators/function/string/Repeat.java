package dev.quiver.operators.function.string;

import dev.quiver.operators.expr.Col;
import dev.quiver.operators.expr.Errors;
import dev.quiver.operators.expr.Eval;
import dev.quiver.operators.expr.EvalContext;
import dev.quiver.operators.expr.Selection;
import dev.quiver.operators.expr.Utf8Writer;
import dev.quiver.operators.function.Kernels;
import dev.quiver.operators.function.StringResultEval;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.FunctionCall;
import dev.quiver.plan.expr.Signature;
import dev.quiver.plan.type.SqlType;
import java.util.List;

/**
 * {@code repeat(s, n)}: {@code s} written {@code n} times; '' for {@code n <= 0}. A result over
 * {@link #MAX_BYTES} is an INVALID_ARGUMENT error rather than an out-of-memory failure.
 */
final class Repeat extends StringFunction {
  /** The largest result, in bytes (Arrow's 32-bit offsets allow 2 GiB per batch). */
  static final long MAX_BYTES = 1L << 28;

  Repeat() {
    super("repeat", List.of(), 2, 2, "repeat(string, count)");
  }

  @Override
  public Signature resolve(List<Expr> args) {
    return isString(args, 0) && isInteger(args, 1)
        ? new Signature(SqlType.VARCHAR, List.of(SqlType.VARCHAR, SqlType.BIGINT))
        : null;
  }

  @Override
  public Eval kernel(FunctionCall call, Eval[] args) {
    return new StringResultEval(call, args) {
      @Override
      protected void write(EvalContext ctx, Utf8Writer writer, Col[] values, Selection rows) {
        Col s = values[0];
        int[] selected = rows.rows();
        for (int k = 0, n = rows.size(); k < n; k++) {
          int i = selected[k];
          long times = Kernels.getLong(values[1], i);
          int start = s.start(i);
          int length = s.end(i) - start;
          writer.begin(i);
          if (times > 0 && length > 0) {
            if (times > MAX_BYTES / length) {
              throw Errors.invalidArgument(
                  text, i, "repeat result of " + times + " x " + length + " bytes is too large");
            }
            for (long t = 0; t < times; t++) {
              writer.append(s.data, start, length);
            }
          }
          writer.commit(i);
        }
      }
    };
  }
}
