package dev.quiver.plan.distribute;

import static dev.quiver.plan.aggregate.AggregateFunction.SUM;
import static dev.quiver.plan.aggregate.AggregateMode.FINAL;
import static dev.quiver.plan.aggregate.AggregateMode.PARTIAL;
import static dev.quiver.plan.aggregate.AggregateMode.SINGLE;
import static dev.quiver.plan.node.PlanBuilder.hash;
import static dev.quiver.plan.node.PlanBuilder.keys;
import static dev.quiver.plan.node.PlanFixtures.customers;
import static dev.quiver.plan.node.PlanFixtures.orders;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateFunction;
import dev.quiver.plan.join.JoinKind;
import dev.quiver.plan.join.JoinType;
import dev.quiver.plan.node.HashJoin;
import dev.quiver.plan.node.JoinDistribution;
import dev.quiver.plan.node.PlanBuilder;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.PlanPrinter;
import dev.quiver.plan.node.Union;
import dev.quiver.plan.sort.SortKey;
import dev.quiver.plan.type.SqlType;
import dev.quiver.plan.window.WindowCall;
import dev.quiver.plan.window.WindowFunction;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pass adds the exchanges joins need, and only those. */
class EnforceDistributionTest {
  private static final EnforceDistribution AT_INPUTS = EnforceDistribution.atInputPartitions();

  /** The nodes from the root down the first inputs, scans as {@code Scan}. */
  private static List<String> shape(PlanNode plan) {
    List<String> nodes = new ArrayList<>();
    for (PlanNode node = plan; ; node = node.child(0)) {
      nodes.add(node.children().isEmpty() ? "Scan" : node.toString());
      if (node.children().isEmpty()) {
        return nodes;
      }
    }
  }

  @Test
  void broadcastJoinGetsABroadcastBuildSide() {
    PlanNode plan =
        orders(2)
            .hashJoin(JoinType.INNER, customers(3), keys(0), keys(1), JoinDistribution.BROADCAST)
            .build();
    assertThat(PlanPrinter.explain(AT_INPUTS.apply(plan)))
        .isEqualTo(
            """
            HashJoin[INNER, BROADCAST, build=[#0], probe=[#1]]  {unknown(2)}
              Broadcast  {single}
                Scan[customers [c_id, c_name, c_nation], units=6, tasks=3]  {unknown(3)}
              Scan[orders [o_id, o_cust, o_total, o_date], units=13, tasks=2]  {unknown(2)}
            """);
  }

  @Test
  void collectLeftJoinGathersABuildSideOfSeveralPartitions() {
    PlanNode plan =
        orders(2)
            .hashJoin(JoinType.INNER, customers(3), keys(0), keys(1), JoinDistribution.COLLECT_LEFT)
            .build();
    PlanNode enforced = AT_INPUTS.apply(plan);
    assertThat(enforced.child(0)).hasToString("Coalesce[3 -> 1]");
    assertThat(((HashJoin) enforced).inputsDistributed()).isTrue();
  }

  @Test
  void partitionedJoinHashesOnlyTheSidesNotHashedOnTheirKeys() {
    PlanNode plan =
        orders(2)
            .hashJoin(
                JoinType.INNER,
                customers(3).repartition(hash(0), 4),
                keys(0),
                keys(1),
                JoinDistribution.PARTITIONED)
            .build();
    assertThat(PlanPrinter.explain(EnforceDistribution.withParallelism(4).apply(plan)))
        .isEqualTo(
            """
            HashJoin[INNER, PARTITIONED, build=[#0], probe=[#1]]  {hash([#1], 4)}
              Repartition[hash([#0]), 4]  {hash([#0], 4)}
                Scan[customers [c_id, c_name, c_nation], units=6, tasks=3]  {unknown(3)}
              Repartition[hash([#1]), 4]  {hash([#1], 4)}
                Scan[orders [o_id, o_cust, o_total, o_date], units=13, tasks=2]  {unknown(2)}
            """);
    // without a parallelism the larger input's count: 4
    assertThat(AT_INPUTS.apply(plan).partitions()).isEqualTo(4);
  }

  @Test
  void singleAggregateRunsInTwoPhasesAroundAHashRepartition() {
    PlanBuilder scan = orders(3);
    PlanNode plan = scan.aggregate(SINGLE, keys(1), scan.call(SUM, 2, "total")).build();
    assertThat(shape(EnforceDistribution.withParallelism(4).apply(plan)))
        .containsExactly(
            "Aggregate[FINAL, keys=[#1], calls=[sum(#2) AS total]]",
            "Repartition[hash([#0]), 4]",
            "Aggregate[PARTIAL, keys=[#1], calls=[sum(#2) AS total]]",
            "Scan");
  }

  @Test
  void aggregateWithoutPartialStateGetsItsGroupsGatheredFirst() {
    PlanBuilder scan = orders(3);
    AggregateCall distinct =
        new AggregateCall(AggregateFunction.COUNT, 1, SqlType.BIGINT.arrow(), true, "d");
    PlanNode keyed = scan.aggregate(SINGLE, keys(3), distinct).build();
    assertThat(shape(AT_INPUTS.apply(keyed)))
        .containsExactly(
            "Aggregate[SINGLE, keys=[#3], calls=[count(DISTINCT #1) AS d]]",
            "Repartition[hash([#3]), 3]",
            "Scan");
    PlanNode global = scan.aggregate(SINGLE, keys(), distinct).build();
    assertThat(shape(AT_INPUTS.apply(global)))
        .containsExactly(
            "Aggregate[SINGLE, keys=[], calls=[count(DISTINCT #1) AS d]]",
            "Coalesce[3 -> 1]",
            "Scan");
  }

