package dev.quiver.flink.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.QuiverException;
import dev.quiver.flink.testing.KafkaBroker;
import dev.quiver.plan.node.RowSchema;
import dev.quiver.testing.ArrowLeakCheck;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.TaskManagerOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Joins of two streams on a real Kafka broker, each checked against the same query over the same
 * records read as bounded tables (the batch engine is the oracle), for the windows the watermark
 * has closed: window joins of two windowed aggregates (inner and outer, as Flink SQL's window
 * joins), an interval join of a stream with a windowed aggregate of itself (Nexmark q7's shape) and
 * outer interval joins of the two streams (the rows whose fate the watermark has decided). Events
 * 0..1599 of each topic span T0 .. T0 + 15.99 s, so the watermark (largest event time less 5 s)
 * reaches T0 + 10.99 s and closes the 1-second windows that end by T0 + 10 s.
 */
@ExtendWith(ArrowLeakCheck.class)
@Timeout(240)
class StreamJoinQueryTest {
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
    for (String topic : List.of("lefts", "rights")) {
      KAFKA.createTopic(topic, 2);
      send(topic, topic.equals("lefts") ? 0 : 3, 1600);
      KafkaBids.register(session, KAFKA, topic);
    }
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

  /** Bids [from, to): auction id % 10 (every 7th NULL), price id / 4, time T0 + id * 10 ms. */
  private static void send(String topic, long from, long to) throws Exception {
    KafkaBids.send(KAFKA, topic, from, to);
  }

  /**
   * Per-second bid counts of one stream joined with per-second top prices of the other, on the
   * window and the auction: every join type gives, for the closed windows, the batch answer.
   */
  @ParameterizedTest
  @ValueSource(strings = {"JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN"})
  void aWindowJoinOfTwoStreamsEqualsTheBatchJoinForTheClosedWindows(String join) {
    String query =
        "SELECT COALESCE(l.window_end, r.window_end) AS window_end, l.auction, l.n, r.auction,"
            + " r.top FROM"
            + " (SELECT window_start, window_end, auction, count(*) AS n"
            + "  FROM TABLE(TUMBLE(TABLE lefts%1$s, DESCRIPTOR(ts), INTERVAL '1' SECOND))"
            + "  WHERE auction <> 3 GROUP BY window_start, window_end, auction) l "
            + join
            + " (SELECT window_start, window_end, auction, max(price) AS top"
            + "  FROM TABLE(TUMBLE(TABLE rights%1$s, DESCRIPTOR(ts), INTERVAL '1' SECOND))"
            + "  WHERE auction < 5 GROUP BY window_start, window_end, auction) r"
            + " ON l.window_start = r.window_start AND l.window_end = r.window_end"
            + " AND l.auction = r.auction";
    assertThat(session.explain(String.format(query, ""))).contains("window end build=#");
    List<List<Object>> expected = closed(String.format(query, "_now"), 0);
    assertThat(expected).hasSizeGreaterThan(10);
    try (SqlResult stream = session.sql(String.format(query, ""))) {
      List<List<Object>> rows = new ArrayList<>();
      StreamingResults.readUntil(stream, rows, expected.size(), DEADLINE);
      assertThat(rows).as(join).containsExactlyInAnyOrderElementsOf(expected);
    }
  }

  /**
   * Nexmark q7's shape: the bids within the second before the end of the window that holds the
   * window's top price, an interval join of the stream with a windowed aggregate of itself.
   */
  @Test
  void anIntervalJoinOfAStreamWithItsWindowedTopPriceEqualsTheBatchJoin() {
    String query =
        "SELECT b1.ts AS window_end, b.id, b.price FROM lefts%1$s b JOIN"
            + " (SELECT max(price) AS maxprice, window_end AS ts"
            + "  FROM TABLE(TUMBLE(TABLE lefts%1$s, DESCRIPTOR(ts), INTERVAL '1' SECOND))"
            + "  GROUP BY window_start, window_end) b1"
            + " ON b.price = b1.maxprice"
            + " WHERE b.ts BETWEEN b1.ts - INTERVAL '1' SECOND AND b1.ts";
    assertThat(session.explain(String.format(query, ""))).contains("interval probe.#");
    List<List<Object>> expected = closed(String.format(query, "_now"), 0);
    assertThat(expected).hasSizeGreaterThanOrEqualTo(10);
    try (SqlResult stream = session.sql(String.format(query, ""))) {
      List<List<Object>> rows = new ArrayList<>();
      StreamingResults.readUntil(stream, rows, expected.size(), DEADLINE);
      assertThat(rows).containsExactlyInAnyOrderElementsOf(expected);
    }
  }

  /**
   * An outer interval join of the two topics: each left bid with the right bid 20 ids (200 ms)
   * before it (same auction, price 5 lower), within the second before it. Left bids with a NULL
   * auction or without such a right bid (a NULL auction there, ids 0..22, or ids 900..1099 that
   * both sides filter out) are padded, and so are right bids without their left bid (FULL, RIGHT).
   *
   * <p>Which rows the watermark (T0 + 10.98 s or so) has decided: a pair once its build row is
   * complete, a padded row once no match can come. Whichever side the join builds, with the bids of
   * 9.00 .. 10.99 s filtered out that is every row whose left id (else right id) is below 900, and
   * none above: the rows of 11 s and later wait for a watermark that never comes.
   */
  @ParameterizedTest
  @ValueSource(strings = {"LEFT JOIN", "RIGHT JOIN", "FULL JOIN"})
  void anOuterIntervalJoinOfTwoStreamsEqualsTheBatchJoinForTheDecidedRows(String join) {
    String query =
        "SELECT l.id, l.auction, r.id, r.price FROM"
            + " (SELECT * FROM lefts%1$s WHERE id < 900 OR id >= 1100) l "
            + join
            + " (SELECT * FROM rights%1$s WHERE id < 900 OR id >= 1100) r"
            + " ON l.auction = r.auction AND l.price = r.price + 5"
            + " AND l.ts BETWEEN r.ts AND r.ts + INTERVAL '1' SECOND";
    assertThat(session.explain(String.format(query, ""))).contains("interval probe.#");
    List<List<Object>> expected =
        session.sql(String.format(query, "_now")).rows().stream()
            .filter(row -> (Long) (row.get(0) != null ? row.get(0) : row.get(2)) < 900)
            .toList();
    assertThat(expected).hasSizeGreaterThan(700);
    if (!join.startsWith("RIGHT")) {
      assertThat(expected).as("padded left bids").anyMatch(row -> row.get(2) == null);
    }
    if (!join.startsWith("LEFT")) {
      assertThat(expected).as("padded right bids").anyMatch(row -> row.get(0) == null);
    }
    try (SqlResult stream = session.sql(String.format(query, ""))) {
      List<List<Object>> rows = new ArrayList<>();
      StreamingResults.readUntil(stream, rows, expected.size(), DEADLINE);
      assertThat(rows).as(join).containsExactlyInAnyOrderElementsOf(expected);
    }
  }

  @Test
  void twoStreamsJoinedOffTimeAreRefusedBeforeAJobStarts() {
    assertThatThrownBy(
            () -> session.sql("SELECT l.id FROM lefts l JOIN rights r ON l.auction = r.auction"))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("must be a window join or an interval join");
    assertThat(session.openQueries()).isZero();
  }

  /** The batch answer's rows whose window end (column {@code endColumn}) the watermark closed. */
  private static List<List<Object>> closed(String batchQuery, int endColumn) {
    return session.sql(batchQuery).rows().stream()
        .filter(row -> !((LocalDateTime) row.get(endColumn)).isAfter(LAST_CLOSED_END))
        .toList();
  }
}
