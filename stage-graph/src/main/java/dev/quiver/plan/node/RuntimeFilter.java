package dev.quiver.plan.node;

import dev.quiver.plan.join.JoinKind;
import dev.quiver.plan.join.JoinType;

/**
 * A hash join's part in a runtime filter: a filter, made while the query runs from the keys the
 * build side actually holds, that drops probe rows which cannot match before they are shuffled to
 * the join. {@link dev.quiver.plan.distribute.RuntimeFilters} builds it as plan nodes:
 *
 * <pre>
 *   HashJoin[INNER, PARTITIONED, filtered probe]       the join the filter serves
 *     Repartition[hash(b)] ◄──────────────┐            build rows, written once, read twice
 *       B                                 │
 *     Repartition[hash(p)]                │
 *       HashJoin[LEFT_SEMI, BROADCAST, runtime filter]
 *         Broadcast                       │
 *           Aggregate[SINGLE, keys=b] ────┘            the distinct build keys, per task
 *         P                                            probe rows, filtered before the shuffle
 * </pre>
 */
public enum RuntimeFilter {
  /** Not part of a runtime filter. */
  NONE,
  /**
   * A join whose probe rows are filtered by its build keys before they reach it: a join that drops
   * unmatched probe rows ({@link #dropsUnmatchedProbeRows}), not null-aware.
   */
  FILTERED_PROBE,
  /**
   * The filter itself: a LEFT_SEMI broadcast join of probe rows with the distinct build keys of
   * another join, which checks every row it passes again. So it may stop filtering when it finds it
   * passes nearly every row (measured while it runs), and pass the rest unchecked.
   */
  FILTER;

  /** Whether a join of {@code kind} can have its probe side filtered by its build keys. */
  public static boolean dropsUnmatchedProbeRows(JoinKind kind) {
    if (kind.nullAware()) {
      return false;
    }
    return switch (kind.type()) {
      case INNER, RIGHT, LEFT_SEMI, RIGHT_SEMI, RIGHT_ANTI -> true;
      case LEFT, FULL, LEFT_ANTI, LEFT_MARK -> false;
    };
  }

  /** Checks that this part suits a join of {@code kind} and {@code distribution}. */
  void check(JoinKind kind, JoinDistribution distribution, String node) {
    switch (this) {
      case NONE -> {}
      case FILTERED_PROBE ->
          PlanChecks.check(
              dropsUnmatchedProbeRows(kind),
              node,
              "a " + kind + " join keeps probe rows without a match: its probe cannot be filtered");
      case FILTER ->
          PlanChecks.check(
              kind.type() == JoinType.LEFT_SEMI
                  && !kind.nullAware()
                  && distribution == JoinDistribution.BROADCAST,
              node,
              "a runtime filter is a LEFT_SEMI BROADCAST join");
    }
  }

  /**
   * What EXPLAIN appends to a join's line: nothing, {@code , filtered probe} or {@code , runtime
   * filter}.
   */
  public String label() {
    return switch (this) {
      case NONE -> "";
      case FILTERED_PROBE -> ", filtered probe";
      case FILTER -> ", runtime filter";
    };
  }
}
