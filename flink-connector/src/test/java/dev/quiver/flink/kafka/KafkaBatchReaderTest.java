package dev.quiver.flink.kafka;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.QuiverException;
import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.BatchRows;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.flink.core.io.InputStatus;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link KafkaBatchReader} around a scripted stand-in for Flink's Kafka reader: batches close at
 * the row limit and at the time limit (the reader wakes itself up), and a checkpoint taken while
 * rows wait rewinds the partition's offset to the first waiting row.
 */
@ExtendWith(ArrowLeakCheck.class)
class KafkaBatchReaderTest {
  private static final String TOPIC = "t";

  @Test
  void aCheckpointWithWaitingRowsResumesAtTheFirstOfThem() throws Exception {
    ScriptedKafka kafka = new ScriptedKafka();
    for (long id = 0; id < 5; id++) {
      kafka.add(0, KafkaEvents.json(id));
    }
    kafka.add(1, KafkaEvents.json(10));
    Outputs out = new Outputs();
    KafkaBatchReader reader = reader(kafka, 3, Duration.ofHours(1));
    reader.start();
    try {
      while (kafka.hasRecords()) {
        reader.pollNext(out);
      }
      assertThat(out.ids).containsExactly(List.of(0L, 1L, 2L)); // one full batch; 3, 4, 10 wait
      List<KafkaPartitionSplit> state = reader.snapshotState(1);
      Map<Integer, Long> offsets = new HashMap<>();
      state.forEach(split -> offsets.put(split.getPartition(), split.getStartingOffset()));
      // The Kafka reader has handed on offsets 0-4 and 0 (it would resume at 5 and 1) ...
      assertThat(kafka.snapshotState(1))
          .extracting(KafkaPartitionSplit::getStartingOffset)
          .containsExactlyInAnyOrder(5L, 1L);
      // ... but rows 3, 4 (offsets 3, 4) and 10 (offset 0 of partition 1) were never emitted.
      assertThat(offsets).isEqualTo(Map.of(0, 3L, 1, 0L));
    } finally {
      reader.close();
    }
  }

  @Test
  void thinTrafficIsEmittedWhenItsDelayIsUpWithoutAnotherMessage() throws Exception {
    ScriptedKafka kafka = new ScriptedKafka();
    kafka.add(0, KafkaEvents.json(1));
    kafka.add(0, KafkaEvents.json(2));
    Outputs out = new Outputs();
    KafkaBatchReader reader = reader(kafka, 4096, Duration.ofMillis(50));
    reader.start();
    try {
      long start = System.nanoTime();
      while (kafka.hasRecords()) {
        reader.pollNext(out);
      }
      if (out.ids.isEmpty()) {
        // Nothing more will arrive (the Kafka reader's future never completes): the reader's own
        // future must complete when the batch is due.
        reader.isAvailable().get(30, TimeUnit.SECONDS);
        assertThat(reader.pollNext(out)).isEqualTo(InputStatus.MORE_AVAILABLE);
      }
      assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(Duration.ofMillis(50).toNanos());
      assertThat(out.ids).containsExactly(List.of(1L, 2L));
      assertThat(reader.snapshotState(2).get(0).getStartingOffset()).isEqualTo(2);
    } finally {
      reader.close();
    }
  }

  @Test
  void aMalformedValueFailsThePoll() throws Exception {
    ScriptedKafka kafka = new ScriptedKafka();
    kafka.add(1, KafkaEvents.json(1));
    kafka.add(1, "{\"id\": \"x\"}");
    KafkaBatchReader reader = reader(kafka, 10, Duration.ofHours(1));
    reader.start();
    try {
      Outputs out = new Outputs();
      reader.pollNext(out);
      assertThatThrownBy(() -> reader.pollNext(out))
          .isInstanceOf(QuiverException.class)
          .hasMessageContaining(
              "Kafka topic 't' partition 1 offset 1, column 'id' (BIGINT): cannot read \"x\"");
    } finally {
      reader.close(); // the waiting batch (row 1) is released
    }
  }

