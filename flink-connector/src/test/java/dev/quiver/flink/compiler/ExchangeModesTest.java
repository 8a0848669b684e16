package dev.quiver.flink.compiler;

import static dev.quiver.flink.compiler.TestTables.AMOUNT;
import static dev.quiver.flink.compiler.TestTables.ID;
import static dev.quiver.flink.compiler.TestTables.KEY;
import static dev.quiver.flink.compiler.TestTables.NAME;
import static dev.quiver.flink.compiler.TestTables.rows;
import static dev.quiver.flink.compiler.TestTables.spread;
import static dev.quiver.flink.compiler.TestTables.table;
import static dev.quiver.plan.expr.Exprs.call;
import static dev.quiver.plan.expr.Exprs.col;
import static dev.quiver.plan.expr.Exprs.lit;
import static dev.quiver.plan.node.PlanBuilder.hash;
import static dev.quiver.plan.node.PlanBuilder.keys;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.flink.testing.FlinkTestJobs;
import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateFunction;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.plan.expr.ScalarFunction;
import dev.quiver.plan.join.JoinKind;
import dev.quiver.plan.join.JoinType;
import dev.quiver.plan.node.InputMode;
import dev.quiver.plan.node.JoinDistribution;
import dev.quiver.plan.node.PlanBuilder;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.type.SqlType;
import dev.quiver.testing.ArrowLeakCheck;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Hand-built plans over VALUES compiled into Flink jobs, one per input mode, at 1, 2 and 4 tasks,
 * each checked against the same rows computed in plain Java.
 */
@ExtendWith(ArrowLeakCheck.class)
class ExchangeModesTest {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestJobs.miniCluster();

  /** SHUFFLE (round-robin and hash): filter, partial aggregate, hash shuffle, final aggregate. */
  @ParameterizedTest(name = "{0} tasks")
  @ValueSource(ints = {1, 2, 4})
  void partialFinalAggregate(int tasks, BufferAllocator allocator) throws Exception {
    PlanBuilder orders = spread(0, 3000, tasks);
    List<AggregateCall> calls =
        List.of(
            AggregateCall.countStar("n"),
            orders.call(AggregateFunction.SUM, ID, "ids"),
            orders.call(AggregateFunction.MIN, NAME, "min_s"));
    PlanNode plan =
        orders
            .filter(call(ScalarFunction.LESS_THAN, orders.col(AMOUNT), lit(90L)))
            .aggregate(AggregateMode.PARTIAL, keys(KEY), calls)
            .repartition(hash(0), tasks)
            .aggregate(AggregateMode.FINAL, keys(KEY), calls)
            .build();
    PlanRuns.Run run = PlanRuns.run(plan, allocator);

    Map<Object, List<Object>> expected = new HashMap<>();
    for (List<Object> row : rows(0, 3000)) {
      if ((Long) row.get(AMOUNT) < 90) {
        List<Object> acc = expected.computeIfAbsent(row.get(KEY), k -> Arrays.asList(0L, 0L, null));
        acc.set(0, (Long) acc.get(0) + 1);
        acc.set(1, (Long) acc.get(1) + (Long) row.get(ID));
        String name = (String) row.get(NAME);
        if (name != null && (acc.get(2) == null || name.compareTo((String) acc.get(2)) < 0)) {
          acc.set(2, name);
        }
      }
    }
    Map<Object, List<Object>> actual = new HashMap<>();
    for (List<Object> row : run.rows()) {
      assertThat(actual.put(row.get(0), row.subList(1, 4))).as("group %s", row.get(0)).isNull();
    }
    assertThat(actual).isEqualTo(expected);
    assertThat(run.modes()).containsExactly(InputMode.SHUFFLE);
  }

