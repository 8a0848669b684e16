package dev.quiver.flink.stage;

import static dev.quiver.flink.testing.FlinkTestJobs.batchEnvironment;
import static dev.quiver.flink.testing.FlinkTestJobs.collectRows;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.exchange.Exchanges;
import dev.quiver.flink.exchange.OutputSplit;
import dev.quiver.flink.testing.FlinkTestJobs;
import dev.quiver.flink.testing.GenerateOperator;
import dev.quiver.operators.exec.TaskPipeline;
import dev.quiver.operators.join.HashJoinOperator;
import dev.quiver.plan.join.JoinKind;
import dev.quiver.plan.join.JoinType;
import dev.quiver.testing.ArrowLeakCheck;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A two-input stage task reads its whole build side before any probe record — the hash join inside
 * fails the job otherwise — with a broadcast build side and with both sides shuffled on the key. A
 * LEFT_SEMI join keeps the probe rows whose key occurs on the build side.
 */
@ExtendWith(ArrowLeakCheck.class)
class BuildBeforeProbeTest {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestJobs.miniCluster();

  private static final int BUILD_BATCHES = 1;
  private static final int PROBE_BATCHES = 60;
  private static final int KEY = 1;

  private static DataStream<BatchRecord> generate(
      StreamExecutionEnvironment env, String name, long batches, int tasks) {
    return env.fromSequence(0, batches - 1)
        .setParallelism(1)
        .rebalance() // deal the numbers to every generator task
        .transform(name, GenerateOperator.TYPE, new GenerateOperator(false))
        .setParallelism(tasks);
  }

  /** Ids of probe rows whose key is among the build side's keys, computed without Flink. */
  private static Set<Long> expectedIds() {
    Set<Long> buildKeys = new HashSet<>();
    for (long id = 0; id < BUILD_BATCHES * GenerateOperator.ROWS; id++) {
      Long key = GenerateOperator.key(id, false);
      if (key != null) {
        buildKeys.add(key);
      }
    }
    Set<Long> ids = new HashSet<>();
    for (long id = 0; id < PROBE_BATCHES * GenerateOperator.ROWS; id++) {
      Long key = GenerateOperator.key(id, false);
      if (key != null && buildKeys.contains(key)) {
        ids.add(id);
      }
    }
    return ids;
  }

  /** Probe (input 1) rows whose key occurs among the build (input 0) keys. */
  private static DataStream<BatchRecord> semiJoin(
      DataStream<BatchRecord> build, DataStream<BatchRecord> probe, int parallelism) {
    StageTaskFactory join =
        (context, output) ->
            TaskPipeline.build(
                TaskPipeline.operator(
                    sink ->
                        new HashJoinOperator(
                            context,
                            JoinKind.of(JoinType.LEFT_SEMI),
                            GenerateOperator.TYPE.schema(),
                            new int[] {KEY},
                            GenerateOperator.TYPE.schema(),
                            new int[] {KEY},
                            null,
                            sink),
                    TaskPipeline.input(0),
                    TaskPipeline.input(1)),
                output);
    return build
        .connect(probe)
        .transform(
            "semi join", GenerateOperator.TYPE, new TwoInputStageOperator(join, OutputSplit.none()))
        .setParallelism(parallelism);
  }

  private static Set<Long> ids(List<List<Object>> rows) {
    Set<Long> ids = rows.stream().map(row -> (Long) row.get(0)).collect(Collectors.toSet());
    assertThat(ids).as("no row twice").hasSize(rows.size());
    return ids;
  }

  @ParameterizedTest(name = "parallelism {0}")
  @ValueSource(ints = {1, 2, 4})
  void broadcastBuildSide(int parallelism, BufferAllocator allocator) throws Exception {
    StreamExecutionEnvironment env = batchEnvironment();
    DataStream<BatchRecord> build =
        Exchanges.broadcast(generate(env, "build", BUILD_BATCHES, parallelism));
    DataStream<BatchRecord> probe =
        Exchanges.forward(generate(env, "probe", PROBE_BATCHES, parallelism));
    DataStream<BatchRecord> joined = semiJoin(build, probe, parallelism);
    Set<Long> ids = ids(collectRows(joined, allocator));
    assertThat(ids).hasSizeGreaterThan(100).isEqualTo(expectedIds());
  }

  @ParameterizedTest(name = "parallelism {0}")
  @ValueSource(ints = {1, 2, 4})
  void partitionedBothSides(int parallelism, BufferAllocator allocator) throws Exception {
    StreamExecutionEnvironment env = batchEnvironment();
    int[] key = {KEY};
    DataStream<BatchRecord> build =
        Exchanges.shuffle(generate(env, "build", BUILD_BATCHES, parallelism), key, parallelism);
    DataStream<BatchRecord> probe =
        Exchanges.shuffle(generate(env, "probe", PROBE_BATCHES, parallelism), key, parallelism);
    DataStream<BatchRecord> joined = semiJoin(build, probe, parallelism);
    assertThat(ids(collectRows(joined, allocator))).isEqualTo(expectedIds());
  }
}
