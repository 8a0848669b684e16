package dev.quiver.plan.node;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.join.JoinKind;
import dev.quiver.plan.join.JoinType;
import java.util.Arrays;
import java.util.List;

/**
 * Joins every probe row with every build row and keeps the pairs the optional condition accepts
 * (cross joins, joins without equi keys), as the nested loop join operator takes it. The condition
 * is a BOOLEAN expression over {@code [probe columns][build columns]}; sides and output schema are
 * those of {@link JoinType} (left = probe = child 1, right = build = child 0).
 *
 * <p>Without keys nothing can be partitioned, so every task needs the whole build side: the build
 * input is one partition (a {@link Broadcast}, or one partition made by a single task), which the
 * stage planner sends to every task of the join, exactly like a {@link JoinDistribution#BROADCAST}
 * hash join.
 */
public final class NestedLoopJoin extends PlanNode {
  private static final long serialVersionUID = 1L;

  private final JoinType type;
  private final Expr condition; // null for a cross join

  public NestedLoopJoin(PlanNode build, PlanNode probe, JoinType type, Expr condition) {
    super(
        List.of(requireNonNull(build, "build is null"), requireNonNull(probe, "probe is null")),
        JoinSupport.outputSchema(requireNonNull(type, "type is null"), build, probe),
        partitioning(build, probe, type, condition),
        List.of());
    this.type = type;
    this.condition = condition;
  }

  private static Partitioning partitioning(
      PlanNode build, PlanNode probe, JoinType type, Expr condition) {
    String node = "NestedLoopJoin[" + type + "]";
    if (condition != null) {
      PlanChecks.checkBoolean(condition, node, "condition");
      PlanChecks.checkExpr(condition, probe.schema().concat(build.schema()), node, "condition");
    }
    return JoinSupport.probeSidePartitioning(type, probe);
  }

  /**
   * Fails unless every task sees the whole build input (one partition, or a broadcast). The stage
   * cutter calls this; the pass that enforces distributions broadcasts a build side of several
   * partitions.
   */
  public void checkInputsDistributed() {
    PlanChecks.check(
        build().partitions() == 1,
        "NestedLoopJoin[" + type + "]",
        "the build input has "
            + build().partitions()
            + " partitions; every task needs all of it: broadcast it, or gather it to 1");
  }

  public PlanNode build() {
    return child(0);
  }

  public PlanNode probe() {
    return child(1);
  }

  public JoinType type() {
    return type;
  }

  /** The join kind the operator takes (nested loop joins are never null-aware). */
  public JoinKind kind() {
    return JoinKind.of(type);
  }

  /** The condition over {@code [probe columns][build columns]}, or null for a cross join. */
  public Expr condition() {
    return condition;
  }

  @Override
  protected List<Object> fields() {
    return Arrays.asList(type, condition);
  }

  @Override
  public <R> R accept(PlanVisitor<R> visitor) {
    return visitor.visitNestedLoopJoin(this);
  }

  @Override
  public PlanNode withChildren(List<PlanNode> children) {
    return sameChildren(children)
        ? this
        : new NestedLoopJoin(children.get(0), children.get(1), type, condition);
  }

  /** {@code NestedLoopJoin[LEFT, condition=(#0 < #3)]}. */
  @Override
  public String toString() {
    return "NestedLoopJoin[" + type + (condition == null ? "" : ", condition=" + condition) + "]";
  }
}
