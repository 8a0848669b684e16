package dev.quiver.flink.exchange;

import static dev.quiver.flink.testing.FlinkTestJobs.batchEnvironment;
import static dev.quiver.flink.testing.FlinkTestJobs.collectRows;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.testing.FlinkTestJobs;
import dev.quiver.flink.testing.GenerateOperator;
import dev.quiver.flink.testing.TagConsumerOperator;
import dev.quiver.plan.sort.SortKey;
import dev.quiver.testing.ArrowLeakCheck;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every input mode of a stage on a real MiniCluster, at parallelism 1, 2 and 4, checked against the
 * rows the generator is known to produce. Columns of a collected row: id, key, skey, producer,
 * consumer.
 */
@ExtendWith(ArrowLeakCheck.class)
class ExchangeTest {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestJobs.miniCluster();

  private static final int BATCHES = 40;
  private static final int ID = 0;
  private static final int KEY = 1;
  private static final int SKEY = 2;
  private static final int PRODUCER = 3;
  private static final int CONSUMER = 4;

  private static DataStream<BatchRecord> generate(StreamExecutionEnvironment env, int tasks) {
    return env.fromSequence(0, BATCHES - 1)
        .setParallelism(1)
        .rebalance() // deal the numbers to every generator task
        .transform("generate", GenerateOperator.TYPE, new GenerateOperator(false))
        .setParallelism(tasks);
  }

  private static DataStream<BatchRecord> consume(
      DataStream<BatchRecord> input, int tasks, int markers) {
    return input
        .transform(
            "consume",
            TagConsumerOperator.taggedType(GenerateOperator.SCHEMA),
            new TagConsumerOperator(markers))
        .setParallelism(tasks);
  }

  private static Set<Long> allIds() {
    return LongStream.range(0, (long) BATCHES * GenerateOperator.ROWS)
        .boxed()
        .collect(Collectors.toSet());
  }

  private static Set<Long> ids(List<List<Object>> rows) {
    Set<Long> ids = new HashSet<>();
    for (List<Object> row : rows) {
      assertThat(ids.add((Long) row.get(ID))).as("row %s delivered twice", row.get(ID)).isTrue();
    }
    return ids;
  }

  @ParameterizedTest(name = "parallelism {0}")
  @ValueSource(ints = {1, 2, 4})
  void shuffleSendsEqualKeysToOneConsumer(int parallelism, BufferAllocator allocator)
      throws Exception {
    for (int[] keys : new int[][] {{KEY}, {SKEY}, {KEY, SKEY}}) {
      StreamExecutionEnvironment env = batchEnvironment();
      List<List<Object>> rows =
          collectRows(
              consume(
                  Exchanges.shuffle(generate(env, parallelism), keys, parallelism),
                  parallelism,
                  parallelism),
              allocator);
      assertThat(ids(rows)).isEqualTo(allIds());
      Map<Object, Integer> consumerOfKey = new HashMap<>();
      for (List<Object> row : rows) {
        Object key =
            keys.length == 1
                ? row.get(keys[0])
                : List.of(String.valueOf(row.get(KEY)), String.valueOf(row.get(SKEY)));
        Integer consumer = (Integer) row.get(CONSUMER);
        assertThat(consumerOfKey.computeIfAbsent(key, k -> consumer))
            .as("consumer of key %s", key)
            .isEqualTo(consumer);
      }
      if (parallelism > 1) {
        assertThat(new HashSet<>(consumerOfKey.values()))
            .as("keys spread over consumers")
            .hasSizeGreaterThan(1);
      }
    }
  }

  @ParameterizedTest(name = "parallelism {0}")
  @ValueSource(ints = {1, 2, 4})
  void roundRobinDealsWholeBatches(int parallelism, BufferAllocator allocator) throws Exception {
    StreamExecutionEnvironment env = batchEnvironment();
    List<List<Object>> rows =
        collectRows(
            consume(
                Exchanges.roundRobin(generate(env, parallelism), parallelism),
                parallelism,
                parallelism),
            allocator);
    assertThat(ids(rows)).isEqualTo(allIds());
    Map<Long, Set<Integer>> consumersOfBatch = new HashMap<>();
    for (List<Object> row : rows) {
      consumersOfBatch
          .computeIfAbsent((Long) row.get(ID) / GenerateOperator.ROWS, b -> new HashSet<>())
          .add((Integer) row.get(CONSUMER));
    }
    assertThat(consumersOfBatch.values()).allSatisfy(consumers -> assertThat(consumers).hasSize(1));
    assertThat(rows.stream().map(row -> row.get(CONSUMER)).distinct().count())
        .isEqualTo(parallelism);
  }

