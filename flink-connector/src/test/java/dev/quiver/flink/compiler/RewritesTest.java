package dev.quiver.flink.compiler;

import static dev.quiver.flink.compiler.TestTables.AMOUNT;
import static dev.quiver.flink.compiler.TestTables.ID;
import static dev.quiver.flink.compiler.TestTables.KEY;
import static dev.quiver.flink.compiler.TestTables.rows;
import static dev.quiver.flink.compiler.TestTables.spread;
import static dev.quiver.flink.compiler.TestTables.table;
import static dev.quiver.plan.expr.Exprs.and;
import static dev.quiver.plan.expr.Exprs.call;
import static dev.quiver.plan.expr.Exprs.col;
import static dev.quiver.plan.expr.Exprs.lit;
import static dev.quiver.plan.node.PlanBuilder.keys;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.flink.testing.FlinkTestJobs;
import dev.quiver.plan.expr.ScalarFunction;
import dev.quiver.plan.join.JoinType;
import dev.quiver.plan.node.JoinDistribution;
import dev.quiver.plan.node.PlanBuilder;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.sort.SortKey;
import dev.quiver.plan.type.SqlType;
import dev.quiver.stage.StagePlanner;
import dev.quiver.testing.ArrowLeakCheck;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiPredicate;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One test per rewrite of {@code dev.quiver.plan.rewrite}: at more than one task the plan as
 * written ({@link StagePlanner#withoutRewrites()}) gives a wrong answer on Flink, and the rewritten
 * plan gives the right one; and the global limit, which the EnforceDistribution pass places in
 * every plan.
 */
@ExtendWith(ArrowLeakCheck.class)
class RewritesTest {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestJobs.miniCluster();

  private static final int COLUMNS = TestTables.SCHEMA.size();

  private static List<List<Object>> run(PlanNode plan, boolean rewrite, BufferAllocator allocator)
      throws Exception {
    StagePlanner planner =
        rewrite ? StagePlanner.withDefaultRewrites() : StagePlanner.withoutRewrites();
    return PlanRuns.run(plan, planner, new StageGraphCompiler(), allocator).rows();
  }

  /**
   * GlobalLimitSinglePartition, which the EnforceDistribution pass applies (so with or without the
   * rewrites): LIMIT 10 OFFSET 5 and a global top-k over several partitions are right, where a
   * limit per task would keep 10 rows of each.
   */
  @ParameterizedTest(name = "{0} tasks")
  @ValueSource(ints = {2, 4})
  void globalLimitSinglePartition(int tasks, BufferAllocator allocator) throws Exception {
    PlanNode limit = spread(0, 3000, tasks).limit(5, 10).build();
    for (boolean rewrite : new boolean[] {false, true}) {
      List<List<Object>> limited = run(limit, rewrite, allocator);
      assertThat(limited).hasSize(10).doesNotHaveDuplicates();
      assertThat(rows(0, 3000)).containsAll(limited);
    }

    PlanNode topK = spread(0, 3000, tasks).topK(List.of(SortKey.asc(ID)), 10, 0).build();
    assertThat(run(topK, false, allocator)).isEqualTo(rows(0, 10));
    assertThat(run(topK, true, allocator)).isEqualTo(rows(0, 10));

    PlanNode sorted = spread(0, 3000, tasks).orderBy(SortKey.asc(ID)).build();
    assertThat(run(sorted, false, allocator)).isEqualTo(rows(0, 3000));
  }

  /**
   * PartitionedJoinForUnmatchedBuildRows: a broadcast RIGHT join pads each unmatched build row in
   * every task (and build rows another task matched, too).
   */
  @ParameterizedTest(name = "{0} tasks")
  @ValueSource(ints = {2, 4})
  void partitionedJoinForUnmatchedBuildRows(int tasks, BufferAllocator allocator) throws Exception {
    PlanNode plan =
        spread(1000, 600, tasks)
            .hashJoin(
                JoinType.RIGHT, table(0, 200, 2), keys(KEY), keys(KEY), JoinDistribution.BROADCAST)
            .select(ID, COLUMNS + ID)
            .build();
    List<List<Object>> expected =
        rightJoinIds(rows(1000, 600), rows(0, 200), (p, b) -> p.get(KEY).equals(b.get(KEY)));
    assertThat(run(plan, false, allocator)).hasSizeGreaterThan(expected.size());
    assertThat(run(plan, true, allocator)).containsExactlyInAnyOrderElementsOf(expected);
  }

  /** NestedLoopJoinSingleProbe: a nested loop RIGHT join replicates its build side too. */
  @ParameterizedTest(name = "{0} tasks")
  @ValueSource(ints = {2, 4})
  void nestedLoopJoinSingleProbe(int tasks, BufferAllocator allocator) throws Exception {
    PlanBuilder probe = spread(1000, 600, tasks);
    PlanNode plan =
        probe
            .nestedLoopJoin(
                JoinType.RIGHT,
                table(0, 60, 1),
                and(
                    call(ScalarFunction.EQUAL, probe.col(KEY), col(COLUMNS + KEY, SqlType.BIGINT)),
                    call(ScalarFunction.LESS_THAN, probe.col(AMOUNT), lit(10L))))
            .select(ID, COLUMNS + ID)
            .build();
    List<List<Object>> expected =
        rightJoinIds(
            rows(1000, 600),
            rows(0, 60),
            (p, b) -> p.get(KEY).equals(b.get(KEY)) && (Long) p.get(AMOUNT) < 10);
    assertThat(run(plan, false, allocator)).hasSizeGreaterThan(expected.size());
    assertThat(run(plan, true, allocator)).containsExactlyInAnyOrderElementsOf(expected);
  }

  /** probe RIGHT JOIN build as (probe id or NULL, build id); NULL keys never match. */
  private static List<List<Object>> rightJoinIds(
      List<List<Object>> probe,
      List<List<Object>> build,
      BiPredicate<List<Object>, List<Object>> matches) {
    List<List<Object>> expected = new ArrayList<>();
    Set<Object> matched = new HashSet<>();
    for (List<Object> p : probe) {
      for (List<Object> b : build) {
        if (p.get(KEY) != null && b.get(KEY) != null && matches.test(p, b)) {
          expected.add(List.of(p.get(ID), b.get(ID)));
          matched.add(b.get(ID));
        }
      }
    }
    for (List<Object> b : build) {
      if (!matched.contains(b.get(ID))) {
        expected.add(Arrays.asList(null, b.get(ID)));
      }
    }
    return expected;
  }
}
