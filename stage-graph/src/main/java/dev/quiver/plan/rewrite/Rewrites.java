package dev.quiver.plan.rewrite;

import java.util.List;

/** The standard rewrites, in the order a planner runs them. */
public final class Rewrites {
  private Rewrites() {}

  /**
   * {@link GlobalLimitSinglePartition}, {@link PartitionedJoinForUnmatchedBuildRows}, {@link
   * NestedLoopJoinSingleProbe}. They do not depend on each other's output; the order only fixes
   * where exchanges appear when two of them touch the same part of a plan.
   */
  public static List<PlanRewrite> defaults() {
    return List.of(
        new GlobalLimitSinglePartition(),
        new PartitionedJoinForUnmatchedBuildRows(),
        new NestedLoopJoinSingleProbe());
  }
}
