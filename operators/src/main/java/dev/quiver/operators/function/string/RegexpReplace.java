package dev.quiver.operators.function.string;

import dev.quiver.operators.expr.Col;
import dev.quiver.operators.expr.Errors;
import dev.quiver.operators.expr.Eval;
import dev.quiver.operators.expr.EvalContext;
import dev.quiver.operators.expr.Selection;
import dev.quiver.operators.expr.Utf8Writer;
import dev.quiver.operators.function.StringResultEval;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.FunctionCall;
import dev.quiver.plan.expr.Signature;
import dev.quiver.plan.type.SqlType;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;

/**
 * {@code regexp_replace(s, pattern, replacement [, options])}, as in DuckDB: the first match (every
 * match with the option 'g') replaced. The replacement is RE2's: {@code \0} to {@code \9} insert a
 * capture group ('' for a group that did not take part), {@code \\} a backslash; {@code $} is plain
 * text (unlike Java's {@code Matcher.replaceAll}); another character after a backslash, or a group
 * the pattern does not have, is an INVALID_ARGUMENT error. See {@link Regex} for how Java's regex
 * differs from RE2.
 */
final class RegexpReplace extends StringFunction {
  RegexpReplace() {
    super(
        "regexp_replace",
        List.of(),
        3,
        4,
        "regexp_replace(string, pattern, replacement [, options])");
  }

  @Override
  public Signature resolve(List<Expr> args) {
    for (int i = 0; i < args.size(); i++) {
      if (!isString(args, i)) {
        return null;
      }
    }
    if (args.size() == 4 && !Regex.isLiteral(args.get(3))) {
      return null;
    }
    return new Signature(SqlType.VARCHAR, Collections.nCopies(args.size(), SqlType.VARCHAR));
  }

  @Override
  public Eval kernel(FunctionCall call, Eval[] args) {
    String text = call.toString();
    Expr options = call.args().size() > 3 ? call.arg(3) : null;
    Regex regex = new Regex(text, call.arg(1), Regex.flags(options, true, text));
    boolean global = Regex.global(options);
    return new StringResultEval(call, args) {
      @Override
      protected void write(EvalContext ctx, Utf8Writer writer, Col[] values, Selection rows) {
        Col s = values[0];
        Col replacement = values[2];
        Regex.Cursor cursor = regex.cursor();
        int[] selected = rows.rows();
        for (int k = 0, n = rows.size(); k < n; k++) {
          int i = selected[k];
          Matcher matcher = cursor.matcher(s, values[1], i);
          check(replacement, i, matcher.groupCount(), text);
          int start = s.start(i);
          int done = 0; // chars of s written
          writer.begin(i);
          while (matcher.find()) {
            int from = cursor.chars.byteOffset(done);
            writer.append(s.data, start + from, cursor.chars.byteOffset(matcher.start()) - from);
            rewrite(writer, replacement, i, s, start, matcher, cursor.chars);
            done = matcher.end();
            if (!global) {
              break;
            }
          }
          int from = cursor.chars.byteOffset(done);
          writer.append(s.data, start + from, s.end(i) - start - from);
          writer.commit(i);
        }
      }
    };
  }

  /** Fails unless every backslash of the replacement is followed by a group number or one. */
  private static void check(Col replacement, int row, int groups, String text) {
    for (int at = replacement.start(row), end = replacement.end(row); at < end; at++) {
      if (replacement.data.getByte(at) != '\\') {
        continue;
      }
      int next = at + 1 < end ? replacement.data.getByte(at + 1) : -1;
      if (next >= '0' && next <= '9') {
        if (next - '0' > groups) {
          throw Errors.invalidArgument(
              text,
              row,
              "the replacement refers to group " + (char) next + " but the pattern has " + groups);
        }
      } else if (next != '\\') {
        throw Errors.invalidArgument(
            text, row, "in a replacement '\\' must be followed by a digit or '\\'");
      }
      at++;
    }
  }

  /** Writes the replacement of the current match (checked by {@link #check}). */
  private static void rewrite(
      Utf8Writer writer,
      Col replacement,
      int row,
      Col s,
      int sStart,
      Matcher matcher,
      Utf8Chars chars) {
    int plain = replacement.start(row);
    int end = replacement.end(row);
    for (int at = plain; at < end; at++) {
      if (replacement.data.getByte(at) != '\\') {
        continue;
      }
      writer.append(replacement.data, plain, at - plain);
      int next = replacement.data.getByte(at + 1);
      if (next == '\\') {
        writer.appendByte('\\');
      } else {
        int group = next - '0';
        if (matcher.start(group) >= 0) {
          int from = chars.byteOffset(matcher.start(group));
          writer.append(s.data, sStart + from, chars.byteOffset(matcher.end(group)) - from);
        }
      }
      at++;
      plain = at + 1;
    }
    writer.append(replacement.data, plain, end - plain);
  }
}
