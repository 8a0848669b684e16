package dev.quiver.sql;

import java.util.List;
import java.util.Locale;
import org.apache.calcite.sql.SqlCall;
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
 * The unit is an identifier there ({@code day}, {@code month} ...), which the grammar turns into an
 * interval qualifier; {@code date_diff} counts the unit's boundaries crossed, as DuckDB's does. The
 * grammar does not accept DuckDB's quoted unit ({@code date_diff('day', a, b)}): that stays a
 * syntax error until Quiver has its own parser.
 */
final class DateFunctionSyntax extends SqlShuttle {
  private static final DateFunctionSyntax INSTANCE = new DateFunctionSyntax();

  private DateFunctionSyntax() {}

  static SqlNode rewrite(SqlNode statement) {
    return statement.accept(INSTANCE);
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
      if (operands.get(0) instanceof SqlIntervalQualifier unit) {
        return dateDiff(unit, operands.get(1), operands.get(2), pos);
      }
    } else if (name.equals("DATE_DIFF") && operands.size() == 3) {
      if (operands.get(2) instanceof SqlIntervalQualifier unit) {
        return dateDiff(unit, operands.get(1), operands.get(0), pos);
      }
    } else if (name.equals("DATE_ADD") && operands.size() == 2) {
      return SqlStdOperatorTable.PLUS.createCall(pos, operands.get(0), operands.get(1));
    }
    return call;
  }

  private static SqlCall dateDiff(
      SqlIntervalQualifier unit, SqlNode start, SqlNode end, SqlParserPos pos) {
    SqlLiteral unitName =
        SqlLiteral.createCharString(
            unit.timeUnitRange.name().toLowerCase(Locale.ROOT), unit.getParserPosition());
    return LibraryFunctions.INSTANCE.operator("date_diff").createCall(pos, unitName, start, end);
  }
}
