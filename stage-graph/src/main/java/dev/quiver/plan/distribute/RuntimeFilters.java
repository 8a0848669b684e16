package dev.quiver.plan.distribute;

import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.plan.join.JoinKind;
import dev.quiver.plan.join.JoinType;
import dev.quiver.plan.node.Aggregate;
import dev.quiver.plan.node.Broadcast;
import dev.quiver.plan.node.HashJoin;
import dev.quiver.plan.node.JoinDistribution;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.Repartition;
import dev.quiver.plan.node.RuntimeFilter;
import dev.quiver.plan.rewrite.BottomUpRewrite;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

/**
 * Filters the probe rows of a partitioned join by the keys its build side holds before they are
 * shuffled. A partitioned join that drops unmatched probe rows (inner, right, semi) and that the
 * planner marked {@link RuntimeFilter#FILTERED_PROBE} (statistics say most probe rows find no
 * match) gets a LEFT_SEMI broadcast join of the probe rows with the distinct build keys, below the
 * probe's repartition:
 *
 * <pre>
 *   HashJoin[PARTITIONED, filtered probe]          HashJoin[PARTITIONED, filtered probe]
 *     Repartition[hash(b)]                           Repartition[hash(b)]   ◄───────────┐
 *       B                                 ─►           B                                 │
 *     Repartition[hash(p)]                           Repartition[hash(p)]                │
 *       P                                              HashJoin[LEFT_SEMI, BROADCAST,    │
 *                                                               runtime filter]         │
 *                                                        Broadcast                       │
 *                                                          Aggregate[SINGLE, keys=b] ────┘
 *                                                        P
 * </pre>
 *
 * The build side's repartition appears twice, an exchange, so the stage cutter makes it one stage
 * that both read (its rows are written once): the join's stage, and a small stage that keeps each
 * key once (the rows arrive hash-partitioned on the keys, so per task is exact) and broadcasts the
 * keys to the probe's stage. That stage now reads the keys first, so Flink starts it after the
 * build side has finished, which is the filter's price: it only pays when the probe side is large
 * and most of it is dropped, which is why only joins the planner marked get one.
 *
 * <p>A marked join whose inputs are not both repartitioned here (a probe already partitioned on its
 * keys moves nothing that a filter could spare) is left without a filter, and unmarked: EXPLAIN
 * shows {@code filtered probe} only on joins that have one. The pass is idempotent.
 */
public final class RuntimeFilters extends BottomUpRewrite {
  private RuntimeFilters() {}

  public static RuntimeFilters create() {
    return new RuntimeFilters();
  }

  @Override
  public String name() {
    return "filter the probe rows of partitioned joins by their build keys";
  }

  @Override
  public PlanNode visitHashJoin(HashJoin join) {
    return join.runtimeFilter() == RuntimeFilter.FILTERED_PROBE ? filtered(join) : join;
  }

  private static PlanNode filtered(HashJoin join) {
    if (join.distribution() != JoinDistribution.PARTITIONED
        || !(join.build() instanceof Repartition build && build.scheme().isHash())
        || !(join.probe() instanceof Repartition probe && probe.scheme().isHash())
        || new HashSet<>(join.buildKeys()).size() != join.buildKeys().size()) {
      return join.withRuntimeFilter(RuntimeFilter.NONE);
    }
    if (probe.child(0) instanceof HashJoin below && below.runtimeFilter() == RuntimeFilter.FILTER) {
      return join; // already filtered
    }
    int keys = join.buildKeys().size();
    List<Integer> summaryKeys = new ArrayList<>(keys);
    for (int i = 0; i < keys; i++) {
      summaryKeys.add(i);
    }
    PlanNode distinctKeys = new Aggregate(build, AggregateMode.SINGLE, join.buildKeys(), List.of());
    PlanNode filter =
        new HashJoin(
            new Broadcast(distinctKeys),
            probe.child(0),
            JoinKind.of(JoinType.LEFT_SEMI),
            summaryKeys,
            join.probeKeys(),
            null,
            JoinDistribution.BROADCAST,
            RuntimeFilter.FILTER);
    return join.with(build, probe.withChildren(List.of(filter)), JoinDistribution.PARTITIONED);
  }
}
