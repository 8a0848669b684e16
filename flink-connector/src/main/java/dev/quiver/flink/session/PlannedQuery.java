package dev.quiver.flink.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.node.PlanNode;
import dev.quiver.stage.UnboundedInputs;
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

  /**
   * The output columns, named as the query names them; an updating result's start with {@code op},
   * the row kind ({@link SqlResult#changelog()}).
   */
  public Schema schema() {
    return changelog() ? ChangelogBatches.schema(plan.arrowSchema()) : plan.arrowSchema();
  }

  /** Whether the result is updating, a changelog ({@link SqlResult#changelog()}). */
  public boolean changelog() {
    return UnboundedInputs.isChangelog(plan);
  }

  PlanNode plan() {
    return plan;
  }
}
