package dev.quiver.operators.function.string;

import dev.quiver.operators.expr.Col;
import dev.quiver.operators.expr.Eval;
import dev.quiver.operators.expr.EvalContext;
import dev.quiver.operators.expr.Selection;
import dev.quiver.operators.expr.Utf8;
import dev.quiver.operators.expr.Utf8Writer;
import dev.quiver.operators.function.Kernels;
import dev.quiver.operators.function.StringResultEval;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.FunctionCall;
import dev.quiver.plan.expr.Signature;
import dev.quiver.plan.type.SqlType;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;

/**
 * {@code initcap(s)}: the first character of every word in upper case and the others in lower case,
 * a word being a run of letters and digits (PostgreSQL, Oracle; DuckDB has no initcap). Unlike
 * Calcite's own INITCAP (ASCII only), letters are any Unicode letters, mapped one to one as UPPER
 * and LOWER do ({@link Character#toUpperCase(int)}).
 */
final class Initcap extends StringFunction {
  Initcap() {
    super("initcap", List.of(), 1, 1, "initcap(string)");
  }

  @Override
  public Signature resolve(List<Expr> args) {
    return Kernels.fromStrings(args, SqlType.VARCHAR);
  }

  @Override
  public Eval kernel(FunctionCall call, Eval[] args) {
    return new StringResultEval(call, args) {
      @Override
      protected void write(EvalContext ctx, Utf8Writer writer, Col[] values, Selection rows) {
        Col s = values[0];
        ArrowBuf data = s.data;
        int[] selected = rows.rows();
        for (int k = 0, n = rows.size(); k < n; k++) {
          int i = selected[k];
          writer.begin(i);
          boolean inWord = false;
          for (int at = s.start(i), end = s.end(i); at < end; ) {
            byte lead = data.getByte(at);
            int width = Utf8.width(lead);
            int cp = width == 1 ? lead : Utf8.decode(data, at, width);
            boolean wordChar = Character.isLetterOrDigit(cp);
            int mapped =
                !wordChar ? cp : inWord ? Character.toLowerCase(cp) : Character.toUpperCase(cp);
            if (mapped == cp) {
              writer.append(data, at, width);
            } else {
              writer.appendCodePoint(mapped);
            }
            inWord = wordChar;
            at += width;
          }
          writer.commit(i);
        }
      }
    };
  }
}
