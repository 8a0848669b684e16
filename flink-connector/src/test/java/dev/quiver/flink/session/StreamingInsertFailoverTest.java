package dev.quiver.flink.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.QuiverException;
import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.compiler.StageOutputHook;
import dev.quiver.flink.runtime.BatchOperator;
import dev.quiver.flink.testing.KafkaBroker;
import dev.quiver.testing.ArrowLeakCheck;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A streaming {@code INSERT INTO} of a window aggregate over a Kafka topic, into a Kafka topic and
 * into a directory of Parquet files, whose final stage fails once after a checkpoint has committed
 * rows, and after it has handed the sink rows of a later checkpoint: Flink restarts the job from
 * the checkpoint, the sinks take back what the failed attempt wrote (an aborted Kafka transaction,
 * a deleted unfinished file), and the target holds every window's row exactly once, equal to the
 * batch answer over the same records.
 *
 * <pre>
 *   stage 0: kafka ─► TUMBLE ─► window aggregate PARTIAL ─SHUFFLE─►
 *   stage 1: window aggregate FINAL ─► [emits, then fails once] ─► insert rows ─► sink
 * </pre>
 *
 * What the failed attempt wrote is really there to be taken back: a {@code read_uncommitted} reader
 * of the topic sees more rows than the windows (the aborted ones), a {@code read_committed} one
 * exactly the windows.
 */
@ExtendWith(ArrowLeakCheck.class)
@Timeout(300)
class StreamingInsertFailoverTest {
  @RegisterExtension static final KafkaBroker KAFKA = new KafkaBroker();
  @TempDir Path dir;

  private static final Duration DEADLINE = Duration.ofSeconds(90);
  private static final long T0 = KafkaBids.T0;
  private static final AtomicInteger FAILURES = new AtomicInteger();
  private static final String COLUMNS =
      "window_start TIMESTAMP(3), window_end TIMESTAMP(3), auction BIGINT, bids BIGINT NOT NULL,"
          + " total DOUBLE";
  private static final String QUERY =
      "SELECT window_start, window_end, auction, count(*) AS bids, sum(price) AS total"
          + " FROM TABLE(TUMBLE(TABLE %s, DESCRIPTOR(ts), INTERVAL '1' SECOND))"
          + " WHERE auction IS NOT NULL"
          + " GROUP BY window_start, window_end, auction";

  @Test
  void aKafkaTopicGetsEveryWindowOnceThroughAFailure() throws Exception {
    KAFKA.createTopic("bids_k", 2);
    KAFKA.createTopic("totals", 2);
    run(
        "bids_k",
        """
        CREATE TABLE totals (%s) WITH ('connector' = 'kafka', 'topic' = 'totals',
          'format' = 'json', 'properties.bootstrap.servers' = '%s')
        """
            .formatted(COLUMNS, KAFKA.bootstrapServers()),
        (session) -> () -> json(KAFKA.values("totals", true)));
    List<String> all = KAFKA.values("totals", false);
    assertThat(all.size())
        .as("rows a read_uncommitted reader sees: the aborted ones too")
        .isGreaterThan(KAFKA.values("totals", true).size());
  }

  @Test
  void aDirectoryGetsEveryWindowOnceThroughAFailure() throws Exception {
    KAFKA.createTopic("bids_f", 2);
    Path totals = dir.resolve("totals");
    run(
        "bids_f",
        """
        CREATE TABLE totals (%s) WITH ('connector' = 'filesystem', 'path' = '%s',
          'format' = 'parquet')
        """
            .formatted(COLUMNS, totals),
        (session) -> () -> files(session, totals));
    assertThat(InsertIntoTest.visible(totals)).allMatch(name -> name.endsWith(".parquet"));
  }

