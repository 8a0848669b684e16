package dev.quiver.sql;

import java.time.LocalDate;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.util.DateString;

/**
 * {@code CURRENT_DATE} becomes a DATE literal of the day the query is planned, once per query,
 * before the logical rewrites: every row and every task of the query sees the same date (as the
 * standard's "start of the statement" asks), a plan shows the date it ran with, and constant
 * folding treats it as the constant it is. A kernel in the function registry marked
 * non-deterministic would instead read the clock in each task, and two tasks could disagree across
 * midnight. The date is the JVM's local date, as DuckDB's is its session time zone's.
 */
final class CurrentDate {
  private CurrentDate() {}

  /** {@code rel} with every CURRENT_DATE (also inside subqueries) replaced by {@code today}. */
  static RelNode pin(RelNode rel, LocalDate today) {
    RexBuilder rexBuilder = rel.getCluster().getRexBuilder();
    RexNode literal =
        rexBuilder.makeDateLiteral(DateString.fromDaysSinceEpoch((int) today.toEpochDay()));
    RelHomogeneousShuttle relations =
        new RelHomogeneousShuttle() {
          private final RelHomogeneousShuttle self = this;
          private final RexShuttle expressions =
              new RexShuttle() {
                @Override
                public RexNode visitCall(RexCall call) {
                  if (call.getOperator() == SqlStdOperatorTable.CURRENT_DATE) {
                    return literal;
                  }
                  return super.visitCall(call);
                }

                @Override
                public RexNode visitSubQuery(RexSubQuery subQuery) {
                  RexSubQuery visited = (RexSubQuery) super.visitSubQuery(subQuery);
                  return visited.clone(visited.rel.accept(self));
                }
              };

          @Override
          public RelNode visit(RelNode other) {
            return super.visit(other).accept(expressions);
          }
        };
    return rel.accept(relations);
  }
}
