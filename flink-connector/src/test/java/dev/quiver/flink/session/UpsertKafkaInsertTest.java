package dev.quiver.flink.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.quiver.error.QuiverException;
import dev.quiver.flink.testing.KafkaBroker;
import dev.quiver.testing.ArrowLeakCheck;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
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

/**
 * {@code INSERT INTO} an {@code 'upsert-kafka'} table (Flink's DDL, unchanged): an updating result
 * goes to its topic as a message per changed row, keyed by the table's PRIMARY KEY, its value the
 * row or a tombstone; the topic read back with {@code isolation.level = read_committed}, the last
 * message of each key kept and tombstoned keys dropped (what a compacted topic keeps), is the batch
 * answer of the query over the same bids. Bids 0..3,999: 10 auctions and NULL, about 343 bids each.
 */
@ExtendWith(ArrowLeakCheck.class)
@Timeout(300)
class UpsertKafkaInsertTest {
  @RegisterExtension static final KafkaBroker KAFKA = new KafkaBroker();

  private static final Duration DEADLINE = Duration.ofSeconds(120);
  private static final JsonFactory JSON = new JsonFactory();
  private static QuiverSession session;

  @BeforeAll
  static void start() throws Exception {
    Configuration slots = new Configuration();
    slots.set(TaskManagerOptions.NUM_TASK_SLOTS, 4); // the running INSERT and the batch oracle
    session = QuiverSession.builder().parallelism(2).configuration(slots).build();
    KAFKA.createTopic("upsert_bids", 2);
    KafkaBids.send(KAFKA, "upsert_bids", 0, 4000);
    KafkaBids.register(session, KAFKA, "upsert_bids");
  }

  @AfterAll
  static void stop() {
    if (session != null) {
      session.close();
    }
  }

  @Test
  void anUpdatingGroupByLeavesTheBatchAnswerInItsUpsertTopic() throws Exception {
    String select = "SELECT auction, count(*), max(price) FROM upsert_bids%s GROUP BY auction";
    createUpsertTable("totals", "auction BIGINT, bids BIGINT NOT NULL, top DOUBLE", "auction");
    List<List<Object>> expected = session.sql(String.format(select, "_now")).rows();
    assertThat(expected).hasSize(11);
    try (SqlResult insert =
        session.execute("INSERT INTO totals " + String.format(select, "")).orElseThrow()) {
      assertThat(insert.insertInto()).contains("totals");
      Map<String, String> table = awaitTable("totals", expected);
      assertThat(table).containsKey("{\"auction\":3}").containsKey("{\"auction\":null}");
    }
    List<Map.Entry<String, String>> records = KAFKA.records("totals", true);
    assertThat(records).as("an update per batch, not per row").hasSizeLessThan(4000);
  }

  /**
   * A filter over the changelog: a group whose count passes the bound leaves the result, and its
   * key gets a tombstone; the one auction the filter keeps whatever its count stays. The bids come
   * in two rounds, so that every group is in the result before it leaves it.
   */
  @Test
  void groupsThatLeaveAFilteredResultAreTombstoned() throws Exception {
    KAFKA.createTopic("rounds", 2);
    KafkaBids.register(session, KAFKA, "rounds");
    String select =
        "SELECT auction, cnt FROM (SELECT auction, count(*) AS cnt FROM rounds%s"
            + " WHERE auction IS NOT NULL GROUP BY auction) WHERE cnt < 200 OR auction = 3";
    createUpsertTable("small_totals", "auction BIGINT NOT NULL, cnt BIGINT", "auction");
    KafkaBids.send(KAFKA, "rounds", 0, 1000);
    List<List<Object>> first = session.sql(String.format(select, "_now")).rows();
    assertThat(first).hasSize(10);
    try (SqlResult insert =
        session.execute("INSERT INTO small_totals " + String.format(select, "")).orElseThrow()) {
      awaitTable("small_totals", first);
      KafkaBids.send(KAFKA, "rounds", 1000, 4000);
      List<List<Object>> expected = session.sql(String.format(select, "_now")).rows();
      assertThat(expected).hasSize(1);
      awaitTable("small_totals", expected);
    }
    assertThat(KAFKA.records("small_totals", true))
        .as("tombstones of the auctions that passed 200 bids")
        .filteredOn(record -> record.getValue() == null)
        .hasSizeGreaterThanOrEqualTo(9);
  }

