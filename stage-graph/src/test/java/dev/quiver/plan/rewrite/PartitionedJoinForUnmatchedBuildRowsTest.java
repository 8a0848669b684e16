package dev.quiver.plan.rewrite;

import static dev.quiver.plan.node.PlanBuilder.hash;
import static dev.quiver.plan.node.PlanBuilder.keys;
import static dev.quiver.plan.node.PlanFixtures.customers;
import static dev.quiver.plan.node.PlanFixtures.orders;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.plan.join.JoinKind;
import dev.quiver.plan.join.JoinType;
import dev.quiver.plan.node.HashJoin;
import dev.quiver.plan.node.JoinDistribution;
import dev.quiver.plan.node.Partitioning;
import dev.quiver.plan.node.PlanBuilder;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.PlanPrinter;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class PartitionedJoinForUnmatchedBuildRowsTest {
  /** The types that emit rows about the build side, which a replicated build gets wrong. */
  private static final Set<JoinType> WRONG_WHEN_REPLICATED =
      EnumSet.of(JoinType.RIGHT, JoinType.FULL, JoinType.RIGHT_SEMI, JoinType.RIGHT_ANTI);

  private final PlanRewrite rewrite = new PartitionedJoinForUnmatchedBuildRows();

  @ParameterizedTest
  @EnumSource(JoinType.class)
  void broadcastJoinsThatTrackBuildMatchesBecomePartitioned(JoinType type) {
    check(type, JoinDistribution.BROADCAST);
  }

  @ParameterizedTest
  @EnumSource(JoinType.class)
  void collectLeftJoinsThatTrackBuildMatchesBecomePartitioned(JoinType type) {
    check(type, JoinDistribution.COLLECT_LEFT);
  }

  private void check(JoinType type, JoinDistribution distribution) {
    PlanNode plan = orders(3).hashJoin(type, customers(2), keys(0), keys(1), distribution).build();
    HashJoin rewritten = (HashJoin) rewrite.apply(plan);
    if (!WRONG_WHEN_REPLICATED.contains(type)) {
      assertThat((PlanNode) rewritten).isSameAs(plan);
      return;
    }
    assertThat(rewritten.distribution()).isEqualTo(JoinDistribution.PARTITIONED);
    assertThat(rewritten.partitions()).isEqualTo(3); // the probe side's task count stays
    assertThat(rewritten.schema()).isEqualTo(plan.schema());
    // The replicating exchange (Broadcast, or the gather to one) is gone; both sides are hashed.
    assertThat(PlanPrinter.explain(rewritten))
        .isEqualTo(
            "HashJoin["
                + type
                + ", PARTITIONED, build=[#0], probe=[#1]]  {"
                + rewritten.partitioning()
                + "}\n"
                + "  Repartition[hash([#0]), 3]  {hash([#0], 3)}\n"
                + "    Scan[customers [c_id, c_name, c_nation], units=6, tasks=2]  {unknown(2)}\n"
                + "  Repartition[hash([#1]), 3]  {hash([#1], 3)}\n"
                + "    Scan[orders [o_id, o_cust, o_total, o_date], units=13, tasks=3]  {unknown(3)}\n");
  }

  @Test
  void theWrongTypesAreExactlyThoseThatTrackBuildMatches() {
    for (JoinType type : JoinType.values()) {
      assertThat(type.tracksRightMatches())
          .as("%s", type)
          .isEqualTo(WRONG_WHEN_REPLICATED.contains(type));
    }
  }

  @Test
  void nullAwareJoinsKeepTheirReplicatedBuildSide() {
    PlanNode plan =
        orders(3)
            .hashJoin(
                JoinKind.nullAware(JoinType.LEFT_ANTI),
                customers(2),
                keys(0),
                keys(1),
                null,
                JoinDistribution.BROADCAST)
            .build();
    assertThat(rewrite.apply(plan)).isSameAs(plan);
  }

  @Test
  void oneJoinTaskAndPartitionedJoinsAreLeftAlone() {
    PlanNode single =
        orders(1)
            .hashJoin(JoinType.FULL, customers(2), keys(0), keys(1), JoinDistribution.BROADCAST)
            .build();
    assertThat(rewrite.apply(single)).isSameAs(single);
    PlanNode partitioned =
        orders(2)
            .repartition(hash(1), 4)
            .hashJoin(
                JoinType.RIGHT,
                customers(2).repartition(hash(0), 4),
                keys(0),
                keys(1),
                JoinDistribution.PARTITIONED)
            .build();
    assertThat(rewrite.apply(partitioned)).isSameAs(partitioned);
  }

  @Test
  void aSideAlreadyHashedOnItsKeysIsNotShuffledAgain() {
    PlanBuilder probe = orders(2).repartition(hash(1), 4);
    PlanNode plan =
        probe
            .hashJoin(
                JoinType.RIGHT_ANTI, customers(2), keys(0), keys(1), JoinDistribution.BROADCAST)
            .build();
    HashJoin rewritten = (HashJoin) rewrite.apply(plan);
    assertThat(rewritten.probe()).isSameAs(probe.build());
    assertThat(rewritten.build().partitioning()).isEqualTo(Partitioning.hash(keys(0), 4));
    assertThat(rewritten.partitioning()).isEqualTo(Partitioning.hash(keys(0), 4));
  }

  @Test
  void joinsDeepInThePlanAreRewrittenAndParentsRebuilt() {
    PlanNode plan =
        orders(3)
            .hashJoin(JoinType.FULL, customers(2), keys(0), keys(1), JoinDistribution.BROADCAST)
            .select(0, 4)
            .build();
    PlanNode rewritten = rewrite.apply(plan);
    assertThat(((HashJoin) rewritten.child(0)).distribution())
        .isEqualTo(JoinDistribution.PARTITIONED);
    assertThat(rewritten.schema()).isEqualTo(plan.schema());
  }
}
