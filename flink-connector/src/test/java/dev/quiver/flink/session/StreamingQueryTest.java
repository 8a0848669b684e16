package dev.quiver.flink.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.flink.testing.KafkaBroker;
import dev.quiver.flink.testing.RecordingReporter;
import dev.quiver.plan.node.RowSchema;
import dev.quiver.plan.time.EventTime;
import dev.quiver.testing.ArrowLeakCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.TaskManagerOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * SQL over a Kafka topic through {@link QuiverSession}: a query that reads an unbounded table runs
 * as a STREAMING job whose rows arrive while it runs, and its answer equals the same query's over
 * the same records read as a bounded table (the batch engine is the oracle); a stream joins a
 * bounded file table; what a stream cannot do is refused before a job starts.
 */
@ExtendWith(ArrowLeakCheck.class)
@Timeout(240)
class StreamingQueryTest {
  @RegisterExtension static final KafkaBroker KAFKA = new KafkaBroker();
  @TempDir static Path dir;

  private static final Duration DEADLINE = Duration.ofSeconds(90);
  private static final RowSchema BIDS = KafkaBids.SCHEMA;
  private static final long T0 = KafkaBids.T0;
  private static QuiverSession session;

  @BeforeAll
  static void start() throws Exception {
    KAFKA.createTopic("bids", 2);
    send(0, 1000);
    Path auctions = dir.resolve("auctions.csv");
    StringBuilder csv = new StringBuilder("id,name\n");
    for (int a = 0; a < 10; a++) {
      csv.append(a).append(",auction-").append(a).append('\n');
    }
    Files.writeString(auctions, csv);
    // A running stream holds its slots: the bounded oracle queries need slots of their own.
    Configuration slots = new Configuration();
    slots.set(TaskManagerOptions.NUM_TASK_SLOTS, 4);
    RecordingReporter.configure(slots);
    session = QuiverSession.builder().parallelism(2).configuration(slots).build();
    session.registerTable("auctions", auctions.toString());
    session.registerTable(
        "bids",
        BIDS,
        Optional.of(new EventTime("ts", Duration.ofSeconds(5))),
        kafka("bids", Map.of()));
    session.registerTable(
        "bids_now",
        BIDS,
        Optional.empty(),
        kafka("bids", Map.of("scan.bounded.mode", "latest-offset")));
  }

  @AfterAll
  static void stop() {
    if (session != null) {
      session.close();
    }
  }

  private static Map<String, String> kafka(String topic, Map<String, String> more) {
    return KafkaBids.options(KAFKA, topic, more);
  }

  /** Bids [from, to): auction id % 10, price id / 4, event time T0 + id * 10 ms; every 7th NULL. */
  private static void send(long from, long to) throws Exception {
    send("bids", from, to);
  }

  private static void send(String topic, long from, long to) throws Exception {
    KafkaBids.send(KAFKA, topic, from, to);
  }

  @Test
  void aFilterOverAStreamAnswersWhileItRunsAsTheBoundedTableDoes() throws Exception {
    String query = "SELECT id, auction, price * 2 AS doubled, ts FROM %s WHERE auction %% 3 = 1";
    try (SqlResult stream = session.sql(String.format(query, "bids"))) {
      List<List<Object>> rows = new ArrayList<>();
      List<List<Object>> before = session.sql(String.format(query, "bids_now")).rows();
      readUntil(stream, rows, before.size());
      assertThat(rows).containsExactlyInAnyOrderElementsOf(before);
      send(1000, 1600); // while the job runs
      List<List<Object>> after = session.sql(String.format(query, "bids_now")).rows();
      assertThat(after).hasSizeGreaterThan(before.size());
      readUntil(stream, rows, after.size());
      assertThat(rows).containsExactlyInAnyOrderElementsOf(after);
    }
  }

  @Test
  void aStreamJoinsABoundedTable() throws Exception {
    String query =
        "SELECT b.id, a.name FROM %s b JOIN auctions a ON b.auction = a.id WHERE b.id < 1000";
    List<List<Object>> expected = session.sql(String.format(query, "bids_now")).rows();
    assertThat(expected).isNotEmpty();
    try (SqlResult stream = session.sql(String.format(query, "bids"))) {
      List<List<Object>> rows = new ArrayList<>();
      readUntil(stream, rows, expected.size());
      assertThat(rows).containsExactlyInAnyOrderElementsOf(expected);
    }
  }

