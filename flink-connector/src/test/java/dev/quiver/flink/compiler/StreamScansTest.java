package dev.quiver.flink.compiler;

import static dev.quiver.flink.testing.FlinkTestJobs.batchEnvironment;
import static dev.quiver.plan.node.PlanBuilder.hash;
import static dev.quiver.plan.node.PlanBuilder.keys;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.testing.FlinkTestJobs;
import dev.quiver.flink.testing.GenerateOperator;
import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateFunction;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.plan.node.PlanBuilder;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.sql.Catalog;
import dev.quiver.sql.SqlPlanner;
import dev.quiver.stage.StageGraph;
import dev.quiver.stage.StagePlanner;
import dev.quiver.testing.ArrowLeakCheck;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A program's own stream of batches read by a Quiver plan and by Quiver SQL in the same job: with
 * the stream's task count or another, all columns or the few a query uses.
 */
@ExtendWith(ArrowLeakCheck.class)
class StreamScansTest {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestJobs.miniCluster();

  private static final int SEEDS = 30; // batches of GenerateOperator.ROWS rows

  /** 3 tasks generate ids 0 .. 2999: id, key (NULL every 17th), skey = 's' + key, producer. */
  private static DataStream<BatchRecord> generated(StreamExecutionEnvironment env) {
    return env.fromSequence(0, SEEDS - 1)
        .setParallelism(3)
        .transform("generate", GenerateOperator.TYPE, new GenerateOperator(false))
        .setParallelism(3);
  }

  @Test
  void aPlanAggregatesTheStreamWithOtherTaskCounts(BufferAllocator allocator) throws Exception {
    StreamExecutionEnvironment env = batchEnvironment();
    StreamScans streams = new StreamScans();
    PlanBuilder scan = PlanBuilder.scan(streams.add("gen", generated(env)), 2); // 3 → 2 tasks
    List<AggregateCall> calls =
        List.of(AggregateCall.countStar("n"), scan.call(AggregateFunction.SUM, 0, "ids"));
    PlanNode plan =
        scan.aggregate(AggregateMode.PARTIAL, keys(1), calls)
            .repartition(hash(0), 4)
            .aggregate(AggregateMode.FINAL, keys(1), calls)
            .build();

    List<List<Object>> rows =
        run(env, streams, StagePlanner.withDefaultRewrites().plan(plan), allocator);

    Map<Long, List<Object>> expected = new HashMap<>();
    for (long id = 0; id < SEEDS * GenerateOperator.ROWS; id++) {
      Long key = GenerateOperator.key(id, false);
      List<Object> acc = expected.computeIfAbsent(key, k -> Arrays.asList(k, 0L, 0L));
      acc.set(1, (Long) acc.get(1) + 1);
      acc.set(2, (Long) acc.get(2) + id);
    }
    assertThat(rows).containsExactlyInAnyOrderElementsOf(expected.values());
  }

  @Test
  void sqlReadsOnlyTheColumnsItUses(BufferAllocator allocator) throws Exception {
    StreamExecutionEnvironment env = batchEnvironment();
    StreamScans streams = new StreamScans();
    streams.add("gen", generated(env));
    Catalog catalog = new Catalog().add(streams.catalogTable("gen", SEEDS * 100));
    PlanNode plan =
        new SqlPlanner(catalog)
            .plan(
                "SELECT skey, count(*) AS n FROM gen WHERE id < 1000 AND skey IS NOT NULL"
                    + " GROUP BY skey ORDER BY n DESC, skey LIMIT 3",
                3);
    StageGraph graph = StagePlanner.withDefaultRewrites().plan(plan);
    assertThat(graph.explain()).contains("Scan[gen [id, skey]");

    List<List<Object>> rows = run(env, streams, graph, allocator);

    Map<String, Long> counts = new HashMap<>();
    for (long id = 0; id < 1000; id++) {
      Long key = GenerateOperator.key(id, false);
      if (key != null) {
        counts.merge("s" + key, 1L, Long::sum);
      }
    }
    List<List<Object>> expected = new ArrayList<>();
    counts.forEach((skey, n) -> expected.add(List.of(skey, n)));
    expected.sort(
        (a, b) ->
            a.get(1).equals(b.get(1))
                ? ((String) a.get(0)).compareTo((String) b.get(0))
                : Long.compare((Long) b.get(1), (Long) a.get(1)));
    assertThat(rows).isEqualTo(expected.subList(0, 3));
  }

  @Test
  void aScanOfAnotherStreamScansOrEnvironmentIsRejected() {
    StreamExecutionEnvironment env = batchEnvironment();
    StreamScans streams = new StreamScans();
    PlanNode plan = PlanBuilder.scan(streams.add("gen", generated(env)), 3).build();
    StageGraph graph = StagePlanner.withDefaultRewrites().plan(plan);

    StageGraphCompiler others = new StageGraphCompiler().withScanSources(new StreamScans());
    assertThatThrownBy(() -> others.compile(env, graph))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a stream table of this StreamScans");
    StageGraphCompiler compiler = new StageGraphCompiler().withScanSources(streams);
    assertThatThrownBy(() -> compiler.compile(batchEnvironment(), graph))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("another StreamExecutionEnvironment");
    assertThatThrownBy(() -> streams.add("gen", generated(env)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("new, non-empty name");
  }

  private static List<List<Object>> run(
      StreamExecutionEnvironment env,
      StreamScans streams,
      StageGraph graph,
      BufferAllocator allocator)
      throws Exception {
    DataStream<BatchRecord> result =
        new StageGraphCompiler().withScanSources(streams).compile(env, graph);
    return FlinkTestJobs.collectRows(result, allocator);
  }
}
