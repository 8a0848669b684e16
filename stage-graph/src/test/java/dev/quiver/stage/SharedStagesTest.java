package dev.quiver.stage;

import static dev.quiver.plan.aggregate.AggregateFunction.MAX;
import static dev.quiver.plan.aggregate.AggregateFunction.SUM;
import static dev.quiver.plan.aggregate.AggregateMode.SINGLE;
import static dev.quiver.plan.expr.Exprs.call;
import static dev.quiver.plan.expr.Exprs.decimal;
import static dev.quiver.plan.expr.Exprs.lit;
import static dev.quiver.plan.expr.ScalarFunction.GREATER_THAN;
import static dev.quiver.plan.expr.ScalarFunction.LESS_THAN;
import static dev.quiver.plan.node.PlanBuilder.keys;
import static dev.quiver.plan.node.PlanFixtures.customers;
import static dev.quiver.plan.node.PlanFixtures.orders;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.quiver.plan.join.JoinType;
import dev.quiver.plan.node.DefaultPlanVisitor;
import dev.quiver.plan.node.InputMode;
import dev.quiver.plan.node.JoinDistribution;
import dev.quiver.plan.node.Partitioning;
import dev.quiver.plan.node.PlanBuilder;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.Scan;
import dev.quiver.plan.node.StageInput;
import dev.quiver.plan.node.Union;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Shared stages: a subplan that occurs several times is cut into one stage read by each of its
 * consumers ({@link SharedSubplans}, {@link StageCutter}), and the stage graph is a DAG.
 */
class SharedStagesTest {
  private final StagePlanner planner = StagePlanner.withDefaultRewrites();

  private static PlanBuilder totals() {
    return GoldenPlans.totalsPerCustomer();
  }

  private static PlanBuilder above(PlanBuilder totals, String amount) {
    return totals.filter(call(GREATER_THAN, totals.col(1), decimal(amount)));
  }

  /** The largest total among those above {@code amount}: one global aggregate per use. */
  private static PlanBuilder largestAbove(PlanBuilder totals, String amount) {
    PlanBuilder filtered = above(totals, amount);
    return filtered.aggregate(SINGLE, keys(), filtered.call(MAX, 1, "largest"));
  }

  /** The stages whose plan is the totals' FINAL aggregate. */
  private static List<Stage> totalsStages(StageGraph graph) {
    return graph.stages().stream()
        .filter(stage -> stage.plan().toString().startsWith("Aggregate[FINAL, keys=[#1]"))
        .toList();
  }

  @Test
  void aSubplanUsedTwiceIsOneStageWithTwoReaders() {
    PlanNode plan = above(totals(), "100.00").union(above(totals(), "5.00")).build();
    StageGraph graph = planner.plan(plan);

    assertThat(totalsStages(graph)).singleElement();
    int shared = totalsStages(graph).get(0).id();
    assertThat(graph.readers(shared)).containsExactly(graph.finalStage().id(), shared + 1);
    assertThat(graph.isShared(shared)).isTrue();
    assertThat(graph.finalStage().inputs())
        .extracting(StageInput::stage, StageInput::mode)
        .containsExactly(tuple(shared, InputMode.FORWARD), tuple(shared, InputMode.FORWARD));
    // The forward inputs keep the aggregate's hash partitioning.
    assertThat(graph.finalStage().inputs().get(0).partitioning())
        .isEqualTo(Partitioning.hash(keys(0), 3));
    assertThat(scans(graph)).hasSize(1);
    assertThat(graph.explain()).contains("readers=[2, 2]");
  }

  @Test
  void aSubplanUsedThreeTimesIsOneStageReadByThreeStages() {
    PlanNode plan =
        largestAbove(totals(), "1.00")
            .union(largestAbove(totals(), "2.00"), largestAbove(totals(), "3.00"))
            .build();
    StageGraph graph = planner.plan(plan);

    Stage shared = totalsStages(graph).get(0);
    assertThat(totalsStages(graph)).hasSize(1);
    assertThat(graph.readers(shared.id())).hasSize(3).doesNotHaveDuplicates();
    assertThat(graph.consumers(shared.id())).hasSize(3);
    for (int reader : graph.readers(shared.id())) {
      assertThat(graph.stage(reader).inputs())
          .extracting(StageInput::stage, StageInput::mode)
          .containsExactly(tuple(shared.id(), InputMode.FORWARD));
    }
    assertThat(scans(graph)).hasSize(1);
    // Without sharing each use has its own scan, partial and final aggregate.
    StageGraph tree = planner.withoutSharing().plan(plan);
    assertThat(tree.explain().split("Aggregate\\[FINAL, keys=\\[#1\\]", -1)).hasSize(4);
    assertThat(graph.explain().split("Aggregate\\[FINAL, keys=\\[#1\\]", -1)).hasSize(2);
    assertThat(scans(tree)).hasSize(3);
    assertThat(tree.stages().stream().filter(stage -> tree.isShared(stage.id()))).isEmpty();
    assertThat(graph.stages().size()).isLessThan(tree.stages().size());
  }

  @Test
  void onlyTheLargestRepeatedSubplanIsAStage() {
    // The totals (a repeated aggregate) contain a repeated scan and partial aggregate: those run
    // once as part of the shared totals, not as stages of their own.
    PlanNode plan = above(totals(), "100.00").union(above(totals(), "5.00")).build();
    StageGraph graph = planner.plan(plan);
    assertThat(graph.stages()).hasSize(3);
    assertThat(graph.readers(0)).containsExactly(1); // the partial aggregate: read by the totals
  }