  /**
   * A tumbling-window aggregate over a stream emits each window once the watermark (the largest
   * event time less 5 s) has passed its end, and its rows equal the batch query's over the same
   * records read as a bounded table, for those windows. Events 0..1599 span T0 .. T0 + 15.99 s: the
   * watermark reaches T0 + 10.99 s, closing the windows that end by T0 + 10 s (the rest stay open).
   */
  @Test
  void aTumblingWindowAggregateEmitsEachWindowOnceTheWatermarkPassesIt() throws Exception {
    KAFKA.createTopic("windowed", 2);
    send("windowed", 0, 1600);
    Map<String, String> bounded = kafka("windowed", Map.of("scan.bounded.mode", "latest-offset"));
    session.registerTable("windowed_now", BIDS, Optional.empty(), bounded);
    session.registerTable(
        "windowed",
        BIDS,
        Optional.of(new EventTime("ts", Duration.ofSeconds(5))),
        kafka("windowed", Map.of()));
    String query =
        "SELECT window_start, window_end, auction, count(*) AS bids, sum(price) AS total"
            + " FROM TABLE(TUMBLE(TABLE %s, DESCRIPTOR(ts), INTERVAL '1' SECOND))"
            + " WHERE auction IS NOT NULL%s"
            + " GROUP BY window_start, window_end, auction";
    RecordingReporter.clear();
    try (SqlResult stream = session.sql(String.format(query, "windowed", ""))) {
      List<List<Object>> rows = new ArrayList<>();
      readUntil(stream, rows, 10 * 10);
      assertThat(rows).containsExactlyInAnyOrderElementsOf(closedWindows(query, 10));
      // Late: event time T0 + 0.5 s, long after the window [T0, T0 + 1 s) was emitted. Then the
      // watermark moves on to T0 + 16.99 s: windows ending by T0 + 16 s, without the late rows.
      for (int partition = 0; partition < 2; partition++) {
        List<String> late = new ArrayList<>();
        for (int k = 0; k < 4; k++) {
          late.add(String.format(LATE_BID, 90_000 + 10 * partition + k, T0 + 500));
        }
        KAFKA.send("windowed", partition, late);
      }
      send("windowed", 1600, 2200);
      readUntil(stream, rows, 16 * 10);
      assertThat(rows).containsExactlyInAnyOrderElementsOf(closedWindows(query, 16));
    }
    assertThat(RecordingReporter.values("quiverLateRows").stream().mapToLong(Long::longValue).sum())
        .as("late rows dropped and counted")
        .isEqualTo(8);
  }

  private static final String LATE_BID =
      "{\"id\": %d, \"auction\": 1, \"price\": 1000000.0, \"ts\": %d}";

  /** The batch answer for the windows ending by T0 + {@code seconds} s, without late rows. */
  private static List<List<Object>> closedWindows(String query, int seconds) {
    LocalDateTime lastClosedEnd = LocalDateTime.of(2026, 1, 1, 0, 0, seconds);
    List<List<Object>> rows =
        session.sql(String.format(query, "windowed_now", " AND id < 90000")).rows().stream()
            .filter(row -> !((LocalDateTime) row.get(1)).isAfter(lastClosedEnd))
            .toList();
    assertThat(rows).hasSize(seconds * 10); // 10 auctions in every window
    return rows;
  }

  /**
   * HOP (size 2 s, slide 1 s) and CUMULATE (step 1 s, size 3 s) windows over the stream: each
   * window's rows equal the batch answer over the same records, for the windows the watermark (T0 +
   * 10.99 s) has closed.
   */
  @Test
  void hoppingAndCumulatingWindowsEqualTheBatchAnswer() throws Exception {
    KAFKA.createTopic("hopping", 2);
    send("hopping", 0, 1600);
    session.registerTable(
        "hopping_now",
        BIDS,
        Optional.empty(),
        kafka("hopping", Map.of("scan.bounded.mode", "latest-offset")));
    session.registerTable(
        "hopping",
        BIDS,
        Optional.of(new EventTime("ts", Duration.ofSeconds(5))),
        kafka("hopping", Map.of()));
    LocalDateTime lastClosedEnd = LocalDateTime.of(2026, 1, 1, 0, 0, 10);
    for (String window :
        List.of(
            "HOP(TABLE %s, DESCRIPTOR(ts), INTERVAL '1' SECOND, INTERVAL '2' SECOND)",
            "CUMULATE(TABLE %s, DESCRIPTOR(ts), INTERVAL '1' SECOND, INTERVAL '3' SECOND)")) {
      String query =
          "SELECT window_start, window_end, count(*) AS bids, max(price) AS top FROM TABLE("
              + window
              + ") GROUP BY window_start, window_end";
      List<List<Object>> expected =
          session.sql(String.format(query, "hopping_now")).rows().stream()
              .filter(row -> !((LocalDateTime) row.get(1)).isAfter(lastClosedEnd))
              .toList();
      assertThat(expected).isNotEmpty();
      try (SqlResult stream = session.sql(String.format(query, "hopping"))) {
        List<List<Object>> rows = new ArrayList<>();
        readUntil(stream, rows, expected.size());
        assertThat(rows).as(window).containsExactlyInAnyOrderElementsOf(expected);
      }
    }
  }