  /** An append-only result (closed windows) goes to an upsert table as inserted rows. */
  @Test
  void windowsWrittenToAnUpsertTableAreInsertedRows() throws Exception {
    String select =
        "SELECT window_end, count(*) FROM TABLE(TUMBLE(TABLE upsert_bids%s, DESCRIPTOR(ts),"
            + " INTERVAL '10' SECOND)) GROUP BY window_start, window_end";
    createUpsertTable("window_counts", "window_end TIMESTAMP(3), bids BIGINT", "window_end");
    // The watermark (T0 + 39.99 s less 5 s) closes the windows that end at 10, 20 and 30 s.
    DateTimeFormatter text = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
    LocalDateTime watermark = LocalDateTime.of(2026, 1, 1, 0, 0, 34);
    List<List<Object>> expected =
        session.sql(String.format(select, "_now")).rows().stream()
            .filter(row -> ((LocalDateTime) row.get(0)).isBefore(watermark))
            .map(row -> List.<Object>of(text.format((LocalDateTime) row.get(0)), row.get(1)))
            .toList();
    assertThat(expected).hasSize(3);
    try (SqlResult insert =
        session.execute("INSERT INTO window_counts " + String.format(select, "")).orElseThrow()) {
      awaitTable("window_counts", expected);
    }
  }

  @Test
  void whatAnUpsertTableCannotDoIsRefusedInOneLine() throws Exception {
    createUpsertTable("by_bids", "auction BIGINT, bids BIGINT NOT NULL", "bids");
    assertThatThrownBy(
            () ->
                session.execute(
                    "INSERT INTO by_bids SELECT auction, count(*) FROM upsert_bids GROUP BY"
                        + " auction"))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("INSERT INTO by_bids: its PRIMARY KEY [bids] must be the columns")
        .hasMessageContaining("[auction]");
    assertThatThrownBy(() -> session.sql("SELECT * FROM by_bids").rows())
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("reading one is not supported yet");
    assertThatThrownBy(
            () ->
                session.execute(
                    "CREATE TABLE keyless (a BIGINT) WITH ('connector' = 'upsert-kafka',"
                        + " 'topic' = 'k', 'properties.bootstrap.servers' = 'x:1',"
                        + " 'key.format' = 'json', 'value.format' = 'json')"))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("Table 'keyless': an 'upsert-kafka' table needs a PRIMARY KEY");
    session.execute(
        "CREATE TABLE appends (auction BIGINT, bids BIGINT) WITH ('connector' = 'kafka',"
            + " 'topic' = 'appends', 'format' = 'json', 'properties.bootstrap.servers' = '"
            + KAFKA.bootstrapServers()
            + "')");
    assertThatThrownBy(
            () ->
                session.execute(
                    "INSERT INTO appends SELECT auction, count(*) FROM upsert_bids GROUP BY"
                        + " auction"))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("the query's result is updating")
        .hasMessageContaining("'upsert-kafka'");
    assertThat(session.openQueries()).isZero();
  }

  private static void createUpsertTable(String name, String columns, String key) throws Exception {
    KAFKA.createTopic(name, 2);
    session.execute(
        """
        CREATE TABLE %s (%s, PRIMARY KEY (%s) NOT ENFORCED) WITH (
          'connector' = 'upsert-kafka', 'topic' = '%s',
          'properties.bootstrap.servers' = '%s',
          'key.format' = 'json', 'value.format' = 'json')
        """
            .formatted(name, columns, key, name, KAFKA.bootstrapServers()));
  }

  /**
   * Reads {@code topic}'s committed messages until the last value of each key, tombstoned keys left
   * out, is {@code expected}; returns them by key.
   */
  private static Map<String, String> awaitTable(String topic, List<List<Object>> expected)
      throws InterruptedException {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (true) {
      Map<String, String> table = new HashMap<>();
      for (Map.Entry<String, String> record : KAFKA.records(topic, true)) {
        if (record.getValue() == null) {
          table.remove(record.getKey());
        } else {
          table.put(record.getKey(), record.getValue());
        }
      }
      List<List<Object>> rows = table.values().stream().map(UpsertKafkaInsertTest::row).toList();
      if (rows.size() == expected.size() && rows.containsAll(expected)) {
        assertThat(rows).containsExactlyInAnyOrderElementsOf(expected);
        return table;
      }
      if (System.nanoTime() > deadline) {
        assertThat(rows).as("the table in " + topic).containsExactlyInAnyOrderElementsOf(expected);
      }
      Thread.sleep(300);
    }
  }

  /** A JSON object's values in order: integers as Long, others as Double, text, or null. */
  private static List<Object> row(String json) {
    List<Object> row = new ArrayList<>();
    try (JsonParser parser = JSON.createParser(json)) {
      for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
        switch (token) {
          case VALUE_NUMBER_INT -> row.add(parser.getLongValue());
          case VALUE_NUMBER_FLOAT -> row.add(parser.getDoubleValue());
          case VALUE_STRING -> row.add(parser.getText());
          case VALUE_NULL -> row.add(null);
          default -> {}
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return row;
  }
}
