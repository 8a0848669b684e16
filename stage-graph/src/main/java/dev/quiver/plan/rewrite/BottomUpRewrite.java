package dev.quiver.plan.rewrite;

import dev.quiver.plan.node.DefaultPlanVisitor;
import dev.quiver.plan.node.PlanNode;

/**
 * A rewrite that is a rule for a few node types, applied to every node of the plan children first
 * by {@link BottomUp}; every other node is left as it is.
 *
 * <p>Why: each rewrite only decides what happens to the nodes it cares about; how the plan is
 * walked and rebuilt is the same for all of them and lives here and in {@link BottomUp}.
 */
public abstract class BottomUpRewrite extends DefaultPlanVisitor<PlanNode> implements PlanRewrite {
  @Override
  public final PlanNode apply(PlanNode plan) {
    return BottomUp.apply(plan, node -> node.accept(this));
  }

  @Override
  protected final PlanNode visitDefault(PlanNode node) {
    return node;
  }
}
