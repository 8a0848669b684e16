package dev.quiver.flink.compiler;

import static dev.quiver.flink.compiler.TestTables.AMOUNT;
import static dev.quiver.flink.compiler.TestTables.KEY;
import static dev.quiver.flink.compiler.TestTables.spread;
import static dev.quiver.plan.aggregate.AggregateFunction.SUM;
import static dev.quiver.plan.aggregate.AggregateMode.SINGLE;
import static dev.quiver.plan.expr.Exprs.call;
import static dev.quiver.plan.expr.Exprs.lit;
import static dev.quiver.plan.expr.ScalarFunction.GREATER_THAN;
import static dev.quiver.plan.expr.ScalarFunction.LESS_THAN;
import static dev.quiver.plan.node.PlanBuilder.hash;
import static dev.quiver.plan.node.PlanBuilder.keys;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.testing.FlinkTestJobs;
import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.node.InputMode;
import dev.quiver.plan.node.PlanBuilder;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.StageInput;
import dev.quiver.stage.Stage;
import dev.quiver.stage.StageGraph;
import dev.quiver.stage.StagePlanner;
import dev.quiver.testing.ArrowLeakCheck;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.flink.runtime.io.network.partition.ResultPartitionType;
import org.apache.flink.runtime.jobgraph.IntermediateDataSet;
import org.apache.flink.runtime.jobgraph.JobEdge;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobgraph.JobVertex;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A shared stage in the Flink job: one operator whose output is one blocking result partition, read
 * by each reader, none of which is chained to it; and the job's rows are those of the same plan cut
 * without sharing.
 *
 * <pre>
 *   sums per key (shared) ─┬─forward─► count of sums > 0   ─┐
 *                          ├─forward─► count of sums > 100 ─┼─► union
 *                          └─forward─► count of sums > 500 ─┘
 * </pre>
 */
@ExtendWith(ArrowLeakCheck.class)
class SharedStageJobTest {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestJobs.miniCluster();

  private static PlanBuilder countAbove(PlanBuilder sums, long amount) {
    PlanBuilder above = sums.filter(call(GREATER_THAN, sums.col(1), lit(amount)));
    return above.aggregate(SINGLE, keys(), AggregateCall.countStar("n"));
  }

  private static PlanNode plan() {
    PlanBuilder rows = spread(0, 5000, 2);
    PlanBuilder sums = rows.aggregate(SINGLE, keys(KEY), rows.call(SUM, AMOUNT, "total"));
    return countAbove(sums, 0).union(countAbove(sums, 100), countAbove(sums, 500)).build();
  }

  private static Stage shared(StageGraph graph) {
    List<Stage> shared =
        graph.stages().stream().filter(stage -> graph.isShared(stage.id())).toList();
    assertThat(shared).as(graph.explain()).singleElement();
    return shared.get(0);
  }

  @Test
  void theSharedOutputIsOneBlockingPartitionReadByEveryReader() {
    StageGraph graph = StagePlanner.withDefaultRewrites().plan(plan());
    Stage shared = shared(graph);
    assertThat(graph.readers(shared.id())).hasSize(3).doesNotHaveDuplicates();

    StreamExecutionEnvironment env = FlinkTestJobs.batchEnvironment();
    DataStream<BatchRecord> result = new StageGraphCompiler().compile(env, graph);
    result.sinkTo(new DiscardingSink<>());
    JobGraph job = env.getStreamGraph().getJobGraph();

    JobVertex producer = vertex(job, "stage " + shared.id() + ": ");
    assertThat(producer.getProducedDataSets()).singleElement();
    IntermediateDataSet output = producer.getProducedDataSets().get(0);
    assertThat(output.getResultType()).isEqualTo(ResultPartitionType.BLOCKING);
    assertThat(output.getConsumers()).hasSize(3);
    for (int reader : graph.readers(shared.id())) {
      JobVertex consumer = vertex(job, "stage " + reader + ": ");
      assertThat(consumer).isNotSameAs(producer);
      assertThat(consumer.getInputs()).extracting(JobEdge::getSource).containsExactly(output);
    }
  }

  /**
   * Two SHUFFLE reads of one hash-split stage (by one union) share its result partition too: the
   * channel partitioners of the two edges are equal.
   */
  @Test
  void shuffleReadersWithTheSameTaskCountShareOnePartition(BufferAllocator allocator)
      throws Exception {
    PlanBuilder hashed = spread(0, 5000, 2).repartition(hash(KEY), 2);
    PlanNode plan =
        hashed
            .filter(call(GREATER_THAN, hashed.col(AMOUNT), lit(90L)))
            .union(hashed.filter(call(LESS_THAN, hashed.col(AMOUNT), lit(5L))))
            .build();
    StageGraph graph = StagePlanner.withDefaultRewrites().plan(plan);
    Stage shared = shared(graph);
    assertThat(graph.finalStage().inputs())
        .extracting(StageInput::stage, StageInput::mode)
        .containsExactly(
            tuple(shared.id(), InputMode.SHUFFLE), tuple(shared.id(), InputMode.SHUFFLE));

    StreamExecutionEnvironment env = FlinkTestJobs.batchEnvironment();
    new StageGraphCompiler().compile(env, graph).sinkTo(new DiscardingSink<>());
    JobVertex producer = vertex(env.getStreamGraph().getJobGraph(), "stage " + shared.id() + ": ");
    assertThat(producer.getProducedDataSets()).singleElement();
    assertThat(producer.getProducedDataSets().get(0).getConsumers()).hasSize(2);

    // 9 of every 100 amounts are above 90, 5 below 5.
    assertThat(PlanRuns.run(plan, allocator).rows()).hasSize(50 * 9 + 50 * 5);
  }

  @Test
  void theRowsAreThoseOfThePlanWithoutSharing(BufferAllocator allocator) throws Exception {
    PlanRuns.Run shared = PlanRuns.run(plan(), allocator);
    shared(shared.graph());
    PlanRuns.Run apart =
        PlanRuns.run(
            plan(),
            StagePlanner.withDefaultRewrites().withoutSharing(),
            new StageGraphCompiler(),
            allocator);
    assertThat(apart.graph().stages()).hasSizeGreaterThan(shared.graph().stages().size());
    assertThat(shared.rows()).hasSize(3).containsExactlyInAnyOrderElementsOf(apart.rows());
  }

  /** The job vertex whose (chain's) name starts with {@code prefix}. */
  private static JobVertex vertex(JobGraph job, String prefix) {
    List<JobVertex> found = new ArrayList<>();
    for (JobVertex vertex : job.getVertices()) {
      if (vertex.getName().startsWith(prefix)) {
        found.add(vertex);
      }
    }
    assertThat(found).as(prefix).singleElement();
    return found.get(0);
  }
}