  /**
   * An INSERT stopped with a savepoint and started again from it: the windows the first job
   * committed are not written again, and the ones closed after the stop are written once, so the
   * topic's committed rows are the batch answer, each once.
   */
  @Test
  void anInsertRestartedFromItsSavepointWritesEveryWindowOnce() throws Exception {
    KAFKA.createTopic("bids_s", 2);
    KAFKA.createTopic("saved", 2);
    send("bids_s", 0, 1600);
    Configuration flink = new Configuration();
    flink.set(TaskManagerOptions.NUM_TASK_SLOTS, 4);
    try (QuiverSession session =
        QuiverSession.builder().parallelism(2).configuration(flink).build()) {
      session.execute(bids("bids_s", "bids_now", ", 'scan.bounded.mode' = 'latest-offset'"));
      session.execute(bids("bids_s", "bids", ""));
      session.execute(
          """
          CREATE TABLE saved (%s) WITH ('connector' = 'kafka', 'topic' = 'saved',
            'format' = 'json', 'properties.bootstrap.servers' = '%s')
          """
              .formatted(COLUMNS, KAFKA.bootstrapServers()));
      Supplier<List<List<Object>>> target = () -> json(KAFKA.values("saved", true));
      String insert = "INSERT INTO saved " + String.format(QUERY, "bids");
      String savepoint;
      try (SqlResult first = session.execute(insert).orElseThrow()) {
        awaitRows(target, 10 * 10);
        savepoint = first.stopWithSavepoint(dir.resolve("savepoints"));
      }
      assertThat(target.get()).hasSize(10 * 10);
      send("bids_s", 1600, 3200); // closes the windows ending by T0 + 26 s
      try (SqlResult resumed = session.sqlFromSavepoint(insert, savepoint)) {
        assertThat(resumed.insertInto()).contains("saved");
        awaitRows(target, 26 * 10);
        Thread.sleep(3000); // three more checkpoints: a row committed twice would show now
      }
      LocalDateTime lastClosedEnd = LocalDateTime.of(2026, 1, 1, 0, 0, 26);
      List<List<Object>> expected =
          session.sql(String.format(QUERY, "bids_now")).rows().stream()
              .filter(row -> !((LocalDateTime) row.get(1)).isAfter(lastClosedEnd))
              .toList();
      assertThat(expected).hasSize(26 * 10);
      assertThat(target.get()).containsExactlyInAnyOrderElementsOf(expected);
      assertThatThrownBy(
              () ->
                  session.sqlFromSavepoint(
                      "INSERT INTO saved " + String.format(QUERY, "bids_now"), savepoint))
          .isInstanceOf(QuiverException.class)
          .hasMessageContaining("only a streaming query restores a savepoint");
    }
  }

  /** What the target holds now, committed rows only, read by a reader of the kind it needs. */
  private interface Committed {
    Supplier<List<List<Object>>> reader(QuiverSession session);
  }

