package dev.quiver.sql;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.node.PlanNode;

/**
 * A planned {@code INSERT INTO target SELECT ...}: the table written and the plan of the rows to
 * write. The plan's columns are the target's, in its order, with its names and types (a narrower
 * query column is cast: INTEGER into BIGINT); only nullability may differ, since a query column the
 * planner cannot prove non-NULL may go into a NOT NULL column, and the writer checks each value
 * (Flink SQL's {@code table.exec.sink.not-null-enforcer = ERROR}).
 */
public record InsertPlan(CatalogTable target, PlanNode plan) {
  public InsertPlan {
    requireNonNull(target, "target is null");
    requireNonNull(plan, "plan is null");
  }
}