  @ParameterizedTest(name = "parallelism {0}")
  @ValueSource(ints = {1, 2, 4})
  void broadcastDeliversEveryRowToEveryConsumerOnce(int parallelism, BufferAllocator allocator)
      throws Exception {
    int consumers = Math.max(2, parallelism);
    StreamExecutionEnvironment env = batchEnvironment();
    List<List<Object>> rows =
        collectRows(
            consume(Exchanges.broadcast(generate(env, parallelism)), consumers, parallelism),
            allocator);
    Map<Integer, List<List<Object>>> byConsumer =
        rows.stream().collect(Collectors.groupingBy(row -> (Integer) row.get(CONSUMER)));
    assertThat(byConsumer).hasSize(consumers);
    for (List<List<Object>> received : byConsumer.values()) {
      assertThat(ids(received)).isEqualTo(allIds());
    }
  }

  @ParameterizedTest(name = "parallelism {0}")
  @ValueSource(ints = {1, 2, 4})
  void forwardKeepsEachProducersRowsOnItsTask(int parallelism, BufferAllocator allocator)
      throws Exception {
    StreamExecutionEnvironment env = batchEnvironment();
    List<List<Object>> rows =
        collectRows(
            consume(Exchanges.forward(generate(env, parallelism)), parallelism, 1), allocator);
    assertThat(ids(rows)).isEqualTo(allIds());
    assertThat(rows).allSatisfy(row -> assertThat(row.get(CONSUMER)).isEqualTo(row.get(PRODUCER)));
  }

  @ParameterizedTest(name = "parallelism {0}")
  @ValueSource(ints = {1, 2, 4})
  void rescaleSendsEachProducerToOneConsumer(int parallelism, BufferAllocator allocator)
      throws Exception {
    int consumers = Math.max(1, parallelism / 2);
    StreamExecutionEnvironment env = batchEnvironment();
    List<List<Object>> rows =
        collectRows(
            consume(Exchanges.rescale(generate(env, parallelism)), consumers, -1), allocator);
    assertThat(ids(rows)).isEqualTo(allIds());
    Map<Integer, Set<Integer>> consumersOfProducer = new HashMap<>();
    for (List<Object> row : rows) {
      consumersOfProducer
          .computeIfAbsent((Integer) row.get(PRODUCER), p -> new HashSet<>())
          .add((Integer) row.get(CONSUMER));
    }
    assertThat(consumersOfProducer.values()).allSatisfy(c -> assertThat(c).hasSize(1));
  }

  @ParameterizedTest(name = "parallelism {0}")
  @ValueSource(ints = {1, 2, 4})
  void mergeProducesOneGloballyOrderedStream(int parallelism, BufferAllocator allocator)
      throws Exception {
    StreamExecutionEnvironment env = batchEnvironment();
    DataStream<BatchRecord> sortedRuns =
        env.fromSequence(0, BATCHES - 1)
            .setParallelism(1)
            .rebalance() // deal the numbers to every generator task
            .transform("generate sorted", GenerateOperator.TYPE, new GenerateOperator(true))
            .setParallelism(parallelism);
    List<List<Object>> rows =
        collectRows(Exchanges.merge(sortedRuns, List.of(SortKey.asc(KEY))), allocator);
    assertThat(ids(rows)).isEqualTo(allIds());
    for (int i = 1; i < rows.size(); i++) {
      assertThat((Long) rows.get(i).get(KEY))
          .as("row %d", i)
          .isGreaterThanOrEqualTo((Long) rows.get(i - 1).get(KEY));
    }
    if (parallelism > 1) {
      assertThat(rows.stream().map(row -> row.get(PRODUCER)).distinct().count())
          .as("rows of several producers interleave")
          .isEqualTo(parallelism);
    }
  }
}
