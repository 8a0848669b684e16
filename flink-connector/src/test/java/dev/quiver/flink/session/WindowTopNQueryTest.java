package dev.quiver.flink.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.QuiverException;
import dev.quiver.flink.testing.KafkaBroker;
import dev.quiver.plan.node.RowSchema;
import dev.quiver.plan.time.EventTime;
import dev.quiver.testing.ArrowLeakCheck;
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

/**
 * Window top-N and window deduplication (Flink SQL's: ROW_NUMBER() OVER (PARTITION BY window_start,
 * window_end ...) filtered) over a stream on a real Kafka broker, each checked against the same
 * query over the same records read as a bounded table (the batch engine is the oracle), for the
 * windows the watermark has closed. Events 0..1599 span T0 .. T0 + 15.99 s, so the watermark
 * (largest event time less 5 s) reaches T0 + 10.99 s and closes the 1-second windows that end by T0
 * + 10 s. Every ORDER BY is total, so that the numbering is the same in both runs.
 */
@ExtendWith(ArrowLeakCheck.class)
@Timeout(240)
class WindowTopNQueryTest {
  @RegisterExtension static final KafkaBroker KAFKA = new KafkaBroker();

  private static final Duration DEADLINE = Duration.ofSeconds(90);
  private static final RowSchema BIDS = KafkaBids.SCHEMA;
  private static final long T0 = KafkaBids.T0;
  private static final LocalDateTime LAST_CLOSED_END = LocalDateTime.of(2026, 1, 1, 0, 0, 10);
  private static QuiverSession session;

  @BeforeAll
  static void start() throws Exception {
    Configuration slots = new Configuration();
    slots.set(TaskManagerOptions.NUM_TASK_SLOTS, 4); // the running stream and its batch oracle
    session = QuiverSession.builder().parallelism(2).configuration(slots).build();
    KAFKA.createTopic("bids", 2);
    send("bids", 1600);
    session.registerTable(
        "bids", BIDS, Optional.of(new EventTime("ts", Duration.ofSeconds(5))), kafka(Map.of()));
    session.registerTable(
        "bids_now", BIDS, Optional.empty(), kafka(Map.of("scan.bounded.mode", "latest-offset")));
    KAFKA.createTopic("many_bids", 2);
    KafkaBids.send(KAFKA, "many_bids", 0, 30_000, id -> (id * 37) % 101 / 2.0);
    KafkaBids.register(session, KAFKA, "many_bids");
  }

  @AfterAll
  static void stop() {
    if (session != null) {
      session.close();
    }
  }

  private static Map<String, String> kafka(Map<String, String> more) {
    return KafkaBids.options(KAFKA, "bids", more);
  }

  /**
   * Bids [0, count): auction id % 10 (every 7th NULL), price (id * 37) % 101, time T0 + id * 10 ms.
   */
  private static void send(String topic, long count) throws Exception {
    KafkaBids.send(KAFKA, topic, 0, count, id -> (id * 37) % 101 / 2.0);
  }

  /** The 3 auctions with the most bids per second (window top-N of a windowed aggregate). */
  @Test
  void aTopNOfWindowedCountsEqualsTheBatchAnswerForTheClosedWindows() {
    check(
        "SELECT window_end, auction, n, rn FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY"
            + " window_start, window_end ORDER BY n DESC, auction) AS rn FROM (SELECT"
            + " window_start, window_end, auction, count(*) AS n FROM TABLE(TUMBLE(TABLE"
            + " bids%1$s, DESCRIPTOR(ts), INTERVAL '1' SECOND)) GROUP BY window_start, window_end,"
            + " auction)) WHERE rn <= 3",
        30);
  }

  /** The 2 highest bids per second and auction, straight over the window table function. */
  @Test
  void aTopNOverTheWindowTableFunctionEqualsTheBatchAnswerForTheClosedWindows() {
    check(
        "SELECT window_end, auction, id, price, rk FROM (SELECT window_end, auction, id, price,"
            + " RANK() OVER (PARTITION BY window_start, window_end, auction ORDER BY price DESC,"
            + " id) AS rk FROM TABLE(TUMBLE(TABLE bids%1$s, DESCRIPTOR(ts), INTERVAL '1'"
            + " SECOND))) WHERE rk <= 2",
        100);
  }

  /** The first bid per 2 seconds (hopping every second) and auction: window deduplication. */
  @Test
  void aWindowDeduplicationEqualsTheBatchAnswerForTheClosedWindows() {
    check(
        "SELECT window_end, auction, id, ts FROM (SELECT window_end, auction, id, ts,"
            + " ROW_NUMBER() OVER (PARTITION BY window_start, window_end, auction ORDER BY ts, id)"
            + " AS rownum FROM TABLE(HOP(TABLE bids%1$s, DESCRIPTOR(ts), INTERVAL '1' SECOND,"
            + " INTERVAL '2' SECOND))) WHERE rownum = 1",
        50);
  }

  /**
   * The highest bids of 100-second windows of 10,000 bids each, all of a window in one task: more
   * rows than a batch (8,192), so each window's rows are pruned to its top rows while it is open
   * ({@code keep rank() <= 2}); the highest price, 50.0, is bid about 99 times per window, and RANK
   * keeps every one of those ties. Bids 0..29,999 close the windows ending at T0 + 100 s and 200 s.
   */
  @Test
  void aTopNOfWindowsLargerThanABatchKeepsEveryTieOfTheBatchAnswer() {
    String query =
        "SELECT window_end, id, price, rk FROM (SELECT window_end, id, price, RANK() OVER"
            + " (PARTITION BY window_start, window_end ORDER BY price DESC) AS rk FROM"
            + " TABLE(TUMBLE(TABLE many_bids%1$s, DESCRIPTOR(ts), INTERVAL '100' SECOND)))"
            + " WHERE rk <= 2";
    assertThat(session.explain(String.format(query, ""))).contains("keep rank() <= 2");
    check(query, 150, LocalDateTime.of(2026, 1, 1, 0, 3, 20));
  }

  @Test
  void aWindowFunctionOffTheWindowsIsRefusedBeforeAJobStarts() {
    assertThatThrownBy(
            () ->
                session.sql(
                    "SELECT id, ROW_NUMBER() OVER (PARTITION BY auction ORDER BY ts) FROM bids"))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("must be partitioned by the window_end");
    assertThat(session.openQueries()).isZero();
  }

  /**
   * Runs {@code query} (with {@code %1$s} the table suffix) over the stream and over the bounded
   * table: the stream's rows are the batch answer's rows of the closed windows (column 0 is the
   * window end), at least {@code atLeast} of them.
   */
  private static void check(String query, int atLeast) {
    check(query, atLeast, LAST_CLOSED_END);
  }

  /** As {@link #check(String, int)}, the windows ending by {@code lastClosedEnd} closed. */
  private static void check(String query, int atLeast, LocalDateTime lastClosedEnd) {
    assertThat(session.explain(String.format(query, ""))).contains("window end=#");
    List<List<Object>> expected =
        session.sql(String.format(query, "_now")).rows().stream()
            .filter(row -> !((LocalDateTime) row.get(0)).isAfter(lastClosedEnd))
            .toList();
    assertThat(expected).hasSizeGreaterThanOrEqualTo(atLeast);
    try (SqlResult stream = session.sql(String.format(query, ""))) {
      List<List<Object>> rows = new ArrayList<>();
      StreamingResults.readUntil(stream, rows, expected.size(), DEADLINE);
      assertThat(rows).containsExactlyInAnyOrderElementsOf(expected);
    }
  }
}
