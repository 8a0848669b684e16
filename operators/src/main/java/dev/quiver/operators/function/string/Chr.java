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
 * {@code chr(n)}: the character with code point {@code n}. A value that is not a Unicode scalar
 * value (negative, a surrogate, above U+10FFFF) is an INVALID_ARGUMENT error, as in DuckDB. Any
 * integer type is accepted (DuckDB takes only INTEGER).
 */
final class Chr extends StringFunction {
  Chr() {
    super("chr", List.of(), 1, 1, "chr(code_point)");
  }

  @Override
  public Signature resolve(List<Expr> args) {
    return isInteger(args, 0) ? new Signature(SqlType.VARCHAR, List.of(SqlType.BIGINT)) : null;
  }

  @Override
  public Eval kernel(FunctionCall call, Eval[] args) {
    return new StringResultEval(call, args) {
      @Override
      protected void write(EvalContext ctx, Utf8Writer writer, Col[] values, Selection rows) {
        int[] selected = rows.rows();
        for (int k = 0, n = rows.size(); k < n; k++) {
          int i = selected[k];
          long cp = Kernels.getLong(values[0], i);
          if (cp < 0 || cp > Character.MAX_CODE_POINT || (cp >= 0xD800 && cp <= 0xDFFF)) {
            throw Errors.invalidArgument(text, i, "invalid code point " + cp);
          }
          writer.begin(i);
          writer.appendCodePoint((int) cp);
          writer.commit(i);
        }
      }
    };
  }
}
