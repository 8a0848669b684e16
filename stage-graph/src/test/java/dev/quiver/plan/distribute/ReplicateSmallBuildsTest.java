package dev.quiver.plan.distribute;

import static dev.quiver.plan.node.PlanBuilder.keys;
import static dev.quiver.plan.node.PlanFixtures.CUSTOMERS;
import static dev.quiver.plan.node.PlanFixtures.customers;
import static dev.quiver.plan.node.PlanFixtures.orders;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.QuiverException;
import dev.quiver.plan.expr.Exprs;
import dev.quiver.plan.expr.ScalarFunction;
import dev.quiver.plan.join.JoinType;
import dev.quiver.plan.node.JoinDistribution;
import dev.quiver.plan.node.PlanBuilder;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.PlanPrinter;
import dev.quiver.plan.node.Scan;
import dev.quiver.plan.node.SplitUnit;
import dev.quiver.plan.node.TableSource;
import dev.quiver.plan.type.SqlType;
import dev.quiver.stage.StageGraph;
import dev.quiver.stage.StagePlanner;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which broadcast build sides every join task reads itself, and what the stages become. */
class ReplicateSmallBuildsTest {
  private static final EnforceDistribution AT_2 = EnforceDistribution.withParallelism(2);

  /** orders ⋈ customers (filtered), customers broadcast: 11,200 bytes in six units. */
  private static PlanNode starJoin() {
    PlanBuilder build = customers(2);
    build =
        build.filter(
            Exprs.call(
                ScalarFunction.GREATER_THAN, Exprs.col(0, SqlType.BIGINT, "c_id"), Exprs.lit(10L)));
    PlanNode logical =
        orders(2)
            .hashJoin(JoinType.INNER, build, keys(0), keys(1), JoinDistribution.BROADCAST)
            .build();
    return AT_2.apply(logical);
  }

  @Test
  void aSmallBuildScanIsReadByEveryJoinTaskInTheJoinsStage() {
    PlanNode plan = ReplicateSmallBuilds.upTo(1L << 20).apply(starJoin());
    assertThat(PlanPrinter.explain(plan))
        .isEqualTo(
            """
            HashJoin[INNER, BROADCAST, build=[#0], probe=[#1]]  {unknown(2)}
              Filter[(c_id#0 > 10)]  {unknown(2)}
                Scan[customers [c_id, c_name, c_nation], units=6, replicated, tasks=2]  {unknown(2)}
              Scan[orders [o_id, o_cust, o_total, o_date], units=13, tasks=2]  {unknown(2)}
            """);
    StageGraph graph = StagePlanner.withDefaultRewrites().plan(plan);
    assertThat(graph.stages()).hasSize(1);
    assertThat(graph.finalStage().plan().toString()).contains("HashJoin");
    Scan replicated = (Scan) graph.finalStage().plan().child(0).child(0);
    assertThat(replicated.assignment().orElseThrow())
        .hasSize(2)
        .allSatisfy(units -> assertThat(units).hasSize(6));
    assertThat(replicated.toString())
        .contains("replicated, tasks=[6 units 11200 B, 6 units 11200 B]");
  }

  @Test
  void theBoundIsOnTheBytesAllTasksReadTogether() {
    // 11,200 bytes, 2 tasks: 22,400 bytes in all.
    assertThat(PlanPrinter.explain(ReplicateSmallBuilds.upTo(22_400).apply(starJoin())))
        .contains("replicated")
        .doesNotContain("Broadcast");
    assertThat(PlanPrinter.explain(ReplicateSmallBuilds.upTo(22_399).apply(starJoin())))
        .doesNotContain("replicated")
        .contains("Broadcast");
    assertThat(PlanPrinter.explain(ReplicateSmallBuilds.upTo(0).apply(starJoin())))
        .doesNotContain("replicated");
  }

  @Test
  void aBuildSideThatIsNotAScanPipelineStaysBroadcast() {
    // The build is a join: it has a stage of its own either way.
    PlanBuilder joinedBuild =
        customers(2)
            .hashJoin(
                JoinType.LEFT_SEMI, customers(2), keys(0), keys(0), JoinDistribution.BROADCAST);
    PlanNode plan =
        AT_2.apply(
            orders(2)
                .hashJoin(JoinType.INNER, joinedBuild, keys(0), keys(1), JoinDistribution.BROADCAST)
                .build());
    String text = PlanPrinter.explain(ReplicateSmallBuilds.upTo(1L << 30).apply(plan));
    // The inner join's build (a scan) is replicated, the outer one's (a join) is broadcast.
    assertThat(text).containsOnlyOnce("replicated").containsOnlyOnce("Broadcast");
  }

  @Test
  void aPartitionedJoinKeepsItsExchanges() {
    PlanNode plan =
        AT_2.apply(
            orders(2)
                .hashJoin(
                    JoinType.INNER, customers(2), keys(0), keys(1), JoinDistribution.PARTITIONED)
                .build());
    assertThat(ReplicateSmallBuilds.upTo(1L << 30).apply(plan)).isEqualTo(plan);
  }

  @Test
  void aReplicatedScanAnywhereButABuildSideIsRejectedWhenCut() {
    TableSource one =
        new TableSource("customers", CUSTOMERS, List.of(SplitUnit.file("c.parquet", 100, 10)));
    PlanNode plan = Scan.replicated(one, 2);
    assertThatThrownBy(() -> StagePlanner.withDefaultRewrites().plan(plan))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("a replicated scan can only be the build input");
  }

  @Test
  void aReplicatedAssignmentGivesEveryTaskEveryUnit() {
    TableSource two =
        new TableSource(
            "customers",
            CUSTOMERS,
            List.of(SplitUnit.file("a.parquet", 100, 10), SplitUnit.file("b.parquet", 50, 5)));
    Scan scan = Scan.replicated(two, 3);
    assertThat(scan.withAssignment(List.of(two.units(), two.units(), two.units())).assignment())
        .hasValueSatisfying(tasks -> assertThat(tasks).hasSize(3));
    assertThatThrownBy(
            () -> scan.withAssignment(List.of(two.units(), two.units(), two.units().subList(0, 1))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("reads every unit");
  }
}