  /**
   * A partition that never gets an event does not hold the watermark back (it is idle after 1 s),
   * so the windows of the other partition's events close: every event goes to partition 0.
   */
  @Test
  void anIdlePartitionDoesNotHoldTheWindowsBack() throws Exception {
    KAFKA.createTopic("one_busy", 2);
    List<String> values = new ArrayList<>();
    for (long id = 0; id < 1600; id++) {
      values.add(String.format(BID, id, id % 10, id / 4.0, T0 + id * 10));
    }
    KAFKA.send("one_busy", 0, values);
    session.registerTable(
        "one_busy",
        BIDS,
        Optional.of(new EventTime("ts", Duration.ofSeconds(5))),
        kafka("one_busy", Map.of()));
    String query =
        "SELECT window_end, auction, count(*) AS bids"
            + " FROM TABLE(TUMBLE(TABLE one_busy, DESCRIPTOR(ts), INTERVAL '1' SECOND))"
            + " GROUP BY window_start, window_end, auction";
    try (SqlResult stream = session.sql(query)) {
      List<List<Object>> rows = new ArrayList<>();
      readUntil(stream, rows, 10 * 10); // the windows ending by T0 + 10 s
      assertThat(rows.stream().map(row -> row.get(2))).containsOnly(10L);
    }
  }

  private static final String BID = "{\"id\": %d, \"auction\": %d, \"price\": %s, \"ts\": %d}";

  @Test
  void explainShowsTheStreamAndItsWatermark() {
    assertThat(session.explain("SELECT id FROM bids WHERE price > 10"))
        .contains("Scan[bids [id, price], unbounded, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND");
  }

  @Test
  void whatAStreamCannotDoIsRefusedBeforeAJobStarts() {
    assertThatThrownBy(
            () -> session.sql("SELECT auction, median(price) FROM bids GROUP BY auction"))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("aggregate")
        .hasMessageContaining("unbounded table 'bids'")
        .satisfies(
            e -> assertThat(((QuiverException) e).code()).isEqualTo(ErrorCode.UNSUPPORTED_FEATURE));
    assertThatThrownBy(() -> session.sql("SELECT id FROM bids ORDER BY price"))
        .hasMessageContaining("ORDER BY over the unbounded table 'bids'");
    assertThatThrownBy(
            () ->
                session.sql(
                    "SELECT a.name, b.id FROM auctions a LEFT JOIN bids b ON b.auction = a.id"))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("unbounded table 'bids'");
    assertThat(session.openQueries()).isZero();
  }

  @Test
  void aWrongOptionNamesTheTableAndTheOption() {
    assertThatThrownBy(
            () -> session.registerTable("t", BIDS, Optional.empty(), Map.of("connector", "kafka")))
        .hasMessage("[INVALID_QUERY] Table 't': the option 'topic' is missing");
    Map<String, String> typo = kafka("bids", Map.of("scan.startup.mod", "earliest-offset"));
    assertThatThrownBy(() -> session.registerTable("t", BIDS, Optional.empty(), typo))
        .hasMessageStartingWith(
            "[INVALID_QUERY] Table 't': the option ['scan.startup.mod'] is not one the kafka"
                + " connector has");
    assertThatThrownBy(
            () ->
                session.registerTable(
                    "t",
                    BIDS,
                    Optional.of(new EventTime("nope", Duration.ZERO)),
                    kafka("bids", Map.of())))
        .hasMessageContaining("'nope'");
  }

  private static void readUntil(SqlResult result, List<List<Object>> rows, int count) {
    StreamingResults.readUntil(result, rows, count, DEADLINE);
  }
}
