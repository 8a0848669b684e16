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
 * distributed-correctness rewrites, in order, then the cuts above subplans computed more than once
 * ({@link SharedSubplans}), then the cut at exchanges ({@link StageCutter}), which also assigns
 * each scan task its split units and makes equal stages one.
 *
 * <pre>
 *   plan ─► enforce distribution ─► rewrite 1 ─► ... ─► share subplans ─► cut at exchanges ─► stages
 * </pre>
 *
 * {@link #withoutRewrites()} skips the rewrites (not the enforcement, without which a plan is not
 * runnable), so a test can run the plan as written and show the wrong answer a rewrite prevents.
 */
public final class StagePlanner {
  private final EnforceDistribution enforce;
  private final List<PlanRewrite> rewrites;
  private final SharedSubplans sharing; // null: every occurrence of a subplan is its own stage

  /** A planner whose hash exchanges keep the partition counts the plan's inputs already have. */
  public StagePlanner(List<PlanRewrite> rewrites) {
    this(EnforceDistribution.atInputPartitions(), rewrites);
  }

  public StagePlanner(EnforceDistribution enforce, List<PlanRewrite> rewrites) {
    this(enforce, rewrites, new SharedSubplans());
  }

  private StagePlanner(
      EnforceDistribution enforce, List<PlanRewrite> rewrites, SharedSubplans sharing) {
    this.enforce = requireNonNull(enforce, "enforce is null");
    this.rewrites = List.copyOf(requireNonNull(rewrites, "rewrites is null"));
    this.sharing = sharing;
  }

  /** A planner with {@link Rewrites#defaults()}. */
  public static StagePlanner withDefaultRewrites() {
    return new StagePlanner(Rewrites.defaults());
  }

  /** A planner that cuts plans exactly as written. */
  public static StagePlanner withoutRewrites() {
    return new StagePlanner(List.of());
  }

  /**
   * The same planner without shared stages: a subplan that occurs several times is cut into stages
   * at each occurrence, and the stage graph is a tree (to compare, and for tests).
   */
  public StagePlanner withoutSharing() {
    return new StagePlanner(enforce, rewrites, null);
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

  /**
   * The rewritten plan cut into stages; a subplan worth computing once ({@link SharedSubplans})
   * becomes one stage read by each of its consumers.
   */
  public StageGraph plan(PlanNode plan) {
    PlanNode rewritten = rewrite(plan);
    return sharing == null
        ? StageCutter.cut(rewritten)
        : StageCutter.cutSharing(sharing.apply(rewritten));
  }
}
