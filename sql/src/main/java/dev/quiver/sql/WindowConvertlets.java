package dev.quiver.sql;

import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.fun.SqlSumAggFunction;
import org.apache.calcite.sql2rel.SqlRexContext;
import org.apache.calcite.sql2rel.SqlRexConvertlet;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;
import org.apache.calcite.sql2rel.StandardConvertletTable;

/**
 * Calcite's standard convertlets, except that window aggregates reach the window operator as they
 * are written. The convertlet table converts an aggregate call only inside OVER (the aggregates of
 * GROUP BY are converted by SqlToRelConverter's own AggConverter), where the standard table would
 *
 * <ul>
 *   <li>expand {@code AVG(x)} into {@code SUM(x) / COUNT(x)} and STDDEV / VAR into sums of squares,
 *       all in the argument's type: integer division for AVG of an integer (DuckDB: a DOUBLE) and
 *       the argument's scale for AVG of a decimal. Kept as one call, AVG gets the window operator's
 *       own AVG with the types of the aggregate AVG ({@link dev.quiver.plan.window.WindowCall});
 *       STDDEV / VAR over a window are then "not supported" instead of wrong.
 *   <li>let SqlToRelConverter wrap {@code SUM(x)} in {@code CASE WHEN COUNT(x) > 0 THEN
 *       CAST($SUM0(x) AS t) END} (it does so for the standard SUM operator only): an extra COUNT
 *       per row and the cast to Calcite's SUM type. The window operator's SUM is NULL over a frame
 *       without non-null values by itself, so SUM becomes {@link #WINDOW_SUM}, the same function
 *       under another instance, and keeps SUM's type (DECIMAL(38, s) for decimals).
 * </ul>
 */
final class WindowConvertlets implements SqlRexConvertletTable {
  static final WindowConvertlets INSTANCE = new WindowConvertlets();

  /** SUM, not identical to {@code SqlStdOperatorTable.SUM}, which alone gets the CASE wrapper. */
  static final SqlSumAggFunction WINDOW_SUM = new SqlSumAggFunction(null);

  private WindowConvertlets() {}

  @Override
  public SqlRexConvertlet get(SqlCall call) {
    switch (call.getKind()) {
      case AVG:
      case STDDEV_POP:
      case STDDEV_SAMP:
      case VAR_POP:
      case VAR_SAMP:
        return StandardConvertletTable.INSTANCE::convertCall;
      case SUM:
        return WindowConvertlets::sum;
      default:
        return StandardConvertletTable.INSTANCE.get(call);
    }
  }

  private static RexNode sum(SqlRexContext context, SqlCall call) {
    RexNode standard = StandardConvertletTable.INSTANCE.convertCall(context, call);
    if (!(standard instanceof RexCall sum) || sum.getOperator() != SqlStdOperatorTable.SUM) {
      return standard;
    }
    return context.getRexBuilder().makeCall(sum.getType(), WINDOW_SUM, sum.getOperands());
  }
}