  @Test
  void differentSubplansStaySeparate() {
    PlanBuilder byFourTasks = orders(4);
    PlanBuilder otherTotals =
        byFourTasks.aggregate(SINGLE, keys(1), byFourTasks.call(SUM, 2, "total"));
    PlanNode plan = above(totals(), "100.00").union(above(otherTotals, "100.00")).build();
    StageGraph graph = planner.plan(plan);
    assertThat(totalsStages(graph)).isEmpty(); // both stay inside the union's stage
    assertThat(scans(graph)).hasSize(2);
    assertThat(graph.stages().stream().filter(stage -> graph.isShared(stage.id()))).isEmpty();
    assertThat(graph.explain()).isEqualTo(planner.withoutSharing().plan(plan).explain());
  }

  @Test
  void aCheapScanIsReadAgainRatherThanShared() {
    // A filtered scan is a row-at-a-time pipeline: each use reads it again, chained in its stage.
    PlanBuilder scan = orders(3);
    PlanBuilder cheap = scan.filter(call(LESS_THAN, scan.col(0), lit(100L)));
    PlanNode plan = cheap.select(0).union(cheap.select(1)).build();
    assertThat(SharedSubplans.worthMaterializing(cheap.build())).isFalse();
    assertThat(SharedSubplans.worthMaterializing(totals().build())).isTrue();

    StageGraph graph = planner.plan(plan);
    assertThat(graph.stages()).hasSize(1);
    assertThat(scans(graph)).hasSize(2);
    assertThat(new SharedSubplans().apply(planner.rewrite(plan))).isEqualTo(planner.rewrite(plan));
  }

  @Test
  void anExchangeInputIsSharedWhateverItCosts() {
    // The same customers broadcast to two joins: a scan the cost rule would read again, but the
    // broadcast materializes it anyway, so one stage feeds both joins.
    PlanBuilder first =
        orders(3)
            .hashJoin(JoinType.INNER, customers(2), keys(0), keys(1), JoinDistribution.BROADCAST);
    PlanBuilder big = orders(3);
    PlanBuilder second =
        big.filter(call(GREATER_THAN, big.col(0), lit(5L)))
            .hashJoin(JoinType.INNER, customers(2), keys(0), keys(1), JoinDistribution.BROADCAST);
    StageGraph graph = planner.plan(first.union(second).build());
    assertThat(graph.stages()).hasSize(2);
    assertThat(graph.readers(0)).containsExactly(1, 1);
    assertThat(graph.finalStage().inputs())
        .extracting(StageInput::stage, StageInput::mode)
        .containsExactly(tuple(0, InputMode.BROADCAST), tuple(0, InputMode.BROADCAST));
  }

  @Test
  void aSharedBuildSideIsReadInBroadcastWithoutAPassThroughStage() {
    // A self-join: the totals are the probe side and, broadcast, the build side.
    PlanNode plan =
        totals()
            .hashJoin(JoinType.INNER, totals(), keys(0), keys(0), JoinDistribution.BROADCAST)
            .build();
    StageGraph graph = planner.plan(plan);
    assertThat(graph.stages()).hasSize(3);
    assertThat(graph.finalStage().inputs())
        .extracting(StageInput::stage, StageInput::mode)
        .containsExactly(tuple(1, InputMode.BROADCAST), tuple(1, InputMode.FORWARD));
    assertThat(graph.readers(1)).containsExactly(2, 2);
  }

  @Test
  void dotDrawsASharedStageOnceWithAnEdgeToEachReader() {
    StageGraph graph = planner.plan(GoldenPlans.sharedSubplan());
    Stage shared = totalsStages(graph).get(0);
    String dot = graph.toDot();
    assertThat(dot).containsOnlyOnce("  s" + shared.id() + " [label=");
    assertThat(dot).contains(", style=bold];");
    assertThat(dot.lines().filter(line -> line.startsWith("  s" + shared.id() + " -> ")))
        .hasSize(graph.readers(shared.id()).size())
        .hasSizeGreaterThanOrEqualTo(3);
  }

  @Test
  void graphIsADagWhoseStagesAreAllRead() {
    Stage producer = new Stage(0, orders(3).build(), OutputDistribution.none());
    StageInput forward =
        new StageInput(
            0, InputMode.FORWARD, producer.plan().schema(), Partitioning.unknown(3), List.of());
    Stage first = new Stage(1, forward, OutputDistribution.none());
    Stage second = new Stage(2, forward, OutputDistribution.none());

    // Read by two stages: fine, but then the first reader feeds nothing and the graph fails.
    assertThatThrownBy(() -> new StageGraph(List.of(producer, first, second)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Stage 1")
        .hasMessageContaining("read by no later stage");
    StageInput readFirst =
        new StageInput(
            1, InputMode.FORWARD, producer.plan().schema(), Partitioning.unknown(3), List.of());
    PlanNode both = new Union(List.of(readFirst, forward));
    StageGraph graph =
        new StageGraph(List.of(producer, first, new Stage(2, both, OutputDistribution.none())));
    assertThat(graph.readers(0)).containsExactly(1, 2);
    assertThat(graph.isShared(0)).isTrue();
    assertThat(graph.isShared(1)).isFalse();
    assertThat(graph.consumers(0)).containsExactly(1, 2);
  }

  private static List<Scan> scans(StageGraph graph) {
    List<Scan> found = new ArrayList<>();
    for (Stage stage : graph.stages()) {
      collectScans(stage.plan(), found);
    }
    return found;
  }

  private static void collectScans(PlanNode plan, List<Scan> found) {
    plan.accept(
        new DefaultPlanVisitor<Void>() {
          @Override
          protected Void visitDefault(PlanNode node) {
            node.children().forEach(child -> collectScans(child, found));
            return null;
          }

          @Override
          public Void visitScan(Scan scan) {
            found.add(scan);
            return null;
          }
        });
  }
}
