package dev.quiver.flink.compiler;

import static dev.quiver.plan.node.PlanBuilder.keys;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.operators.exec.PlanPipelines;
import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.plan.join.EventTimeJoin;
import dev.quiver.plan.join.JoinType;
import dev.quiver.plan.node.Aggregate;
import dev.quiver.plan.node.Column;
import dev.quiver.plan.node.HashJoin;
import dev.quiver.plan.node.JoinDistribution;
import dev.quiver.plan.node.PlanBuilder;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.RowSchema;
import dev.quiver.plan.node.Scan;
import dev.quiver.plan.node.SplitUnit;
import dev.quiver.plan.node.TableSource;
import dev.quiver.plan.sort.SortKey;
import dev.quiver.plan.type.SqlType;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Which inputs of a stage keep their rows in the task ({@link KeptInputs}), named by their scans:
 * the inputs feeding a join's build side or an operator that holds rows until its input ends; not
 * those whose rows pass straight through to the task's output.
 */
class KeptInputsTest {
  private static final RowSchema SCHEMA =
      RowSchema.of(Column.notNull("id", SqlType.BIGINT), Column.of("ts", SqlType.TIMESTAMP));

  private static PlanBuilder scan(String name) {
    TableSource source =
        new TableSource(name, SCHEMA, List.of(SplitUnit.file(name + ".parquet", 100, 10)));
    return PlanBuilder.scan(source, 1);
  }

  /** The scans of the inputs {@link KeptInputs} names, by the pipeline's input numbers. */
  private static Set<String> kept(PlanBuilder plan) {
    PlanNode node = plan.build();
    List<PlanNode> inputs = PlanPipelines.inputs(node);
    Set<String> names = new TreeSet<>();
    for (int input : KeptInputs.of(node)) {
      names.add(((Scan) inputs.get(input)).source().name());
    }
    return names;
  }

  private static PlanBuilder join(JoinType type, PlanBuilder probe, PlanBuilder build) {
    return probe.hashJoin(type, build, keys(0), keys(0), JoinDistribution.BROADCAST);
  }

  @Test
  void aUnionPassesEveryInputsRowsThrough() {
    PlanBuilder plan = scan("table").select(0, 1).union(scan("stream").select(1, 0).select(1, 0));
    assertThat(kept(plan)).isEmpty();
  }

  @Test
  void aJoinKeepsItsBuildSideAndPassesItsProbeSide() {
    assertThat(kept(join(JoinType.INNER, scan("stream"), scan("table")))).containsExactly("table");
    assertThat(kept(join(JoinType.LEFT, scan("stream"), scan("table")))).containsExactly("table");
    // Its build side a union of two tables, under a union with a third.
    PlanBuilder plan =
        join(JoinType.LEFT_SEMI, scan("stream"), scan("a").union(scan("b"))).union(scan("c"));
    assertThat(kept(plan)).containsExactly("a", "b");
    PlanBuilder loop = scan("stream").nestedLoopJoin(JoinType.INNER, scan("table"), null);
    assertThat(kept(loop)).containsExactly("table");
  }

  /** The join's marks on its build rows are the probe rows' effect: they stay too. */
  @Test
  void aJoinThatEmitsUnmatchedBuildRowsKeepsBothSides() {
    assertThat(kept(join(JoinType.RIGHT, scan("probe"), scan("build"))))
        .containsExactly("build", "probe");
    assertThat(kept(join(JoinType.RIGHT_ANTI, scan("probe"), scan("build"))))
        .containsExactly("build", "probe");
  }

  @Test
  void operatorsThatHoldRowsUntilTheirInputEndsKeepThem() {
    AggregateCall count = AggregateCall.countStar("n");
    assertThat(
            kept(
                scan("grouped")
                    .aggregate(AggregateMode.SINGLE, keys(0), count)
                    .union(scan("stream").aggregate(AggregateMode.SINGLE, keys(0), count))))
        .containsExactly("grouped", "stream");
    assertThat(kept(scan("sorted").sort(SortKey.asc(0)).union(scan("passes"))))
        .containsExactly("sorted");
    assertThat(kept(scan("limited").limit(0, 5).union(scan("passes")))).containsExactly("limited");
  }

  /** Window aggregates and joins of two streams snapshot their own state. */
  @Test
  void eventTimeOperatorsSnapshotTheirOwnState() {
    Aggregate aggregate =
        (Aggregate)
            scan("stream")
                .aggregate(AggregateMode.PARTIAL, keys(1), AggregateCall.countStar("n"))
                .build();
    assertThat(kept(PlanBuilder.from(aggregate.withWindowEnd(1)))).isEmpty();
    HashJoin join =
        (HashJoin)
            scan("left")
                .hashJoin(
                    JoinType.INNER,
                    scan("right"),
                    keys(0, 1),
                    keys(0, 1),
                    JoinDistribution.BROADCAST)
                .build();
    assertThat(kept(PlanBuilder.from(join.withEventTime(EventTimeJoin.window(1, 1))))).isEmpty();
  }

  /** VALUES leaves (the pipeline's sources, numbered apart from the inputs) by the same rules. */
  @Test
  void valuesAreKeptByTheSameRules() {
    PlanBuilder values = PlanBuilder.values(SCHEMA, List.of(Arrays.asList(1L, null)));
    PlanNode join = join(JoinType.INNER, scan("stream"), values).select(0, 1).union(values).build();
    assertThat(KeptInputs.sources(join)).containsExactly(0); // the build side, not the union's
    assertThat(KeptInputs.of(join)).isEmpty();
    Aggregate updating =
        (Aggregate)
            values
                .union(scan("stream"))
                .aggregate(AggregateMode.SINGLE, keys(0), AggregateCall.countStar("n"))
                .build();
    assertThat(KeptInputs.sources(updating)).containsExactly(0);
    assertThat(KeptInputs.sources(updating.updating())).isEmpty();
  }

  /** An updating aggregate (a GROUP BY over a stream) checkpoints its groups itself. */
  @Test
  void anUpdatingAggregateSnapshotsItsOwnGroups() {
    for (AggregateMode mode : List.of(AggregateMode.SINGLE, AggregateMode.PARTIAL)) {
      Aggregate aggregate =
          (Aggregate)
              scan("table")
                  .union(scan("stream"))
                  .aggregate(mode, keys(0), AggregateCall.countStar("n"))
                  .build();
      assertThat(kept(PlanBuilder.from(aggregate.updating()))).as(mode.name()).isEmpty();
    }
  }
}
