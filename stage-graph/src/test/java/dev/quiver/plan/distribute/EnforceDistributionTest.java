package dev.quiver.plan.distribute;

import static dev.quiver.plan.node.PlanBuilder.hash;
import static dev.quiver.plan.node.PlanBuilder.keys;
import static dev.quiver.plan.node.PlanFixtures.customers;
import static dev.quiver.plan.node.PlanFixtures.orders;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.plan.join.JoinKind;
import dev.quiver.plan.join.JoinType;
import dev.quiver.plan.node.HashJoin;
import dev.quiver.plan.node.JoinDistribution;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.PlanPrinter;
import org.junit.jupiter.api.Test;

/** The pass adds the exchanges joins need, and only those. */
class EnforceDistributionTest {
  private static final EnforceDistribution AT_INPUTS = EnforceDistribution.atInputPartitions();

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
                dev.quiver.plan.node.PlanBuilder.from(inner),
                keys(0),
                keys(0),
                JoinDistribution.PARTITIONED)
            .build();
    PlanNode enforced = EnforceDistribution.withParallelism(2).apply(outer);
    assertThat(enforced.child(0).child(0).child(0)).hasToString("Broadcast");
    assertThat(((HashJoin) enforced).inputsDistributed()).isTrue();
  }
}
