package dev.quiver.plan.rewrite;

import static dev.quiver.plan.node.PlanFixtures.customers;
import static dev.quiver.plan.node.PlanFixtures.orders;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.plan.join.JoinType;
import dev.quiver.plan.node.NestedLoopJoin;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.stage.StagePlanner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class NestedLoopJoinSingleProbeTest {
  @ParameterizedTest
  @EnumSource(JoinType.class)
  void onlyJoinsThatTrackBuildMatchesGetOneProbePartition(JoinType type) {
    PlanNode plan = orders(3).nestedLoopJoin(type, customers(2), null).build();
    PlanNode rewritten = new NestedLoopJoinSingleProbe().apply(plan);
    if (!type.tracksRightMatches()) {
      assertThat(rewritten).isSameAs(plan);
      return;
    }
    assertThat(rewritten.partitions()).isEqualTo(1);
    assertThat(((NestedLoopJoin) rewritten).probe()).hasToString("Coalesce[3 -> 1]");
    assertThat(rewritten.schema()).isEqualTo(plan.schema());
  }

  @ParameterizedTest
  @EnumSource(JoinType.class)
  void theDefaultPlannerRunsIt(JoinType type) {
    PlanNode plan = orders(3).nestedLoopJoin(type, customers(2), null).build();
    int tasks = StagePlanner.withDefaultRewrites().plan(plan).finalStage().tasks();
    assertThat(tasks).isEqualTo(type.tracksRightMatches() ? 1 : 3);
  }
}
