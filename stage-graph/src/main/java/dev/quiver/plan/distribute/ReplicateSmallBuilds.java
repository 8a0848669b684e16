package dev.quiver.plan.distribute;

import dev.quiver.plan.node.Broadcast;
import dev.quiver.plan.node.HashJoin;
import dev.quiver.plan.node.JoinDistribution;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.Scan;
import dev.quiver.plan.rewrite.BottomUpRewrite;

/**
 * Lets every task of a broadcast join read a small build side itself instead of receiving it from a
 * stage of its own. A broadcast build costs a stage: its tasks are scheduled, deployed and finished
 * before the join's stage may start, and its rows are serialized, written once and read by every
 * join task. For a dimension table of a few megabytes that is most of the time it takes (in a star
 * join, one such stage per dimension), while reading the file in each join task costs little more
 * than reading it once:
 *
 * <pre>
 *   HashJoin[BROADCAST]                     HashJoin[BROADCAST]
 *     Broadcast                       ─►      Filter
 *       Filter                                  Scan[d, replicated, tasks=p]
 *         Scan[d, tasks=p]                    Scan[f, tasks=p]
 *     Scan[f, tasks=p]
 * </pre>
 *
 * A build side qualifies when it is filters and projections over a scan and the bytes all the
 * join's tasks would read together ({@code bytes × tasks}) are at most {@code maxBytes}: the rule
 * keeps the read-amplification bounded however many tasks a query has. EXPLAIN shows such a scan as
 * {@code replicated} in the join's stage, each task with every unit.
 */
public final class ReplicateSmallBuilds extends BottomUpRewrite {
  /**
   * The default bound on {@code bytes × tasks}: at parallelism 2 a build scan of up to 16 MiB (the
   * bytes of its units: whole files or row groups, every column) is replicated, at parallelism 8
   * one of 4 MiB. A guess that takes TPC-DS's and TPC-H's dimensions at SF 1 and leaves their fact
   * tables; it was not tuned by measurement.
   */
  public static final long DEFAULT_MAX_BYTES = 32L << 20;

  private final long maxBytes;

  private ReplicateSmallBuilds(long maxBytes) {
    this.maxBytes = maxBytes;
  }

  /**
   * The rule: a build scan of {@code bytes} is read by every one of the join's {@code tasks} when
   * they read at most {@code maxBytes} together. The SQL planner asks it too, to prefer such a scan
   * as the build side.
   */
  public static boolean replicable(long bytes, int tasks, long maxBytes) {
    return tasks > 0 && bytes <= maxBytes / tasks;
  }

  /** Replicates build scans whose bytes times the join's tasks are at most {@code maxBytes}. */
  public static ReplicateSmallBuilds upTo(long maxBytes) {
    if (maxBytes < 0) {
      throw new IllegalArgumentException("maxBytes is negative: " + maxBytes);
    }
    return new ReplicateSmallBuilds(maxBytes);
  }

  @Override
  public String name() {
    return "read small broadcast build sides in the join's tasks";
  }

  @Override
  public PlanNode visitHashJoin(HashJoin join) {
    if (join.distribution() == JoinDistribution.BROADCAST
        && join.build() instanceof Broadcast broadcast) {
      PlanNode replicated = replicated(broadcast.child(0), join.probe().partitions());
      if (replicated != null) {
        return join.with(replicated, join.probe(), JoinDistribution.BROADCAST);
      }
    }
    return join;
  }

  /**
   * {@code build} over a replicated scan of {@code tasks} tasks, or null if it does not qualify.
   */
  private PlanNode replicated(PlanNode build, int tasks) {
    Scan scan = Scan.underPipeline(build);
    if (scan == null
        || scan.isReplicated()
        || !replicable(scan.source().bytes(), tasks, maxBytes)) {
      return null;
    }
    return Scan.replaceUnderPipeline(build, Scan.replicated(scan.source(), tasks));
  }
}
