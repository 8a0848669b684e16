package dev.quiver.flink.stage;

import static dev.quiver.flink.testing.FlinkTestJobs.batchEnvironment;
import static dev.quiver.flink.testing.FlinkTestJobs.collectRows;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.batch.BatchTypeInfo;
import dev.quiver.flink.exchange.ChannelPartitioner;
import dev.quiver.flink.exchange.OutputSplit;
import dev.quiver.flink.testing.FlinkTestJobs;
import dev.quiver.flink.testing.GenerateOperator;
import dev.quiver.operators.aggregate.HashAggregateOperator;
import dev.quiver.operators.exec.TaskPipeline;
import dev.quiver.operators.join.HashJoinOperator;
import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateFunction;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.plan.join.JoinKind;
import dev.quiver.plan.join.JoinType;
import dev.quiver.testing.ArrowLeakCheck;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Stage tasks running real operator pipelines on a MiniCluster: a two-stage aggregate (partial →
 * hash shuffle → final) and a broadcast hash join, checked against plain Java over the same rows.
 */
@ExtendWith(ArrowLeakCheck.class)
class StageOperatorTest {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestJobs.miniCluster();

  private static final int BATCHES = 40;
  private static final int ID = 0;
  private static final int KEY = 1;
  private static final List<AggregateCall> CALLS =
      List.of(
          AggregateCall.countStar("rows"),
          AggregateCall.of(AggregateFunction.SUM, ID, new ArrowType.Int(64, true), "id_sum"));

  private static DataStream<BatchRecord> generate(
      StreamExecutionEnvironment env, String name, long batches, int tasks) {
    return env.fromSequence(0, batches - 1)
        .setParallelism(1)
        .rebalance()
        .transform(name, GenerateOperator.TYPE, new GenerateOperator(false))
        .setParallelism(tasks);
  }

  private static StageTaskFactory aggregate(BatchTypeInfo input, AggregateMode mode) {
    return (context, output) ->
        TaskPipeline.build(
            TaskPipeline.operator(
                sink ->
                    new HashAggregateOperator(
                        context, input.schema(), mode, new int[] {0}, CALLS, sink),
                TaskPipeline.input(0)),
            output);
  }

  @ParameterizedTest(name = "parallelism {0}")
  @ValueSource(ints = {1, 2, 4})
  void partialShuffleFinalAggregate(int parallelism, BufferAllocator allocator) throws Exception {
    StreamExecutionEnvironment env = batchEnvironment();
    // SELECT key, count(*), sum(id) GROUP BY key, with the key projected first.
    Schema keyed = GenerateOperator.SCHEMA;
    BatchTypeInfo input = GenerateOperator.TYPE;
    BatchTypeInfo partial =
        BatchTypeInfo.of(
            HashAggregateOperator.outputSchema(
                keyed, AggregateMode.PARTIAL, new int[] {KEY}, CALLS),
            "partial");
    BatchTypeInfo finalType =
        BatchTypeInfo.of(
            HashAggregateOperator.outputSchema(
                partial.schema(), AggregateMode.FINAL, new int[] {0}, CALLS),
            "final");
    StageTaskFactory partialStage =
        (context, output) ->
            TaskPipeline.build(
                TaskPipeline.operator(
                    sink ->
                        new HashAggregateOperator(
                            context,
                            input.schema(),
                            AggregateMode.PARTIAL,
                            new int[] {KEY},
                            CALLS,
                            sink),
                    TaskPipeline.input(0)),
                output);
    DataStream<BatchRecord> totals =
        generate(env, "generate", BATCHES, parallelism)
            .transform(
                "stage 0: partial aggregate",
                partial,
                new OneInputStageOperator(
                    partialStage, OutputSplit.hash(new int[] {0}, parallelism)))
            .setParallelism(parallelism)
            .partitionCustom(new ChannelPartitioner(), ChannelPartitioner.CHANNEL)
            .transform(
                "stage 1: final aggregate",
                finalType,
                new OneInputStageOperator(
                    aggregate(partial, AggregateMode.FINAL), OutputSplit.none()))
            .setParallelism(parallelism);

    Map<Object, List<Long>> expected = new HashMap<>();
    for (long id = 0; id < (long) BATCHES * GenerateOperator.ROWS; id++) {
      List<Long> acc =
          expected.computeIfAbsent(
              GenerateOperator.key(id, false), k -> new ArrayList<>(List.of(0L, 0L)));
      acc.set(0, acc.get(0) + 1);
      acc.set(1, acc.get(1) + id);
    }
    Map<Object, List<Long>> actual = new HashMap<>();
    for (List<Object> row : collectRows(totals, allocator)) {
      assertThat(actual.put(row.get(0), List.of((Long) row.get(1), (Long) row.get(2))))
          .as("key %s reported by one task only", row.get(0))
          .isNull();
    }
    assertThat(actual).isEqualTo(expected);
  }

  @ParameterizedTest(name = "parallelism {0}")
  @ValueSource(ints = {1, 2, 4})
  void broadcastHashJoinStage(int parallelism, BufferAllocator allocator) throws Exception {
    StreamExecutionEnvironment env = batchEnvironment();
    BatchTypeInfo side = GenerateOperator.TYPE;
    Schema joined = JoinType.INNER.outputSchema(side.schema(), side.schema());
    StageTaskFactory join =
        (context, output) ->
            TaskPipeline.build(
                TaskPipeline.operator(
                    sink ->
                        new HashJoinOperator(
                            context,
                            JoinKind.of(JoinType.INNER),
                            side.schema(),
                            new int[] {KEY},
                            side.schema(),
                            new int[] {KEY},
                            null,
                            sink),
                    TaskPipeline.input(0),
                    TaskPipeline.input(1)),
                output);
    DataStream<BatchRecord> build = generate(env, "build", 1, parallelism).broadcast();
    DataStream<BatchRecord> probe = generate(env, "probe", BATCHES, parallelism).forward();
    DataStream<BatchRecord> result =
        build
            .connect(probe)
            .transform(
                "stage: hash join",
                BatchTypeInfo.of(joined, "joined"),
                new TwoInputStageOperator(join, OutputSplit.none()))
            .setParallelism(parallelism);

    Map<Long, Long> buildRowsPerKey = new HashMap<>();
    for (long id = 0; id < GenerateOperator.ROWS; id++) {
      Long key = GenerateOperator.key(id, false);
      if (key != null) {
        buildRowsPerKey.merge(key, 1L, Long::sum);
      }
    }
    Map<Long, Long> expected = new HashMap<>(); // probe id → number of output rows
    for (long id = 0; id < (long) BATCHES * GenerateOperator.ROWS; id++) {
      Long key = GenerateOperator.key(id, false);
      if (key != null && buildRowsPerKey.containsKey(key)) {
        expected.put(id, buildRowsPerKey.get(key));
      }
    }
    Map<Long, Long> actual = new HashMap<>();
    for (List<Object> row : collectRows(result, allocator)) {
      assertThat(row.get(KEY)).isEqualTo(row.get(KEY + GenerateOperator.SCHEMA.getFields().size()));
      actual.merge((Long) row.get(ID), 1L, Long::sum);
    }
    assertThat(actual).hasSizeGreaterThan(100).isEqualTo(expected);
  }
}
