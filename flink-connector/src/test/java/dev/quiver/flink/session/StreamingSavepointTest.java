package dev.quiver.flink.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.flink.testing.KafkaBroker;
import dev.quiver.plan.node.RowSchema;
import dev.quiver.plan.time.EventTime;
import dev.quiver.testing.ArrowLeakCheck;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.checkpoint.Checkpoints;
import org.apache.flink.runtime.checkpoint.metadata.CheckpointMetadata;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A streaming window aggregate stopped with a savepoint while windows are open, more events sent
 * while it is stopped, and the query started again from the savepoint: the rows before the stop and
 * the rows after it are together every window exactly once, equal to the batch answer over the same
 * records. A savepoint that is missing, or that belongs to another query or parallelism, is refused
 * with one line before a job starts.
 *
 * <pre>
 *   run 1: events 0..1599 ─► windows ending by T0 + 10 s ─► stop with savepoint (windows 11..16 open)
 *   stopped: events 1600..3199, then one far in the future on each partition (closes everything)
 *   run 2 (from the savepoint): Kafka from the saved offsets, the open windows restored ─► the rest
 * </pre>
 */
@ExtendWith(ArrowLeakCheck.class)
@Timeout(240)
class StreamingSavepointTest {
  @RegisterExtension static final KafkaBroker KAFKA = new KafkaBroker();
  @TempDir Path dir;

  private static final Duration DEADLINE = Duration.ofSeconds(90);
  private static final RowSchema BIDS = KafkaBids.SCHEMA;
  private static final long T0 = KafkaBids.T0;
  private static final String QUERY =
      "SELECT window_start, window_end, auction, count(*) AS bids, sum(price) AS total"
          + " FROM TABLE(TUMBLE(TABLE %s, DESCRIPTOR(ts), INTERVAL '1' SECOND))"
          + " WHERE auction IS NOT NULL"
          + " GROUP BY window_start, window_end, auction";

  @Test
  void aQueryRestartedFromItsSavepointLosesAndRepeatsNoWindow() throws Exception {
    KAFKA.createTopic("stopped", 2);
    send("stopped", 0, 1600); // the watermark reaches T0 + 10.99 s: windows ending by T0 + 10 s
    try (QuiverSession session = session(2)) {
      register(session, "stopped");
      List<List<Object>> before = new ArrayList<>();
      String savepoint;
      try (SqlResult stream = session.sql(String.format(QUERY, "bids"))) {
        StreamingResults.readUntil(stream, before, 10 * 10, DEADLINE);
        savepoint = stream.stopWithSavepoint(dir.resolve("savepoints"));
        before.addAll(stream.rows()); // what the job emitted before the savepoint; then it ends
      }
      assertThat(Path.of(java.net.URI.create(savepoint)).resolve("_metadata")).isRegularFile();
      assertThat(rawStatePartitions(savepoint))
          .as("the open windows are in raw operator state, one partition per aggregate task")
          .isGreaterThanOrEqualTo(2);
      // The windows ending after T0 + 10.99 s were open: their rows were not emitted.
      LocalDateTime open = LocalDateTime.of(2026, 1, 1, 0, 0, 11);
      assertThat(before).allMatch(row -> ((LocalDateTime) row.get(1)).isBefore(open));

      send("stopped", 1600, 3200);
      closeAllWindows("stopped");
      List<List<Object>> expected = session.sql(String.format(QUERY, "bids_now")).rows();
      assertThat(expected).hasSize(32 * 10);
      List<List<Object>> after = new ArrayList<>();
      try (SqlResult resumed = session.sqlFromSavepoint(String.format(QUERY, "bids"), savepoint)) {
        StreamingResults.readUntil(resumed, after, expected.size() - before.size(), DEADLINE);
        // Ending the stream shows that nothing more comes: no window twice.
        resumed.stopWithSavepoint(dir.resolve("savepoints"));
        after.addAll(resumed.rows());
      }
      assertThat(after)
          .as("the windows that were open at the stop, among others")
          .anyMatch(row -> ((LocalDateTime) row.get(0)).equals(open));
      List<List<Object>> both = new ArrayList<>(before);
      both.addAll(after);
      assertThat(both).containsExactlyInAnyOrderElementsOf(expected);
    }
  }

  /** Partitions of raw operator state in {@code savepoint}, over all its operators and subtasks. */
  static long rawStatePartitions(String savepoint) throws IOException {
    Path metadata = Path.of(java.net.URI.create(savepoint)).resolve("_metadata");
    try (DataInputStream in = new DataInputStream(Files.newInputStream(metadata))) {
      CheckpointMetadata loaded =
          Checkpoints.loadCheckpointMetadata(
              in, StreamingSavepointTest.class.getClassLoader(), savepoint);
      return loaded.getOperatorStates().stream()
          .flatMap(operator -> operator.getStates().stream())
          .flatMap(subtask -> subtask.getRawOperatorState().stream())
          .mapToLong(
              handle ->
                  handle.getStateNameToPartitionOffsets().values().stream()
                      .mapToLong(info -> info.getOffsets().length)
                      .sum())
          .sum();
    }
  }

