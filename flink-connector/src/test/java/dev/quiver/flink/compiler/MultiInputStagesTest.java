package dev.quiver.flink.compiler;

import static dev.quiver.flink.compiler.TestTables.ID;
import static dev.quiver.flink.compiler.TestTables.KEY;
import static dev.quiver.flink.compiler.TestTables.rows;
import static dev.quiver.flink.compiler.TestTables.spread;
import static dev.quiver.flink.compiler.TestTables.table;
import static dev.quiver.plan.node.PlanBuilder.hash;
import static dev.quiver.plan.node.PlanBuilder.keys;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.flink.testing.FlinkTestJobs;
import dev.quiver.plan.join.JoinType;
import dev.quiver.plan.node.InputMode;
import dev.quiver.plan.node.JoinDistribution;
import dev.quiver.plan.node.PlanBuilder;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.testing.ArrowLeakCheck;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Stages with more than two inputs (Flink multiple-input operators), VALUES inside a stage that
 * also reads another stage, and nested stages (a join of two aggregates, sorted and merged).
 */
@ExtendWith(ArrowLeakCheck.class)
class MultiInputStagesTest {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestJobs.miniCluster();

  private static PlanBuilder hashed(long from, int count, int tasks) {
    return table(from, count, 3).repartition(hash(KEY), tasks);
  }

  @ParameterizedTest(name = "{0} tasks")
  @ValueSource(ints = {1, 2, 4})
  void unionOfThreeStages(int tasks, BufferAllocator allocator) throws Exception {
    PlanNode plan =
        spread(0, 1000, tasks).union(hashed(1000, 1000, tasks), spread(2000, 500, tasks)).build();
    PlanRuns.Run run = PlanRuns.run(plan, allocator);
    assertThat(run.rows().stream().map(row -> row.get(ID)))
        .containsExactlyInAnyOrderElementsOf(LongStream.range(0, 2500).boxed().toList());
    assertThat(run.graph().finalStage().inputs()).hasSize(3);
  }

  /** Build side first, then the two probe inputs: three Flink inputs read in pipeline order. */
  @ParameterizedTest(name = "{0} tasks")
  @ValueSource(ints = {1, 2, 4})
  void joinOverUnion(int tasks, BufferAllocator allocator) throws Exception {
    PlanBuilder probe = hashed(1000, 800, tasks).union(hashed(3000, 800, tasks));
    PlanNode plan =
        probe
            .hashJoin(
                JoinType.INNER,
                hashed(0, 300, tasks),
                keys(KEY),
                keys(KEY),
                JoinDistribution.PARTITIONED)
            .select(ID, TestTables.SCHEMA.size() + ID)
            .build();
    List<List<Object>> probeRows = new ArrayList<>(rows(1000, 800));
    probeRows.addAll(rows(3000, 800));
    PlanRuns.Run run = PlanRuns.run(plan, allocator);
    assertThat(run.rows())
        .containsExactlyInAnyOrderElementsOf(innerJoinIds(probeRows, rows(0, 300)));
    assertThat(run.graph().finalStage().inputs()).hasSize(3);
  }

  /** A VALUES build side runs inside the join's task, before the probe stage's batches. */
  @Test
  void valuesBuildSideInsideAStage(BufferAllocator allocator) throws Exception {
    PlanNode plan =
        spread(1000, 1500, 1)
            .hashJoin(
                JoinType.INNER,
                PlanBuilder.values(TestTables.SCHEMA, rows(0, 100)),
                keys(KEY),
                keys(KEY),
                JoinDistribution.PARTITIONED)
            .select(ID, TestTables.SCHEMA.size() + ID)
            .build();
    PlanRuns.Run run = PlanRuns.run(plan, allocator);
    assertThat(run.rows())
        .containsExactlyInAnyOrderElementsOf(innerJoinIds(rows(1000, 1500), rows(0, 100)));
    assertThat(run.graph().finalStage().inputs()).hasSize(1);
  }

  private static List<List<Object>> innerJoinIds(
      List<List<Object>> probe, List<List<Object>> build) {
    List<List<Object>> expected = new ArrayList<>();
    for (List<Object> p : probe) {
      for (List<Object> b : build) {
        if (p.get(KEY) != null && p.get(KEY).equals(b.get(KEY))) {
          expected.add(List.of(p.get(ID), b.get(ID)));
        }
      }
    }
    return expected;
  }

  /**
   * Nested stages: (count of small-amount rows per key) JOIN (sum of amounts per key), both
   * partial/final aggregates, joined partitioned, sorted per task and merged.
   */
  @ParameterizedTest(name = "{0} tasks")
  @ValueSource(ints = {1, 2, 4})
  void joinOfTwoAggregates(int tasks, BufferAllocator allocator) throws Exception {
    PlanNode plan = NestedPlans.joinOfAggregates(tasks);
    PlanRuns.Run run = PlanRuns.run(plan, allocator);
    assertThat(run.rows()).isEqualTo(NestedPlans.expectedJoinOfAggregates());
    assertThat(run.modes()).containsExactly(InputMode.SHUFFLE, InputMode.MERGE);
    assertThat(run.graph().stages()).hasSizeGreaterThanOrEqualTo(5);
  }
}
