package dev.quiver.stage;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.rewrite.PlanRewrite;
import dev.quiver.plan.rewrite.Rewrites;
import java.util.List;

/**
 * Turns a physical plan into a {@link StageGraph}: first the distributed-correctness rewrites, in
 * order, then the cut at exchanges ({@link StageCutter}), which also assigns each scan task its
 * split units.
 *
 * <pre>
 *   plan ─► rewrite 1 ─► rewrite 2 ─► ... ─► cut at exchanges ─► stages in topological order
 * </pre>
 *
 * {@link #withoutRewrites()} skips the rewrites, so a test can run the plan as written and show the
 * wrong answer a rewrite prevents.
 */
public final class StagePlanner {
  private final List<PlanRewrite> rewrites;

  public StagePlanner(List<PlanRewrite> rewrites) {
    this.rewrites = List.copyOf(requireNonNull(rewrites, "rewrites is null"));
  }

  /** A planner with {@link Rewrites#defaults()}. */
  public static StagePlanner withDefaultRewrites() {
    return new StagePlanner(Rewrites.defaults());
  }

  /** A planner that cuts plans exactly as written. */
  public static StagePlanner withoutRewrites() {
    return new StagePlanner(List.of());
  }

  public List<PlanRewrite> rewrites() {
    return rewrites;
  }

  /** The plan after every rewrite of this planner. */
  public PlanNode rewrite(PlanNode plan) {
    requireNonNull(plan, "plan is null");
    PlanNode result = plan;
    for (PlanRewrite rewrite : rewrites) {
      result = requireNonNull(rewrite.apply(result), rewrite.name() + " returned null");
    }
    return result;
  }

  /** The rewritten plan cut into stages. */
  public StageGraph plan(PlanNode plan) {
    return StageCutter.cut(rewrite(plan));
  }
}
