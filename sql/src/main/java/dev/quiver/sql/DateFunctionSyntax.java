package dev.quiver.sql;

import java.util.List;
import java.util.Locale;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * The date function forms Calcite's Babel parser reads with its own grammar, rewritten before
 * validation into the library's functions:
 *
 * <pre>
 *   DATEDIFF(unit, start, end)    (SQL Server, Snowflake)   ─►  date_diff('unit', start, end)
 *   DATE_DIFF(end, start, unit)   (BigQuery: end - start)   ─►  date_diff('unit', start, end)
 *   date_add(d, x)                (DuckDB)                  ─►  d + x
 * </pre>
 *
 * The unit is a bare word there ({@code day}, {@code month} ...), which the grammar turns into an
 * interval qualifier (or an identifier for a word that is not a time unit, left for {@code
 * date_diff} to accept or reject); {@code date_diff} counts the unit's boundaries crossed, as
 * DuckDB's does.
 *
 * <p>DuckDB's own form, {@code date_diff('day', start, end)} or {@code datediff('day', ...)}, does
 * not parse: the grammar wants a bare word first. {@link #unquoteUnits} rewrites the text before it
 * is parsed into the SQL Server form, {@code datediff( day , start, end)}, keeping every
 * character's position (the quotes become spaces, {@code date_diff} becomes {@code datediff} and a
 * space), so that parse errors still point at the user's text.
 */
final class DateFunctionSyntax extends SqlShuttle {
  private static final DateFunctionSyntax INSTANCE = new DateFunctionSyntax();

  private DateFunctionSyntax() {}

  static SqlNode rewrite(SqlNode statement) {
    return statement.accept(INSTANCE);
  }

  /**
   * {@code sql} with each {@code date_diff('unit',} / {@code datediff('unit',} (any case, outside
   * string literals, quoted identifiers and comments) written {@code datediff( unit ,}, of the same
   * length; a unit that is not one word of letters is left as it is.
   */
  static String unquoteUnits(String sql) {
    StringBuilder out = null;
    int n = sql.length();
    int i = 0;
    while (i < n) {
      char c = sql.charAt(i);
      if (c == '\'' || c == '"' || c == '`') {
        int close = sql.indexOf(c, i + 1);
        while (close >= 0 && close + 1 < n && sql.charAt(close + 1) == c) {
          close = sql.indexOf(c, close + 2); // a doubled quote inside
        }
        i = close < 0 ? n : close + 1;
      } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
        int end = sql.indexOf('\n', i);
        i = end < 0 ? n : end + 1;
      } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
        int end = sql.indexOf("*/", i + 2);
        i = end < 0 ? n : end + 2;
      } else if (Character.isLetter(c) || c == '_') {
        int start = i;
        while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_')) {
          i++;
        }
        String word = sql.substring(start, i).toLowerCase(Locale.ROOT);
        int[] unit =
            word.equals("date_diff") || word.equals("datediff") ? quotedUnit(sql, i) : null;
        if (unit != null) {
          if (out == null) {
            out = new StringBuilder(sql);
          }
          out.replace(start, i, word.equals("date_diff") ? "datediff " : "datediff");
          out.setCharAt(unit[0], ' ');
          out.setCharAt(unit[1], ' ');
        }
      } else {
        i++;
      }
    }
    return out == null ? sql : out.toString();
  }

  /**
   * The positions of the quotes around {@code 'word'} when {@code sql} continues at {@code from}
   * with {@code (}, the quoted word of letters and a comma (spaces allowed between), else null.
   */
  private static int[] quotedUnit(String sql, int from) {
    int i = skipSpaces(sql, from);
    if (i >= sql.length() || sql.charAt(i) != '(') {
      return null;
    }
    int open = skipSpaces(sql, i + 1);
    if (open >= sql.length() || sql.charAt(open) != '\'') {
      return null;
    }
    int close = open + 1;
    while (close < sql.length() && Character.isLetter(sql.charAt(close))) {
      close++;
    }
    if (close == open + 1 || close >= sql.length() || sql.charAt(close) != '\'') {
      return null;
    }
    int comma = skipSpaces(sql, close + 1);
    return comma < sql.length() && sql.charAt(comma) == ',' ? new int[] {open, close} : null;
  }

  private static int skipSpaces(String sql, int from) {
    int i = from;
    while (i < sql.length() && Character.isWhitespace(sql.charAt(i))) {
      i++;
    }
    return i;
  }

  @Override
  public SqlNode visit(SqlCall call) {
    SqlCall rewritten = rewriteCall(call);
    return super.visit(rewritten);
  }

  private static SqlCall rewriteCall(SqlCall call) {
    String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
    List<SqlNode> operands = call.getOperandList();
    SqlParserPos pos = call.getParserPosition();
    if (name.equals("DATEDIFF") && operands.size() == 3) {
      String unit = unitName(operands.get(0));
      if (unit != null) {
        return dateDiff(unit, operands.get(0), operands.get(1), operands.get(2), pos);
      }
    } else if (name.equals("DATE_DIFF") && operands.size() == 3) {
      String unit = unitName(operands.get(2));
      if (unit != null) {
        return dateDiff(unit, operands.get(2), operands.get(1), operands.get(0), pos);
      }
    } else if (name.equals("DATE_ADD") && operands.size() == 2) {
      return SqlStdOperatorTable.PLUS.createCall(pos, operands.get(0), operands.get(1));
    }
    return call;
  }

  /** The unit a bare word stands for, or null if {@code node} is not one. */
  private static String unitName(SqlNode node) {
    if (node instanceof SqlIntervalQualifier qualifier) {
      return qualifier.timeUnitRange.name().toLowerCase(Locale.ROOT);
    }
    if (node instanceof SqlIdentifier identifier && identifier.isSimple()) {
      return identifier.getSimple().toLowerCase(Locale.ROOT);
    }
    return null;
  }

  private static SqlCall dateDiff(
      String unit, SqlNode unitNode, SqlNode start, SqlNode end, SqlParserPos pos) {
    SqlLiteral unitName = SqlLiteral.createCharString(unit, unitNode.getParserPosition());
    return LibraryFunctions.INSTANCE.operator("date_diff").createCall(pos, unitName, start, end);
  }
}
