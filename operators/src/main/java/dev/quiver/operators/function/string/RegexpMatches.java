package dev.quiver.operators.function.string;

import dev.quiver.operators.expr.Bitmaps;
import dev.quiver.operators.expr.Col;
import dev.quiver.operators.expr.Eval;
import dev.quiver.operators.expr.EvalContext;
import dev.quiver.operators.expr.Selection;
import dev.quiver.operators.function.FixedResultEval;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.FunctionCall;
import dev.quiver.plan.expr.Signature;
import dev.quiver.plan.type.SqlType;
import java.util.Collections;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;

/**
 * {@code regexp_matches(s, pattern [, options])}: whether the pattern matches anywhere in {@code s}
 * (anchor it with ^ and $ for the whole string), as in DuckDB. The options are a literal of
 * DuckDB's letters ({@link Regex#flags}); see {@link Regex} for how Java's regex differs from RE2.
 */
final class RegexpMatches extends StringFunction {
  RegexpMatches() {
    super("regexp_matches", List.of(), 2, 3, "regexp_matches(string, pattern [, options])");
  }

  @Override
  public Signature resolve(List<Expr> args) {
    for (int i = 0; i < args.size(); i++) {
      if (!isString(args, i)) {
        return null;
      }
    }
    if (args.size() == 3 && !Regex.isLiteral(args.get(2))) {
      return null;
    }
    return new Signature(SqlType.BOOLEAN, Collections.nCopies(args.size(), SqlType.VARCHAR));
  }

  @Override
  public Eval kernel(FunctionCall call, Eval[] args) {
    String text = call.toString();
    Expr options = call.args().size() > 2 ? call.arg(2) : null;
    Regex regex = new Regex(text, call.arg(1), Regex.flags(options, false, text));
    return new FixedResultEval(call, args) {
      @Override
      protected void compute(EvalContext ctx, Col[] values, FieldVector out, Selection rows) {
        Regex.Cursor cursor = regex.cursor();
        ArrowBuf data = out.getDataBuffer();
        int[] selected = rows.rows();
        for (int k = 0, n = rows.size(); k < n; k++) {
          int i = selected[k];
          if (cursor.matcher(values[0], values[1], i).find()) {
            Bitmaps.set(data, i);
          }
        }
      }
    };
  }
}