  private void run(String topic, String createTarget, Committed committed) throws Exception {
    send(topic, 0, 1600); // closes the windows ending by T0 + 10 s (watermark: max - 5 s)
    Configuration flink = new Configuration();
    flink.set(TaskManagerOptions.NUM_TASK_SLOTS, 4);
    flink.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    flink.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
    flink.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(10));
    // The final stage's first attempt emits the first batch with a window ending after T0 + 10 s
    // (only events sent after the first windows were committed close those), then fails.
    long failAfterMicros = (T0 + 10_000) * 1000;
    StageOutputHook hook =
        (stage, output) ->
            stage.id() != 1
                ? output
                : output
                    .forward()
                    .transform(
                        "emit, then fail once", output.getType(), new EmitThenFail(failAfterMicros))
                    .setParallelism(output.getParallelism());
    FAILURES.set(0);
    try (QuiverSession session =
        QuiverSession.builder().parallelism(2).configuration(flink).stageOutputHook(hook).build()) {
      session.execute(bids(topic, "bids_now", ", 'scan.bounded.mode' = 'latest-offset'"));
      session.execute(bids(topic, "bids", ""));
      session.execute(createTarget);
      Supplier<List<List<Object>>> target = committed.reader(session);
      try (SqlResult insert =
          session.execute("INSERT INTO totals " + String.format(QUERY, "bids")).orElseThrow()) {
        assertThat(insert.streaming()).isTrue();
        awaitRows(target, 10 * 10);
        assertThat(FAILURES.get()).isZero();
        send(topic, 1600, 3200); // the watermark moves to T0 + 26.99 s: windows ending by T0 + 26 s
        awaitRows(target, 26 * 10);
        assertThat(FAILURES.get())
            .as("injected failures (each task of the final stage fails once)")
            .isPositive();
        Thread.sleep(3000); // three more checkpoints: a row committed twice would show now
        List<List<Object>> rows = target.get();
        LocalDateTime lastClosedEnd = LocalDateTime.of(2026, 1, 1, 0, 0, 26);
        List<List<Object>> expected =
            session.sql(String.format(QUERY, "bids_now")).rows().stream()
                .filter(row -> !((LocalDateTime) row.get(1)).isAfter(lastClosedEnd))
                .toList();
        assertThat(expected).hasSize(26 * 10);
        assertThat(rows).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(insert.insertInto()).contains("totals");
      }
      assertThat(session.openQueries()).isZero();
    }
  }

  private static String bids(String topic, String name, String options) {
    return """
        CREATE TABLE %s (id BIGINT NOT NULL, auction BIGINT, price DOUBLE, ts TIMESTAMP(3),
          WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
        WITH ('connector' = 'kafka', 'topic' = '%s', 'format' = 'json',
          'properties.bootstrap.servers' = '%s'%s)
        """
        .formatted(name, topic, KAFKA.bootstrapServers(), options);
  }

  /** Waits until {@code target} holds at least {@code count} rows. */
  private static void awaitRows(Supplier<List<List<Object>>> target, int count)
      throws InterruptedException {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    int seen = 0;
    while (System.nanoTime() < deadline) {
      seen = target.get().size();
      if (seen >= count) {
        return;
      }
      Thread.sleep(300);
    }
    throw new AssertionError(seen + " of " + count + " rows committed within " + DEADLINE);
  }

  /** The committed values of the topic, as rows of the target's columns. */
  private static List<List<Object>> json(List<String> values) {
    List<List<Object>> rows = new ArrayList<>();
    for (String value : values) {
      rows.add(parse(value));
    }
    return rows;
  }

  // {"window_start":"2026-01-01 00:00:03","window_end":...,"auction":3,"bids":9,"total":12.5}
  private static List<Object> parse(String json) {
    String[] fields = json.substring(1, json.length() - 1).split(",");
    List<Object> row = new ArrayList<>();
    for (String field : fields) {
      String value = field.substring(field.indexOf(':') + 1);
      if (value.startsWith("\"")) {
        row.add(LocalDateTime.parse(value.substring(1, value.length() - 1).replace(' ', 'T')));
      } else if (value.equals("null")) {
        row.add(null);
      } else if (field.startsWith("\"total\"")) {
        row.add(Double.parseDouble(value));
      } else {
        row.add(Long.parseLong(value));
      }
    }
    return row;
  }

  /** The rows of the committed files now (a table is the files present when registered). */
  private static List<List<Object>> files(QuiverSession session, Path directory) {
    try {
      if (InsertIntoTest.visible(directory).isEmpty()) {
        return List.of();
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    session.registerTable("totals_files", directory.toString());
    return session.sql("SELECT * FROM totals_files").rows();
  }

  /** Bids [from, to): auction id % 10, price id / 4, event time T0 + id * 10 ms; every 7th NULL. */
  private static void send(String topic, long from, long to) throws Exception {
    KafkaBids.send(KAFKA, topic, from, to);
  }

  /**
   * Passes batches on; in its first attempt, on a batch with a timestamp after {@code micros} (a
   * window of the second round of events), passes it on too, waits for the sink to have sent it,
   * and then fails: the sink holds rows of a checkpoint that never completes.
   */
  private static final class EmitThenFail extends BatchOperator
      implements OneInputStreamOperator<BatchRecord, BatchRecord> {
    private static final long serialVersionUID = 1L;
    private final long micros;

    EmitThenFail(long micros) {
      this.micros = micros;
    }

    @Override
    public void processElement(StreamRecord<BatchRecord> element) throws Exception {
      BatchRecord record = element.getValue();
      boolean fail =
          record.isData()
              && getRuntimeContext().getTaskInfo().getAttemptNumber() == 0
              && hasLaterTime(record.batch());
      emit(record);
      if (fail) {
        Thread.sleep(500); // a Kafka producer sends in the background: let it
        FAILURES.incrementAndGet();
        throw new IllegalStateException("injected failure in " + taskName());
      }
    }

    private boolean hasLaterTime(VectorSchemaRoot batch) {
      for (FieldVector vector : batch.getFieldVectors()) {
        if (vector instanceof TimeStampMicroVector times) {
          for (int row = 0; row < batch.getRowCount(); row++) {
            if (!times.isNull(row) && times.get(row) > micros) {
              return true;
            }
          }
        }
      }
      return false;
    }
  }
}
