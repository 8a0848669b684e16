package dev.quiver.flink.kafka;

import static dev.quiver.flink.testing.FlinkTestJobs.streamingEnvironment;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.runtime.BatchResults;
import dev.quiver.flink.runtime.ResultRecords;
import dev.quiver.flink.testing.FlinkTestJobs;
import dev.quiver.flink.testing.JobWatchdog;
import dev.quiver.flink.testing.KafkaBroker;
import dev.quiver.flink.testing.RestoreJobs;
import dev.quiver.flink.testing.WatermarkRecorder;
import dev.quiver.plan.time.EventTime;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.BatchRows;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.LongStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link KafkaBatchSource} on a MiniCluster in STREAMING mode, reading a real in-process Kafka
 * broker: every event once with exact values and NULLs (JSON and CSV), batches closed by rows and
 * by time, watermarks through a downstream operator with an idle partition, malformed values.
 *
 * <p>Nothing waits on luck: a test produces, then reads until it has what it expects (or a generous
 * deadline passes), then stops the job (closing the results cancels it and waits for its end, so
 * the leak check sees every task's memory released).
 */
@ExtendWith(ArrowLeakCheck.class)
@Timeout(180)
class KafkaBatchSourceTest {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestJobs.miniCluster();
  @RegisterExtension static final KafkaBroker KAFKA = new KafkaBroker();

  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final int EVENTS = 600;

  @BeforeAll
  static void topics() throws Exception {
    for (KafkaValueFormat format : KafkaValueFormat.values()) {
      String topic = "events-" + format.name().toLowerCase();
      KAFKA.createTopic(topic, 2);
      Function<Long, String> value =
          format == KafkaValueFormat.JSON ? KafkaEvents::json : KafkaEvents::csv;
      // Half of the events exist before the job starts; the rest are sent while it runs.
      send(topic, 0, EVENTS / 2, value);
    }
  }

  // Events [from, to) alternate between the two partitions.
  private static void send(String topic, long from, long to, Function<Long, String> value)
      throws Exception {
    for (int partition = 0; partition < 2; partition++) {
      List<String> values = new ArrayList<>();
      for (long id = from + partition; id < to; id += 2) {
        values.add(value.apply(id));
      }
      KAFKA.send(topic, partition, values);
    }
  }

  @Test
  void jsonEventsArriveOnceWithExactValues(BufferAllocator allocator) throws Exception {
    everyEventOnce(KafkaValueFormat.JSON, KafkaEvents::json, allocator);
  }

  @Test
  void csvEventsArriveOnceWithExactValues(BufferAllocator allocator) throws Exception {
    everyEventOnce(KafkaValueFormat.CSV, KafkaEvents::csv, allocator);
  }

  private void everyEventOnce(
      KafkaValueFormat format, Function<Long, String> value, BufferAllocator allocator)
      throws Exception {
    String topic = "events-" + format.name().toLowerCase();
    KafkaBatchSource source =
        builder(topic).format(format).batchRows(64).groupId("once-" + format).build();
    DataStream<BatchRecord> stream = source.stream(streamingEnvironment(), "events", 2);
    Map<Long, List<Object>> rows = new HashMap<>();
    try (ResultRecords records = BatchResults.collect(stream, allocator, "kafka " + format)) {
      readUntil(records, batch -> rows.size() >= EVENTS / 2, rows, null);
      send(topic, EVENTS / 2, EVENTS, value); // while the job runs
      readUntil(records, batch -> rows.size() >= EVENTS, rows, null);
    }
    Map<Long, List<Object>> expected = new HashMap<>();
    LongStream.range(0, EVENTS).forEach(id -> expected.put(id, KafkaEvents.row(id)));
    assertThat(rows).isEqualTo(expected);
  }

  @Test
  void thinTrafficIsEmittedByTimeLongBeforeTheRowLimit(BufferAllocator allocator) throws Exception {
    String topic = "thin";
    KAFKA.createTopic(topic, 2);
    KafkaBatchSource source = builder(topic).build(); // 4096 rows or 200 ms
    DataStream<BatchRecord> stream = source.stream(streamingEnvironment(), "thin", 1);
    Map<Long, List<Object>> rows = new HashMap<>();
    List<Integer> batches = new ArrayList<>();
    try (ResultRecords records = BatchResults.collect(stream, allocator, "thin")) {
      KAFKA.send(topic, 1, List.of(KafkaEvents.json(1), KafkaEvents.json(2), KafkaEvents.json(3)));
      readUntil(records, batch -> rows.size() >= 3, rows, batches);
    }
    assertThat(rows.keySet()).containsExactlyInAnyOrder(1L, 2L, 3L);
    assertThat(batches).allSatisfy(size -> assertThat(size).isBetween(1, 3));
  }

  @Test
  void fullBatchesAreEmittedAtTheRowLimit(BufferAllocator allocator) throws Exception {
    String topic = "full";
    KAFKA.createTopic(topic, 1);
    List<String> values = new ArrayList<>();
    for (long id = 0; id < 250; id++) {
      values.add(KafkaEvents.json(id));
    }
    KAFKA.send(topic, 0, values);
    KafkaBatchSource source =
        builder(topic).batchRows(100).batchDelay(Duration.ofSeconds(2)).build();
    DataStream<BatchRecord> stream = source.stream(streamingEnvironment(), "full", 1);
    Map<Long, List<Object>> rows = new HashMap<>();
    List<Integer> batches = new ArrayList<>();
    try (ResultRecords records = BatchResults.collect(stream, allocator, "full")) {
      readUntil(records, batch -> rows.size() >= 250, rows, batches);
    }
    assertThat(rows).hasSize(250);
    assertThat(batches).allSatisfy(size -> assertThat(size).isBetween(1, 100)).contains(100);
  }

  @Test
  void watermarksAdvancePastAnIdlePartitionThroughADownstreamOperator(BufferAllocator allocator)
      throws Exception {
    String topic = "idle";
    KAFKA.createTopic(topic, 2);
    KafkaBatchSource source =
        builder(topic)
            .eventTime(new EventTime("ts", Duration.ofSeconds(5)))
            .idleTimeout(Duration.ofMillis(500))
            .build();
    DataStream<BatchRecord> stream =
        WatermarkRecorder.record(source.stream(streamingEnvironment(), "idle", 1), "idle");
    long lastId = 199;
    long expectedWatermark = KafkaEvents.eventMillis(lastId) - 5_000;
    Map<Long, List<Object>> rows = new HashMap<>();
    try (ResultRecords records = BatchResults.collect(stream, allocator, "idle")) {
      // Only partition 0 has events; partition 1 never gets one.
      List<String> values = new ArrayList<>();
      for (long id = 0; id <= lastId; id++) {
        values.add(KafkaEvents.json(id));
      }
      KAFKA.send(topic, 0, values);
      readUntil(records, batch -> rows.size() > lastId, rows, null);
      awaitCondition(
          () -> WatermarkRecorder.watermarks("idle").contains(expectedWatermark),
          "the watermark to reach " + expectedWatermark);
    }
    List<Long> watermarks = WatermarkRecorder.watermarks("idle");
    assertThat(watermarks)
        .isSorted()
        .allSatisfy(w -> assertThat(w).isLessThanOrEqualTo(expectedWatermark));
    // Every batch carries the largest event time of its rows.
    assertThat(WatermarkRecorder.timestamps("idle"))
        .allSatisfy(
            t ->
                assertThat(t)
                    .isBetween(KafkaEvents.eventMillis(0), KafkaEvents.eventMillis(lastId)))
        .contains(KafkaEvents.eventMillis(lastId));
  }

  @Test
  void aReaderWithoutPartitionsDoesNotHoldTheWatermarkBack(BufferAllocator allocator)
      throws Exception {
    String topic = "one-partition";
    KAFKA.createTopic(topic, 1);
    KafkaBatchSource source =
        builder(topic)
            .eventTime(new EventTime("ts", Duration.ofSeconds(5)))
            .idleTimeout(Duration.ofMillis(500))
            .build();
    // Two readers, one partition: one reader never gets a split.
    DataStream<BatchRecord> stream =
        WatermarkRecorder.record(source.stream(streamingEnvironment(), "one", 2), "one");
    long expectedWatermark = KafkaEvents.eventMillis(49) - 5_000;
    Map<Long, List<Object>> rows = new HashMap<>();
    try (ResultRecords records = BatchResults.collect(stream, allocator, "one")) {
      List<String> values = new ArrayList<>();
      for (long id = 0; id < 50; id++) {
        values.add(KafkaEvents.json(id));
      }
      KAFKA.send(topic, 0, values);
      readUntil(records, batch -> rows.size() >= 50, rows, null);
      awaitCondition(
          () -> WatermarkRecorder.watermarks("one").contains(expectedWatermark),
          "the watermark to reach " + expectedWatermark);
    }
  }

  @Test
  void aBoundedSourceEndsAtTheOffsetsLatestWhenItStarted(BufferAllocator allocator)
      throws Exception {
    String topic = "bounded";
    KAFKA.createTopic(topic, 2);
    send(topic, 0, 101, KafkaEvents::json);
    KafkaBatchSource source = builder(topic).bounded().batchRows(16).build();
    // The job ends by itself: every waiting batch is emitted at the end, and the tasks' memory must
    // be back (a normal end checks it strictly).
    List<List<Object>> rows =
        FlinkTestJobs.collectRows(source.stream(streamingEnvironment(), "bounded", 2), allocator);
    assertThat(rows)
        .containsExactlyInAnyOrderElementsOf(
            LongStream.range(0, 101).mapToObj(KafkaEvents::row).toList());
  }

  @Test
  void aMalformedValueFailsTheJobNamingTopicPartitionOffsetAndColumn(BufferAllocator allocator)
      throws Exception {
    String topic = "malformed";
    KAFKA.createTopic(topic, 2);
    KAFKA.send(topic, 0, List.of(KafkaEvents.json(0)));
    KAFKA.send(topic, 1, List.of(KafkaEvents.json(1), KafkaEvents.json(3)));
    long offset = KAFKA.send(topic, 1, List.of("{\"id\": 5, \"amount\": \"a lot\"}")).get(0);
    KafkaBatchSource source = builder(topic).build();
    DataStream<BatchRecord> stream = source.stream(streamingEnvironment(), "malformed", 1);

    assertThatThrownBy(() -> FlinkTestJobs.collectRows(stream, allocator))
        .satisfies(
            e -> {
              QuiverException cause =
                  ExceptionUtils.findThrowable(e, QuiverException.class).orElseThrow();
              assertThat(cause.code()).isEqualTo(ErrorCode.MALFORMED_ROW);
              assertThat(cause)
                  .hasMessage(
                      "[MALFORMED_ROW] Malformed value in Kafka topic 'malformed' partition 1 offset "
                          + offset
                          + ", column 'amount' (DOUBLE): cannot read \"a lot\" as DOUBLE"
                          + " (value: {\"id\": 5, \"amount\": \"a lot\"})");
            });
  }

  /**
   * Checkpoints every 100 ms while batches wait 500 ms for their delay, and task 0 fails once, at
   * its sixth batch: the job restores from its last checkpoint, which was taken while that batch's
   * rows waited in the reader, so they are read again from Kafka. Flink's checkpointed collect sink
   * hands the client only what a completed checkpoint covers, so the client sees each event exactly
   * once, or misses the rows a wrong offset would skip (and times out).
   */
  @Test
  void everyEventOnceAcrossARestoreFromACheckpoint() throws Exception {
    String topic = "restore";
    KAFKA.createTopic(topic, 2);
    StreamExecutionEnvironment env = RestoreJobs.environment();
    KafkaBatchSource source =
        builder(topic).batchRows(1000).batchDelay(Duration.ofMillis(500)).build();
    DataStream<BatchRecord> batches = source.stream(env, "restore", 2);
    DataStream<Long> ids = RestoreJobs.idsAfterOneFailure(batches, 0, 5);
    CloseableIterator<Long> results = ids.collectAsync();
    JobClient job = env.executeAsync("restore");
    Set<Long> seen = new HashSet<>();
    int groups = 12;
    try (JobWatchdog watchdog = new JobWatchdog(job)) {
      for (long group = 0; group < groups; group++) {
        send(topic, group * 6, group * 6 + 6, KafkaEvents::json);
        watchdog.arm(DEADLINE);
        while (seen.size() < (group + 1) * 6) {
          long g = group;
          assertThat(
                  watchdog.hasNext(results, () -> "events of group " + g + " (have " + seen + ")"))
              .as("the job ended early")
              .isTrue();
          Long id = results.next();
          assertThat(seen.add(id)).as("event %s once", id).isTrue();
        }
      }
    } finally {
      results.close();
      RestoreJobs.cancelAndAwaitEnd(job, DEADLINE);
    }
    assertThat(seen).hasSize(groups * 6);
  }

  private static KafkaBatchSource.Builder builder(String topic) {
    return KafkaBatchSource.builder()
        .bootstrapServers(KAFKA.bootstrapServers())
        .topic(topic)
        .schema(KafkaEvents.SCHEMA);
  }

  /**
   * Reads batches into {@code rows} (by id; a second copy of an id fails) and their sizes into
   * {@code batches} (if not null) until {@code done} holds after a batch; the job is cancelled if
   * that takes longer than the deadline ({@link JobWatchdog}).
   */
  private static void readUntil(
      ResultRecords records,
      Predicate<BatchRecord> done,
      Map<Long, List<Object>> rows,
      List<Integer> batches) {
    try (JobWatchdog watchdog = new JobWatchdog(records.jobClient())) {
      watchdog.arm(DEADLINE);
      while (true) {
        assertThat(watchdog.hasNext(records, () -> "rows (have " + rows.keySet() + ")"))
            .as("the job ended early")
            .isTrue();
        try (BatchRecord record = records.next()) {
          if (batches != null) {
            batches.add(record.rowCount());
          }
          for (List<Object> row : BatchRows.rows(record.batch())) {
            assertThat(rows.put((Long) row.get(0), row))
                .as("row %s read once", row.get(0))
                .isNull();
          }
          if (done.test(record)) {
            return;
          }
        }
      }
    }
  }

  private static void awaitCondition(java.util.function.BooleanSupplier condition, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waiting for %s", what).isLessThan(deadline);
      Thread.sleep(20);
    }
  }
}