  @Test
  void aSavepointThatDoesNotFitIsRefusedWithOneLine() throws Exception {
    KAFKA.createTopic("refused", 2);
    send("refused", 0, 1600);
    String savepoint;
    try (QuiverSession session = session(2)) {
      register(session, "refused");
      try (SqlResult stream = session.sql(String.format(QUERY, "bids"))) {
        StreamingResults.readUntil(stream, new ArrayList<>(), 1, DEADLINE); // the job runs
        savepoint = stream.stopWithSavepoint(dir);
        stream.rows();
      }
      oneLine(
          () -> session.sqlFromSavepoint(String.format(QUERY, "bids"), dir + "/no-such-savepoint"),
          ErrorCode.FILE_NOT_FOUND,
          "no-such-savepoint does not exist: give the path that stopping the query with a"
              + " savepoint returned");
      Files.createDirectories(dir.resolve("empty"));
      oneLine(
          () -> session.sqlFromSavepoint(String.format(QUERY, "bids"), dir + "/empty"),
          ErrorCode.INVALID_FILE,
          "it is not a savepoint");
      oneLine(
          () -> session.sqlFromSavepoint("SELECT id FROM bids WHERE price > 10", savepoint),
          ErrorCode.INVALID_QUERY,
          "was not taken from this query: it holds the state of 'quiver-stage-");
      // The same stages, tasks and column types, but another aggregate: its state means another
      // thing, and the stage's uid says so.
      oneLine(
          () ->
              session.sqlFromSavepoint(
                  String.format(QUERY.replace("sum(price)", "max(price)"), "bids"), savepoint),
          ErrorCode.INVALID_QUERY,
          "was not taken from this query");
      // A filter's constant changes no state: the savepoint still fits (checked, then cancelled).
      try (SqlResult fits =
          session.sqlFromSavepoint(
              String.format(QUERY.replace("auction IS NOT NULL", "auction > -1"), "bids"),
              savepoint)) {
        assertThat(fits.streaming()).isTrue();
      }
      oneLine(
          () -> session.sqlFromSavepoint(String.format(QUERY, "bids_now"), savepoint),
          ErrorCode.INVALID_QUERY,
          "only a streaming query restores a savepoint");
      assertThat(session.openQueries()).isZero();
    }
    try (QuiverSession wider = session(3)) {
      register(wider, "refused");
      oneLine(
          () -> wider.sqlFromSavepoint(String.format(QUERY, "bids"), savepoint),
          ErrorCode.INVALID_QUERY,
          "running 2 tasks, and this query runs 3: restore it with the parallelism it was taken"
              + " with");
    }
  }

  private static QuiverSession session(int parallelism) {
    Configuration flink = new Configuration();
    // A running stream holds its slots: the bounded oracle query needs slots of its own.
    flink.set(TaskManagerOptions.NUM_TASK_SLOTS, 2 * parallelism);
    flink.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(500));
    return QuiverSession.builder().parallelism(parallelism).configuration(flink).build();
  }

  private static void register(QuiverSession session, String topic) {
    session.registerTable(
        "bids_now",
        BIDS,
        Optional.empty(),
        kafka(topic, Map.of("scan.bounded.mode", "latest-offset")));
    session.registerTable(
        "bids",
        BIDS,
        Optional.of(new EventTime("ts", Duration.ofSeconds(5))),
        kafka(topic, Map.of()));
  }

  private static void oneLine(ThrowingCallable call, ErrorCode code, String fragment) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            QuiverException.class,
            e -> {
              assertThat(e.code()).isEqualTo(code);
              assertThat(e.getMessage()).contains(fragment).doesNotContain("\n");
            });
  }

  private static Map<String, String> kafka(String topic, Map<String, String> more) {
    Map<String, String> with = KafkaBids.options(KAFKA, topic, more);
    // No partition counts as idle: a restored job's readers may start a second apart, and the
    // watermark of one partition alone would close windows before the other's rows arrive.
    with.put("scan.watermark.idle-timeout", "10 min");
    return with;
  }

  /** Bids [from, to): auction id % 10, price id / 4, event time T0 + id * 10 ms; every 7th NULL. */
  private static void send(String topic, long from, long to) throws Exception {
    KafkaBids.send(KAFKA, topic, from, to);
  }

  /**
   * A bid an hour later on every partition, without an auction (so in no window): the watermark
   * passes every window of the bids before it.
   */
  private static void closeAllWindows(String topic) throws Exception {
    for (int partition = 0; partition < 2; partition++) {
      String late =
          String.format(
              "{\"id\": %d, \"auction\": null, \"price\": 0, \"ts\": %d}",
              1_000_000 + partition, T0 + 3_600_000);
      KAFKA.send(topic, partition, List.of(late));
    }
  }
}
