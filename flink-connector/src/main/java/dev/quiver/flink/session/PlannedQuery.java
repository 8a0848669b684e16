package dev.quiver.flink.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.node.PlanNode;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A SQL query a session has planned and not run yet ({@link QuiverSession#prepare}): its text and
 * its output schema. {@link QuiverSession#run} starts it as a job, as many times as asked, each
 * without planning again. It holds no resources.
 */
public final class PlannedQuery {
  private final String sql;
  private final PlanNode plan;

  PlannedQuery(String sql, PlanNode plan) {
    this.sql = requireNonNull(sql, "sql is null");
    this.plan = requireNonNull(plan, "plan is null");
  }

  /** The query's text. */
  public String sql() {
    return sql;
  }

  /** The output columns, named as the query names them. */
  public Schema schema() {
    return plan.arrowSchema();
  }

  PlanNode plan() {
    return plan;
  }
}
