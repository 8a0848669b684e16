package dev.quiver.sql;

import dev.quiver.plan.distribute.SpreadUnbalancedScans;

/**
 * What the physical planner may choose between.
 *
 * @param parallelism the number of tasks of every distributed stage
 * @param broadcastThresholdBytes a join whose build side is estimated at most this many bytes
 *     replicates it to every task (broadcast) instead of hash-repartitioning both sides; 0 turns
 *     broadcast joins off except where the join needs them (NOT IN)
 * @param spreadThresholdBytes a scan whose most loaded task reads at least this many bytes more
 *     than its share (a table of one large file) has its rows spread over every task before the
 *     work above it ({@link SpreadUnbalancedScans}); {@link Long#MAX_VALUE} never spreads
 */
public record PlannerOptions(
    int parallelism, long broadcastThresholdBytes, long spreadThresholdBytes) {
  /** Spark's default: a side of up to 10 MB is cheaper to copy than to shuffle the other side. */
  public static final long DEFAULT_BROADCAST_THRESHOLD = 10L << 20;

  public PlannerOptions {
    if (parallelism < 1) {
      throw new IllegalArgumentException("parallelism must be at least 1: " + parallelism);
    }
    if (broadcastThresholdBytes < 0) {
      throw new IllegalArgumentException(
          "broadcastThresholdBytes is negative: " + broadcastThresholdBytes);
    }
    if (spreadThresholdBytes < 0) {
      throw new IllegalArgumentException(
          "spreadThresholdBytes is negative: " + spreadThresholdBytes);
    }
  }

  public PlannerOptions(int parallelism, long broadcastThresholdBytes) {
    this(parallelism, broadcastThresholdBytes, SpreadUnbalancedScans.DEFAULT_MIN_EXCESS_BYTES);
  }

  public static PlannerOptions of(int parallelism) {
    return new PlannerOptions(parallelism, DEFAULT_BROADCAST_THRESHOLD);
  }

  public PlannerOptions withBroadcastThreshold(long bytes) {
    return new PlannerOptions(parallelism, bytes, spreadThresholdBytes);
  }

  public PlannerOptions withSpreadThreshold(long bytes) {
    return new PlannerOptions(parallelism, broadcastThresholdBytes, bytes);
  }
}
