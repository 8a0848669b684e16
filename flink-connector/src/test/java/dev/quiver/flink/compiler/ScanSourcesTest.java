package dev.quiver.flink.compiler;

import static dev.quiver.flink.compiler.TestTables.AMOUNT;
import static dev.quiver.flink.compiler.TestTables.ID;
import static dev.quiver.flink.compiler.TestTables.KEY;
import static dev.quiver.flink.compiler.TestTables.rows;
import static dev.quiver.plan.node.PlanBuilder.hash;
import static dev.quiver.plan.node.PlanBuilder.keys;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.flink.batch.BatchCompression;
import dev.quiver.flink.testing.FlinkTestJobs;
import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateFunction;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.plan.join.JoinType;
import dev.quiver.plan.node.InputMode;
import dev.quiver.plan.node.JoinDistribution;
import dev.quiver.plan.node.PlanBuilder;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.stage.StagePlanner;
import dev.quiver.testing.ArrowLeakCheck;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Scan leaves read through a {@link ScanSourceFactory} with their planned split assignment, in a
 * stage that also reads a broadcast input, over edges with each batch compression.
 */
@ExtendWith(ArrowLeakCheck.class)
class ScanSourcesTest {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestJobs.miniCluster();

  private static final int UNITS = 7;
  private static final int ROWS_PER_UNIT = 300;

  /** SELECT b.k, count(*), sum(o.amount) FROM orders o JOIN (VALUES ...) b ON ... GROUP BY b.k */
  private static PlanNode plan() {
    PlanBuilder orders = PlanBuilder.scan(GeneratedScans.table("orders", UNITS, ROWS_PER_UNIT), 3);
    PlanBuilder joined =
        orders.hashJoin(
            JoinType.LEFT_SEMI,
            PlanBuilder.values(TestTables.SCHEMA, rows(0, 40)),
            keys(KEY),
            keys(KEY),
            JoinDistribution.BROADCAST);
    List<AggregateCall> calls =
        List.of(AggregateCall.countStar("n"), joined.call(AggregateFunction.SUM, AMOUNT, "total"));
    return joined
        .aggregate(AggregateMode.PARTIAL, keys(KEY), calls)
        .repartition(hash(0), 2)
        .aggregate(AggregateMode.FINAL, keys(KEY), calls)
        .build();
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(BatchCompression.class)
  void scanJoinAggregate(BatchCompression compression, BufferAllocator allocator) throws Exception {
    StageGraphCompiler compiler =
        new StageGraphCompiler().withScanSources(new GeneratedScans()).withCompression(compression);
    PlanRuns.Run run =
        PlanRuns.run(plan(), StagePlanner.withDefaultRewrites(), compiler, allocator);

    Map<Object, Object> buildKeys = new HashMap<>();
    rows(0, 40).forEach(row -> buildKeys.put(row.get(KEY), row.get(ID)));
    Map<Object, List<Long>> expected = new HashMap<>();
    for (List<Object> row : rows(0, UNITS * ROWS_PER_UNIT)) {
      if (row.get(KEY) != null && buildKeys.containsKey(row.get(KEY))) {
        List<Long> acc =
            expected.computeIfAbsent(row.get(KEY), k -> new ArrayList<>(List.of(0L, 0L)));
        acc.set(0, acc.get(0) + 1);
        acc.set(1, acc.get(1) + (Long) row.get(AMOUNT));
      }
    }
    Map<Object, List<Object>> actual = new HashMap<>();
    run.rows().forEach(row -> actual.put(row.get(0), row.subList(1, 3)));
    assertThat(actual).hasSize(expected.size()).isEqualTo(expected);
    assertThat(run.modes()).containsExactly(InputMode.SHUFFLE, InputMode.BROADCAST);
  }

  @Test
  void scansNeedAScanSourceFactory(BufferAllocator allocator) {
    assertThatThrownBy(() -> PlanRuns.run(plan(), allocator))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ScanSourceFactory");
  }
}
