package dev.quiver.plan.rewrite;

import dev.quiver.plan.distribute.RuntimeFilters;
import java.util.List;

/** The standard rewrites, in the order a planner runs them. */
public final class Rewrites {
  private Rewrites() {}

  /**
   * {@link PartitionedJoinForUnmatchedBuildRows}, {@link NestedLoopJoinSingleProbe}, then {@link
   * RuntimeFilters} (last: a join the first one makes partitioned may be filtered). The first two
   * do not depend on each other's output; the order only fixes where exchanges appear when both
   * touch the same part of a plan. (A GLOBAL limit or top-k over several partitions is the {@code
   * EnforceDistribution} pass's, which runs before them: {@link GlobalLimitSinglePartition}.)
   */
  public static List<PlanRewrite> defaults() {
    return List.of(
        new PartitionedJoinForUnmatchedBuildRows(),
        new NestedLoopJoinSingleProbe(),
        RuntimeFilters.create());
  }
}
