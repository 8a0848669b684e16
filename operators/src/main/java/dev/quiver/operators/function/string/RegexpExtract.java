package dev.quiver.operators.function.string;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.expr.Col;
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
import java.util.regex.Matcher;

/**
 * {@code regexp_extract(s, pattern [, group])}, as in DuckDB: the text of capture group {@code
 * group} (a literal from 0 to 9; 0, the default, is the whole match) of the first match, and ''
 * when nothing matches, the group did not take part or the pattern has fewer groups. See {@link
 * Regex} for how Java's regex differs from RE2.
 */
final class RegexpExtract extends StringFunction {
  RegexpExtract() {
    super("regexp_extract", List.of(), 2, 3, "regexp_extract(string, pattern [, group])");
  }

  @Override
  public Signature resolve(List<Expr> args) {
    if (!isString(args, 0) || !isString(args, 1)) {
      return null;
    }
    if (args.size() == 3) {
      return isInteger(args, 2) && Kernels.literalValue(args.get(2)) != null
          ? new Signature(
              SqlType.VARCHAR, List.of(SqlType.VARCHAR, SqlType.VARCHAR, SqlType.BIGINT))
          : null;
    }
    return new Signature(SqlType.VARCHAR, List.of(SqlType.VARCHAR, SqlType.VARCHAR));
  }

  @Override
  public Eval kernel(FunctionCall call, Eval[] args) {
    String text = call.toString();
    long group =
        call.args().size() > 2 ? ((Number) Kernels.literalValue(call.arg(2))).longValue() : 0;
    if (group < 0 || group > 9) {
      throw new QuiverException(
          ErrorCode.INVALID_ARGUMENT,
          "the group of regexp_extract must be between 0 and 9, not " + group + ", in " + text);
    }
    Regex regex = new Regex(text, call.arg(1), Regex.flags(null, false, text));
    return new StringResultEval(call, args) {
      @Override
      protected void write(EvalContext ctx, Utf8Writer writer, Col[] values, Selection rows) {
        Col s = values[0];
        Regex.Cursor cursor = regex.cursor();
        int[] selected = rows.rows();
        for (int k = 0, n = rows.size(); k < n; k++) {
          int i = selected[k];
          Matcher matcher = cursor.matcher(s, values[1], i);
          writer.begin(i);
          if (matcher.find() && group <= matcher.groupCount() && matcher.start((int) group) >= 0) {
            int from = cursor.chars.byteOffset(matcher.start((int) group));
            int to = cursor.chars.byteOffset(matcher.end((int) group));
            writer.append(s.data, s.start(i) + from, to - from);
          }
          writer.commit(i);
        }
      }
    };
  }
}
