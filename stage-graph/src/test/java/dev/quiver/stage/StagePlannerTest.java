package dev.quiver.stage;

import static dev.quiver.plan.node.PlanBuilder.hash;
import static dev.quiver.plan.node.PlanBuilder.keys;
import static dev.quiver.plan.node.PlanFixtures.customers;
import static dev.quiver.plan.node.PlanFixtures.orders;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.plan.expr.Exprs;
import dev.quiver.plan.join.JoinType;
import dev.quiver.plan.node.Broadcast;
import dev.quiver.plan.node.DefaultPlanVisitor;
import dev.quiver.plan.node.Filter;
import dev.quiver.plan.node.InputMode;
import dev.quiver.plan.node.JoinDistribution;
import dev.quiver.plan.node.Partitioning;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.Scan;
import dev.quiver.plan.node.StageInput;
import dev.quiver.plan.sort.SortKey;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class StagePlannerTest {
  private final StagePlanner planner = StagePlanner.withDefaultRewrites();

  @Test
  void stagesAreInTopologicalOrderWithStableIds() {
    for (Supplier<PlanNode> plan : GoldenPlans.all().values()) {
      StageGraph graph = planner.plan(plan.get());
      List<Stage> stages = graph.stages();
      for (int i = 0; i < stages.size(); i++) {
        Stage stage = stages.get(i);
        assertThat(stage.id()).isEqualTo(i);
        assertThat(stage.tasks()).isEqualTo(stage.plan().partitions());
        for (StageInput input : stage.inputs()) {
          assertThat(input.stage()).isLessThan(stage.id());
          assertThat(graph.consumers(input.stage())).contains(stage.id());
        }
      }
      assertThat(graph.finalStage()).isSameAs(stages.get(stages.size() - 1));
      assertThat(graph.consumers(graph.finalStage().id())).isEmpty();
      assertThat(graph.schema()).isEqualTo(plan.get().schema());
      assertThat(planner.plan(plan.get()).explain()).isEqualTo(graph.explain());
    }
  }

  @Test
  void nestedAggregatesJoinAndMergeCutIntoFourStages() {
    StageGraph graph = planner.plan(GoldenPlans.nestedJoinOfAggregates());
    assertThat(graph.stages()).extracting(Stage::tasks).containsExactly(2, 3, 4, 1);
    assertThat(graph.stage(0).distribution()).isEqualTo(OutputDistribution.hash(keys(0), 4));
    assertThat(graph.stage(2).inputs())
        .extracting(StageInput::stage, StageInput::mode)
        .containsExactly(tuple(0, InputMode.SHUFFLE), tuple(1, InputMode.SHUFFLE));
    assertThat(graph.stage(3).inputs())
        .singleElement()
        .satisfies(
            input -> {
              assertThat(input.mode()).isEqualTo(InputMode.MERGE);
              assertThat(input.ordering()).containsExactly(SortKey.desc(1));
            });
    assertThat(graph.stage(2).distribution()).isEqualTo(OutputDistribution.none());
  }

  @Test
  void scansGetBalancedAssignmentsAtPlanningTime() {
    StageGraph graph = planner.plan(orders(3).build());
    List<Scan> scans = scans(graph.finalStage().plan());
    assertThat(scans)
        .singleElement()
        .satisfies(
            scan ->
                assertThat(scan.assignment().orElseThrow())
                    .extracting(List::size)
                    .containsExactly(5, 4, 4));
  }

  @Test
  void shuffleInputsCarryTheProducersHashPartitioning() {
    StageGraph graph = planner.plan(GoldenPlans.aggregatePartialFinal());
    StageInput input = graph.finalStage().inputs().get(0);
    assertThat(input.partitioning()).isEqualTo(Partitioning.hash(keys(0), 4));
    assertThat(graph.stage(0).distribution().channels()).isEqualTo(4);
  }

  @Test
  void oneTaskBuildSideIsBroadcastWithoutAnExtraStage() {
    // COLLECT_LEFT over a 3-partition build: the builder gathers it (Coalesce to 1), and the
    // planner reads that gathered stage in BROADCAST mode instead of adding a pass-through stage.
    StageGraph graph =
        planner.plan(
            orders(4)
                .hashJoin(
                    JoinType.INNER, customers(3), keys(0), keys(1), JoinDistribution.COLLECT_LEFT)
                .build());
    assertThat(graph.stages()).hasSize(2);
    assertThat(graph.finalStage().inputs())
        .singleElement()
        .extracting(StageInput::mode)
        .isEqualTo(InputMode.BROADCAST);
    assertThat(graph.finalStage().tasks()).isEqualTo(4);
  }

  @Test
  void rewritesCanBeSwitchedOff() {
    // A RIGHT nested loop join needs one probe partition (NestedLoopJoinSingleProbe, a rewrite);
    // the exchanges every plan needs (EnforceDistribution) are not rewrites and always placed.
    PlanNode plan = orders(3).nestedLoopJoin(JoinType.RIGHT, customers(1), Exprs.lit(true)).build();
    StageGraph raw = StagePlanner.withoutRewrites().plan(plan);
    assertThat(raw.finalStage().tasks()).isEqualTo(3);
    assertThat(StagePlanner.withoutRewrites().rewrite(plan)).isSameAs(plan);
    assertThat(planner.plan(plan).finalStage().tasks()).isEqualTo(1);
  }

  @Test
  void broadcastOutsideAJoinBuildSideIsRejected() {
    PlanNode broadcast = new Broadcast(orders(2).build());
    PlanNode plan = new Filter(broadcast, Exprs.lit(true));
    assertThatThrownBy(() -> planner.plan(plan))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("build input")
        .satisfies(
            e -> assertThat(((QuiverException) e).code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
  }

  @Test
  void graphRejectsInconsistentEdges() {
    Stage producer = new Stage(0, orders(3).build(), OutputDistribution.none());
    PlanNode merged =
        new StageInput(
            0, InputMode.SHUFFLE, producer.plan().schema(), Partitioning.unknown(3), List.of());
    assertThatThrownBy(
            () ->
                new StageGraph(List.of(producer, new Stage(1, merged, OutputDistribution.none()))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("SHUFFLE");
    assertThatThrownBy(
            () -> new StageGraph(List.of(new Stage(0, merged, OutputDistribution.none()))))
        .hasMessageContaining("does not come before it");
  }

  @Test
  void repartitionedScansShuffleIntoTheJoin() {
    StageGraph graph = planner.plan(GoldenPlans.joinPartitioned());
    assertThat(graph.stages())
        .extracting(Stage::distribution)
        .containsExactly(
            OutputDistribution.hash(keys(0), 4),
            OutputDistribution.hash(keys(1), 4),
            OutputDistribution.none());
    assertThat(orders(3).repartition(hash(1), 4).partitions()).isEqualTo(4);
  }

  private static List<Scan> scans(PlanNode plan) {
    List<Scan> found = new ArrayList<>();
    plan.accept(
        new DefaultPlanVisitor<Void>() {
          @Override
          protected Void visitDefault(PlanNode node) {
            node.children().forEach(child -> found.addAll(scans(child)));
            return null;
          }

          @Override
          public Void visitScan(Scan scan) {
            found.add(scan);
            return null;
          }
        });
    return found;
  }
}
