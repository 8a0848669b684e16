package dev.quiver.plan.aggregate;

/**
 * Which half of a two-phase aggregation an aggregate node computes.
 *
 * <pre>
 *   rows ─► PARTIAL (per task) ─► partial states ─► hash repartition on keys ─► FINAL ─► values
 *   rows ─────────────────────────────────────────► SINGLE (all rows of a group here) ─► values
 * </pre>
 *
 * <p>The partial-state columns of each call are given by {@link AggregateCall#stateFields}.
 */
public enum AggregateMode {
  /** Input rows in, one row per group of partial states out (group keys, then state fields). */
  PARTIAL,
  /** Partial states in (the output of PARTIAL), final values out; merging is exact. */
  FINAL,
  /** Input rows in, final values out: every row of a group reaches the same task. */
  SINGLE
}