  private static KafkaBatchReader reader(ScriptedKafka kafka, int rows, Duration delay) {
    return new KafkaBatchReader(
        kafka,
        new KafkaBatchOptions(TOPIC, KafkaValueFormat.JSON, ',', rows, delay),
        KafkaEvents.SCHEMA,
        KafkaEvents.SCHEMA,
        List.of(),
        null,
        0);
  }

  /** Hands on one scripted message per poll, through per-partition outputs, as Flink's does. */
  private static final class ScriptedKafka
      implements SourceReader<ConsumerRecord<byte[], byte[]>, KafkaPartitionSplit> {
    private final ArrayDeque<ConsumerRecord<byte[], byte[]>> records = new ArrayDeque<>();
    private final Map<Integer, Long> next = new HashMap<>(); // partition → next offset to add
    private final Map<Integer, Long> handedOn = new HashMap<>(); // partition → offset after last
    private final Map<Integer, SourceOutput<ConsumerRecord<byte[], byte[]>>> outputs =
        new HashMap<>();

    void add(int partition, String value) {
      long offset = next.merge(partition, 1L, Long::sum) - 1;
      records.add(new ConsumerRecord<>(TOPIC, partition, offset, null, value.getBytes(UTF_8)));
      handedOn.putIfAbsent(partition, 0L);
    }

    boolean hasRecords() {
      return !records.isEmpty();
    }

    @Override
    public void start() {}

    @Override
    public InputStatus pollNext(ReaderOutput<ConsumerRecord<byte[], byte[]>> output) {
      ConsumerRecord<byte[], byte[]> record = records.poll();
      if (record == null) {
        return InputStatus.NOTHING_AVAILABLE;
      }
      outputs
          .computeIfAbsent(record.partition(), p -> output.createOutputForSplit(TOPIC + "-" + p))
          .collect(record);
      handedOn.put(record.partition(), record.offset() + 1);
      return InputStatus.MORE_AVAILABLE;
    }

    @Override
    public List<KafkaPartitionSplit> snapshotState(long checkpointId) {
      List<KafkaPartitionSplit> splits = new ArrayList<>();
      handedOn.forEach(
          (p, offset) -> splits.add(new KafkaPartitionSplit(new TopicPartition(TOPIC, p), offset)));
      return splits;
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
      return new CompletableFuture<>(); // no more messages, ever
    }

    @Override
    public void addSplits(List<KafkaPartitionSplit> splits) {}

    @Override
    public void notifyNoMoreSplits() {}

    @Override
    public void close() {}
  }

  /** Flink's side: records the ids of every batch emitted. */
  private static final class Outputs implements ReaderOutput<BatchRecord> {
    final List<List<Long>> ids = new ArrayList<>();

    @Override
    public SourceOutput<BatchRecord> createOutputForSplit(String split) {
      return new SourceOutput<>() {
        @Override
        public void collect(BatchRecord record) {
          List<Long> batch = new ArrayList<>();
          BatchRows.rows(record.batch()).forEach(row -> batch.add((Long) row.get(0)));
          ids.add(batch);
        }

        @Override
        public void collect(BatchRecord record, long timestamp) {
          collect(record);
        }

        @Override
        public void emitWatermark(Watermark watermark) {}

        @Override
        public void markIdle() {}

        @Override
        public void markActive() {}
      };
    }

    @Override
    public void releaseOutputForSplit(String split) {}

    @Override
    public void collect(BatchRecord record) {
      throw new AssertionError("batches go to the partition outputs");
    }

    @Override
    public void collect(BatchRecord record, long timestamp) {
      collect(record);
    }

    @Override
    public void emitWatermark(Watermark watermark) {}

    @Override
    public void markIdle() {}

    @Override
    public void markActive() {}
  }
}
