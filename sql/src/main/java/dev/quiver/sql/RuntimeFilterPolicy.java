package dev.quiver.sql;

import dev.quiver.plan.distribute.RuntimeFilters;

/**
 * Which partitioned joins filter their probe rows by their build keys before the shuffle ({@link
 * RuntimeFilters}).
 */
public enum RuntimeFilterPolicy {
  /**
   * None: the default. Measured on 2 cores with a local MiniCluster (TPC-H and TPC-DS SF 1,
   * parallelism 2, sessions with and without filters alternating in one JVM, best of three): the
   * seven queries {@link #BY_STATISTICS} filters took 5.59 s unfiltered and 5.92 s filtered. Here a
   * shuffle moves rows through memory, so the rows a filter spares cost less than its stage and the
   * wait for the build side; where the shuffle crosses a network this has not been measured.
   */
  OFF,
  /**
   * Those whose statistics say the filter pays: a large probe side (32 MiB or more estimated), and
   * a build side that keeps at most half of its key columns' distinct values in their table (so
   * most probe rows, if their keys refer to that table, find no match), and at most 4 million
   * distinct build keys.
   */
  BY_STATISTICS,
  /** Every partitioned join that drops unmatched probe rows, whatever the statistics say. */
  EVERY_JOIN
}
