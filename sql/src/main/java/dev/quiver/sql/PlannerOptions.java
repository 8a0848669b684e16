package dev.quiver.sql;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.distribute.ReplicateSmallBuilds;
import dev.quiver.plan.distribute.RuntimeFilters;
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
 * @param replicateBuildBytes a broadcast build side that is a scan (with filters and projections)
 *     is read by every task of the join itself, without a stage of its own, when its bytes times
 *     the join's tasks are at most this ({@link ReplicateSmallBuilds}); 0 never does
 * @param runtimeFilters which partitioned joins filter their probe rows by their build keys before
 *     they are shuffled ({@link RuntimeFilters}); none by default (see {@link
 *     RuntimeFilterPolicy#OFF} for the figures)
 */
public record PlannerOptions(
    int parallelism,
    long broadcastThresholdBytes,
    long spreadThresholdBytes,
    long replicateBuildBytes,
    RuntimeFilterPolicy runtimeFilters) {
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
    if (replicateBuildBytes < 0) {
      throw new IllegalArgumentException("replicateBuildBytes is negative: " + replicateBuildBytes);
    }
    requireNonNull(runtimeFilters, "runtimeFilters is null");
  }

  public PlannerOptions(
      int parallelism,
      long broadcastThresholdBytes,
      long spreadThresholdBytes,
      long replicateBuildBytes) {
    this(
        parallelism,
        broadcastThresholdBytes,
        spreadThresholdBytes,
        replicateBuildBytes,
        RuntimeFilterPolicy.OFF);
  }

  public PlannerOptions(int parallelism, long broadcastThresholdBytes, long spreadThresholdBytes) {
    this(
        parallelism,
        broadcastThresholdBytes,
        spreadThresholdBytes,
        ReplicateSmallBuilds.DEFAULT_MAX_BYTES);
  }

  public PlannerOptions(int parallelism, long broadcastThresholdBytes) {
    this(parallelism, broadcastThresholdBytes, SpreadUnbalancedScans.DEFAULT_MIN_EXCESS_BYTES);
  }

  /**
   * Cores one Parquet scan task keeps busy decoding: Arrow's reader decodes 16 row groups ahead on
   * its process-wide CPU pool, and one task used 1.8-1.9 of this machine's 2 cores
   * (formats/README.md, "Splitting a file by row groups: the readers measured").
   */
  public static final int SCAN_DECODE_CORES = 2;

  /**
   * The spread threshold for a query whose tasks can run on {@code cores} cores: {@link
   * SpreadUnbalancedScans#DEFAULT_MIN_EXCESS_BYTES} when that is more than {@link
   * #SCAN_DECODE_CORES}, else never ({@link Long#MAX_VALUE}). Where one scan's decoding already
   * fills the cores, moving its rows to other tasks only adds the exchange: on 2 cores at
   * parallelism 2, six TPC-DS SF 1 queries over one file per table (q3, q7, q13, q19, q27, q96)
   * took 19.9 s with their scans spread and 14.1 s without (best of two runs each).
   */
  public static long spreadThresholdFor(int cores) {
    return cores > SCAN_DECODE_CORES
        ? SpreadUnbalancedScans.DEFAULT_MIN_EXCESS_BYTES
        : Long.MAX_VALUE;
  }

  public static PlannerOptions of(int parallelism) {
    return new PlannerOptions(parallelism, DEFAULT_BROADCAST_THRESHOLD);
  }

  public PlannerOptions withBroadcastThreshold(long bytes) {
    return new PlannerOptions(
        parallelism, bytes, spreadThresholdBytes, replicateBuildBytes, runtimeFilters);
  }

  public PlannerOptions withSpreadThreshold(long bytes) {
    return new PlannerOptions(
        parallelism, broadcastThresholdBytes, bytes, replicateBuildBytes, runtimeFilters);
  }

  public PlannerOptions withReplicateBuildBytes(long bytes) {
    return new PlannerOptions(
        parallelism, broadcastThresholdBytes, spreadThresholdBytes, bytes, runtimeFilters);
  }

  public PlannerOptions withRuntimeFilters(RuntimeFilterPolicy policy) {
    return new PlannerOptions(
        parallelism, broadcastThresholdBytes, spreadThresholdBytes, replicateBuildBytes, policy);
  }
}
