package dev.quiver.plan.node;

/**
 * How the rows of a hash join's two inputs meet. The join runs with the probe side's task count;
 * what differs is which build rows each task sees.
 *
 * <pre>
 *   PARTITIONED (both sides hash-partitioned on the keys into n)
 *     build p0 ──► task 0 ◄── probe p0
 *     build p1 ──► task 1 ◄── probe p1
 *
 *   COLLECT_LEFT (one upstream task made the whole build side)
 *     build (1 partition) ─┬─► task 0 ◄── probe p0
 *                          └─► task 1 ◄── probe p1
 *
 *   BROADCAST (every build task sends everything to every join task)
 *     build p0 ─┬─► task 0 ◄── probe p0
 *     build p1 ─┴─► task 1 ◄── probe p1     (each task gets p0 and p1)
 * </pre>
 *
 * <p>Under COLLECT_LEFT and BROADCAST the <b>build side</b> (input 0, right in {@link
 * dev.quiver.plan.join.JoinType}'s terms) is replicated: every join task holds all build rows and
 * sees only its own probe partition. That is only correct for join types that decide everything per
 * probe row; see {@code PartitionedJoinForUnmatchedBuildRows}.
 */
public enum JoinDistribution {
  /**
   * Build and probe have the same partition count n and, when n > 1, are hash-partitioned on their
   * join keys (in key order, keys of equal types), so task p joins build partition p with probe
   * partition p.
   */
  PARTITIONED,
  /**
   * The build input is one partition, produced by one task upstream (e.g. a gather to one
   * partition, a VALUES, a global aggregate); that partition is read whole by every join task.
   */
  COLLECT_LEFT,
  /**
   * The build input is a {@link Broadcast} exchange: each build task sends all its rows to every
   * join task, with no single task collecting them first.
   */
  BROADCAST
}