  /** SHUFFLE into a two-input stage: a partitioned join with a residual condition. */
  @ParameterizedTest(name = "{0} tasks")
  @ValueSource(ints = {1, 2, 4})
  void partitionedJoin(int tasks, BufferAllocator allocator) throws Exception {
    PlanBuilder build = table(0, 600, 3).repartition(hash(KEY), tasks);
    PlanBuilder probe = table(5000, 2000, 5).repartition(hash(KEY), tasks);
    int buildAmount = TestTables.SCHEMA.size() + AMOUNT;
    PlanNode plan =
        probe
            .hashJoin(
                JoinKind.of(JoinType.INNER),
                build,
                keys(KEY),
                keys(KEY),
                call(
                    ScalarFunction.GREATER_THAN,
                    probe.col(AMOUNT),
                    col(buildAmount, SqlType.BIGINT)),
                JoinDistribution.PARTITIONED)
            .select(ID, TestTables.SCHEMA.size() + ID)
            .build();
    List<List<Object>> expected = new ArrayList<>();
    for (List<Object> p : rows(5000, 2000)) {
      for (List<Object> b : rows(0, 600)) {
        if (p.get(KEY) != null
            && p.get(KEY).equals(b.get(KEY))
            && (Long) p.get(AMOUNT) > (Long) b.get(AMOUNT)) {
          expected.add(List.of(p.get(ID), b.get(ID)));
        }
      }
    }
    PlanRuns.Run run = PlanRuns.run(plan, allocator);
    assertThat(run.rows()).hasSizeGreaterThan(1000).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(run.modes()).containsExactly(InputMode.SHUFFLE);
  }

  /**
   * BROADCAST build side from several tasks, FORWARD probe side (a coalesce to the same count): a
   * LEFT join, which is right with a replicated build side.
   */
  @ParameterizedTest(name = "{0} tasks")
  @ValueSource(ints = {1, 2, 4})
  void broadcastJoinWithForwardProbe(int tasks, BufferAllocator allocator) throws Exception {
    PlanBuilder build = spread(0, 400, Math.max(1, tasks / 2));
    PlanBuilder probe = spread(10_000, 2000, tasks).coalesce(tasks);
    PlanNode plan =
        probe
            .hashJoin(JoinType.LEFT, build, keys(KEY), keys(KEY), JoinDistribution.BROADCAST)
            .select(ID, TestTables.SCHEMA.size() + ID)
            .build();
    List<List<Object>> expected = new ArrayList<>();
    for (List<Object> p : rows(10_000, 2000)) {
      boolean matched = false;
      for (List<Object> b : rows(0, 400)) {
        if (p.get(KEY) != null && p.get(KEY).equals(b.get(KEY))) {
          expected.add(List.of(p.get(ID), b.get(ID)));
          matched = true;
        }
      }
      if (!matched) {
        expected.add(Arrays.asList(p.get(ID), null));
      }
    }
    PlanRuns.Run run = PlanRuns.run(plan, allocator);
    assertThat(run.rows()).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(run.modes()).contains(InputMode.BROADCAST, InputMode.FORWARD);
  }

  /** RESCALE: twice as many producers as consumers, then a gather into one task. */
  @ParameterizedTest(name = "{0} tasks")
  @ValueSource(ints = {1, 2, 4})
  void rescale(int tasks, BufferAllocator allocator) throws Exception {
    PlanBuilder orders = spread(0, 3000, 2 * tasks).coalesce(tasks);
    List<AggregateCall> calls =
        List.of(AggregateCall.countStar("n"), orders.call(AggregateFunction.SUM, AMOUNT, "total"));
    PlanNode plan =
        orders
            .aggregate(AggregateMode.PARTIAL, keys(), calls)
            .coalesce(1)
            .aggregate(AggregateMode.FINAL, keys(), calls)
            .build();
    long total = rows(0, 3000).stream().mapToLong(row -> (Long) row.get(AMOUNT)).sum();
    PlanRuns.Run run = PlanRuns.run(plan, allocator);
    assertThat(run.rows()).containsExactly(List.of(3000L, total));
    assertThat(run.modes()).contains(InputMode.RESCALE);
  }
}
