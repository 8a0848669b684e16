package dev.quiver.stage;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.distribute.EnforceDistribution;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.rewrite.PlanRewrite;
import dev.quiver.plan.rewrite.Rewrites;
import java.util.List;

/**
 * Turns a physical plan into a {@link StageGraph}, one pass after the other, each returning a
 * runnable plan: first the exchanges every operator needs ({@link EnforceDistribution}), then the
 * distributed-correctness rewrites, in order, then the cut at exchanges ({@link StageCutter}),
 * which also assigns each scan task its split units.
 *
 * <pre>
 *   plan ─► enforce distribution ─► rewrite 1 ─► rewrite 2 ─► ... ─► cut at exchanges ─► stages
 * </pre>
 *
 * {@link #withoutRewrites()} skips the rewrites (not the enforcement, without which a plan is not
 * runnable), so a test can run the plan as written and show the wrong answer a rewrite prevents.
 */
public final class StagePlanner {
  private final EnforceDistribution enforce;
  private final List<PlanRewrite> rewrites;

  /** A planner whose hash exchanges keep the partition counts the plan's inputs already have. */
  public StagePlanner(List<PlanRewrite> rewrites) {
    this(EnforceDistribution.atInputPartitions(), rewrites);
  }

  public StagePlanner(EnforceDistribution enforce, List<PlanRewrite> rewrites) {
    this.enforce = requireNonNull(enforce, "enforce is null");
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

  /** The plan with the exchanges it needs, after every rewrite of this planner. */
  public PlanNode rewrite(PlanNode plan) {
    requireNonNull(plan, "plan is null");
    PlanNode result = enforce.apply(plan);
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