  @Test
  void globalGroupingSetsAreSeededByThePartialsOrInOneTask() {
    PlanBuilder expand = orders(2).expand(keys(1, 3), List.of(keys(1, 3), keys(1), keys()));
    List<AggregateCall> sum = List.of(expand.call(SUM, 2, "total"));
    PlanNode twoPhase = expand.aggregate(SINGLE, keys(1, 3, 4), sum, List.of(3L)).build();
    assertThat(shape(AT_INPUTS.apply(twoPhase)))
        .containsExactly(
            "Aggregate[FINAL, keys=[#1, #3, #4], calls=[sum(#2) AS total]]",
            "Repartition[hash([#0, #1, #2]), 2]",
            "Aggregate[PARTIAL, keys=[#1, #3, #4], calls=[sum(#2) AS total], global sets=[3]]",
            "Expand[keys=[#1, #3], sets=[{#1, #3}, {#1}, {}], gid=#4]",
            "Scan");
    AggregateCall distinct =
        new AggregateCall(AggregateFunction.COUNT, 0, SqlType.BIGINT.arrow(), true, "d");
    PlanNode holistic =
        expand.aggregate(SINGLE, keys(1, 3, 4), List.of(distinct), List.of(3L)).build();
    assertThat(shape(AT_INPUTS.apply(holistic)).get(1)).isEqualTo("Coalesce[2 -> 1]");
  }

  @Test
  void aggregatesOverGroupedInputsAndFinalsOverExchangesAreLeftAlone() {
    PlanBuilder hashed = orders(3).repartition(hash(1), 4);
    AggregateCall total = hashed.call(SUM, 2, "total");
    PlanNode grouped = hashed.aggregate(SINGLE, keys(1), total).build();
    assertThat(AT_INPUTS.apply(grouped)).isSameAs(grouped);
    PlanBuilder partial = orders(3).aggregate(PARTIAL, keys(1), total);
    PlanNode written = partial.repartition(hash(0), 2).aggregate(FINAL, keys(1), total).build();
    assertThat(AT_INPUTS.apply(written)).isSameAs(written);
    PlanNode adjacent = partial.aggregate(FINAL, keys(1), total).build();
    assertThat(shape(AT_INPUTS.apply(adjacent)).get(1)).isEqualTo("Repartition[hash([#0]), 3]");
  }

  @Test
  void windowGetsItsPartitionsHashedAndSorted() {
    PlanNode plan =
        orders(3)
            .window(keys(1), List.of(SortKey.asc(3)), WindowCall.ranking(WindowFunction.RANK, "r"))
            .build();
    assertThat(shape(EnforceDistribution.withParallelism(4).apply(plan)))
        .containsExactly(
            "Window[partition=[#1], order=[#3 ASC NULLS LAST], calls=[rank() AS r]]",
            "Sort[#1 ASC NULLS LAST, #3 ASC NULLS LAST]",
            "Repartition[hash([#1]), 4]",
            "Scan");
    PlanNode global =
        orders(3)
            .window(keys(), List.of(), WindowCall.ranking(WindowFunction.ROW_NUMBER, "n"))
            .build();
    assertThat(shape(AT_INPUTS.apply(global)).get(1)).isEqualTo("Coalesce[3 -> 1]");
    PlanNode ready =
        orders(3)
            .repartition(hash(1), 2)
            .sort(SortKey.asc(1), SortKey.asc(3))
            .window(keys(1), List.of(SortKey.asc(3)), WindowCall.ranking(WindowFunction.RANK, "r"))
            .build();
    assertThat(AT_INPUTS.apply(ready)).isSameAs(ready);
  }

  @Test
  void unionSpreadsItsSmallerInputsRoundRobinToTheLargestCount() {
    PlanNode plan = orders(3).select(0).union(customers(1).select(0), orders(3).select(1)).build();
    assertThat(((Union) plan).inputsDistributed()).isFalse();
    PlanNode enforced = EnforceDistribution.withParallelism(8).apply(plan);
    assertThat(enforced.partitions()).isEqualTo(3);
    assertThat(enforced.child(1).toString()).isEqualTo("Repartition[round-robin, 3]");
    assertThat(enforced.child(0)).isSameAs(plan.child(0));
    assertThat(AT_INPUTS.apply(enforced)).isSameAs(enforced);
  }

  @Test
  void nestedLoopJoinBroadcastsABuildSideOfSeveralPartitions() {
    PlanNode plan = orders(2).nestedLoopJoin(JoinType.INNER, customers(3), null).build();
    assertThat(AT_INPUTS.apply(plan).child(0)).hasToString("Broadcast");
    PlanNode single = orders(2).nestedLoopJoin(JoinType.INNER, customers(1), null).build();
    assertThat(AT_INPUTS.apply(single)).isSameAs(single);
  }

  @Test
  void distributedPlansAreLeftAloneAndNestedJoinsAreEnforcedBottomUp() {
    PlanNode inner =
        orders(2)
            .hashJoin(
                JoinKind.of(JoinType.INNER),
                customers(3),
                keys(0),
                keys(1),
                null,
                JoinDistribution.BROADCAST)
            .build();
    PlanNode once = AT_INPUTS.apply(inner);
    assertThat(AT_INPUTS.apply(once)).isSameAs(once);
    PlanNode outer =
        customers(2)
            .hashJoin(
                JoinType.INNER,
                PlanBuilder.from(inner),
                keys(0),
                keys(0),
                JoinDistribution.PARTITIONED)
            .build();
    PlanNode enforced = EnforceDistribution.withParallelism(2).apply(outer);
    assertThat(enforced.child(0).child(0).child(0)).hasToString("Broadcast");
    assertThat(((HashJoin) enforced).inputsDistributed()).isTrue();
  }
}
