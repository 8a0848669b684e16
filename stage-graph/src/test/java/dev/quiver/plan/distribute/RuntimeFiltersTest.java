package dev.quiver.plan.distribute;

import static dev.quiver.plan.node.PlanBuilder.keys;
import static dev.quiver.plan.node.PlanFixtures.customers;
import static dev.quiver.plan.node.PlanFixtures.orders;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.QuiverException;
import dev.quiver.plan.join.JoinKind;
import dev.quiver.plan.join.JoinType;
import dev.quiver.plan.node.JoinDistribution;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.PlanPrinter;
import dev.quiver.plan.node.RuntimeFilter;
import dev.quiver.stage.Stage;
import dev.quiver.stage.StageGraph;
import dev.quiver.stage.StagePlanner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Where a runtime filter goes, what its stages are, and which joins cannot have one. */
class RuntimeFiltersTest {
  private static final EnforceDistribution AT_2 = EnforceDistribution.withParallelism(2);

  /** orders ⋈ customers on o_cust = c_id, partitioned, marked for a filter. */
  private static PlanNode marked(JoinType type, JoinDistribution distribution) {
    return AT_2.apply(
        orders(2)
            .hashJoin(
                JoinKind.of(type),
                customers(2),
                keys(0),
                keys(1),
                null,
                distribution,
                RuntimeFilter.FILTERED_PROBE)
            .build());
  }

  @Test
  void theProbeIsSemiJoinedWithTheDistinctBuildKeysBelowItsShuffle() {
    PlanNode plan =
        RuntimeFilters.create().apply(marked(JoinType.INNER, JoinDistribution.PARTITIONED));
    assertThat(PlanPrinter.explain(plan))
        .isEqualTo(
            """
            HashJoin[INNER, PARTITIONED, build=[#0], probe=[#1], filtered probe]  {hash([#1], 2)}
              Repartition[hash([#0]), 2]  {hash([#0], 2)}
                Scan[customers [c_id, c_name, c_nation], units=6, tasks=2]  {unknown(2)}
              Repartition[hash([#1]), 2]  {hash([#1], 2)}
                HashJoin[LEFT_SEMI, BROADCAST, build=[#0], probe=[#1], runtime filter]  {unknown(2)}
                  Broadcast  {single}
                    Aggregate[SINGLE, keys=[#0], calls=[]]  {hash([#0], 2)}
                      Repartition[hash([#0]), 2]  {hash([#0], 2)}
                        Scan[customers [c_id, c_name, c_nation], units=6, tasks=2]  {unknown(2)}
                  Scan[orders [o_id, o_cust, o_total, o_date], units=13, tasks=2]  {unknown(2)}
            """);
    assertThat(RuntimeFilters.create().apply(plan)).as("idempotent").isEqualTo(plan);
  }

  @Test
  void theBuildSidesRowsAreWrittenOnceAndReadByTheJoinAndTheKeysStage() {
    StageGraph graph =
        StagePlanner.withDefaultRewrites()
            .plan(marked(JoinType.INNER, JoinDistribution.PARTITIONED));
    // customers (shared), distinct keys, orders filtered, the join.
    assertThat(graph.stages()).hasSize(4);
    Stage customers = graph.stages().get(0);
    assertThat(customers.plan().toString()).startsWith("Scan[customers");
    assertThat(graph.isShared(customers.id())).isTrue();
    assertThat(graph.readers(customers.id())).hasSize(2);
    assertThat(graph.stages().get(1).plan().toString()).startsWith("Aggregate[SINGLE");
    assertThat(graph.stages().get(2).plan().toString())
        .startsWith("HashJoin[LEFT_SEMI, BROADCAST")
        .contains("runtime filter");
    assertThat(graph.finalStage().plan().toString()).contains("filtered probe");
  }

  @Test
  void theDefaultRewritesFilterAJoinThePlannerMarked() {
    PlanNode plan = marked(JoinType.INNER, JoinDistribution.PARTITIONED);
    StageGraph graph = StagePlanner.withDefaultRewrites().plan(plan);
    assertThat(graph.stages())
        .anySatisfy(s -> assertThat(s.plan().toString()).contains("runtime filter"));
  }

  @ParameterizedTest
  @EnumSource(
      value = JoinType.class,
      names = {"INNER", "RIGHT", "LEFT_SEMI", "RIGHT_SEMI", "RIGHT_ANTI"})
  void everyJoinThatDropsUnmatchedProbeRowsCanBeFiltered(JoinType type) {
    String text =
        PlanPrinter.explain(
            RuntimeFilters.create().apply(marked(type, JoinDistribution.PARTITIONED)));
    assertThat(text).contains("runtime filter").contains("filtered probe");
  }

  @ParameterizedTest
  @EnumSource(
      value = JoinType.class,
      names = {"LEFT", "FULL", "LEFT_ANTI", "LEFT_MARK"})
  void aJoinThatKeepsUnmatchedProbeRowsCannotBeMarked(JoinType type) {
    assertThatThrownBy(() -> marked(type, JoinDistribution.PARTITIONED))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("keeps probe rows without a match");
  }

  @Test
  void aBroadcastJoinMovesNoProbeRowsAndLosesItsMark() {
    PlanNode plan = marked(JoinType.INNER, JoinDistribution.BROADCAST);
    String text = PlanPrinter.explain(RuntimeFilters.create().apply(plan));
    assertThat(text).doesNotContain("runtime filter").doesNotContain("filtered probe");
  }

  @Test
  void anUnmarkedJoinIsLeftAsItIs() {
    PlanNode plan =
        AT_2.apply(
            orders(2)
                .hashJoin(
                    JoinType.INNER, customers(2), keys(0), keys(1), JoinDistribution.PARTITIONED)
                .build());
    assertThat(RuntimeFilters.create().apply(plan)).isSameAs(plan);
  }

  @Test
  void aRuntimeFilterIsALeftSemiBroadcastJoin() {
    assertThatThrownBy(
            () ->
                orders(2)
                    .hashJoin(
                        JoinKind.of(JoinType.INNER),
                        customers(2),
                        keys(0),
                        keys(1),
                        null,
                        JoinDistribution.PARTITIONED,
                        RuntimeFilter.FILTER))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("a runtime filter is a LEFT_SEMI BROADCAST join");
  }
}
