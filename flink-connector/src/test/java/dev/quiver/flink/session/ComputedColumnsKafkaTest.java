package dev.quiver.flink.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.flink.testing.KafkaBroker;
import dev.quiver.testing.ArrowLeakCheck;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.TaskManagerOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The most common Flink Kafka DDL: an event time computed from epoch milliseconds ({@code ts AS
 * TO_TIMESTAMP_LTZ(epoch_ms, 3)}), the watermark on it, and record metadata columns. A TUMBLE
 * window aggregate grouped by the partition (a metadata column) over the stream gives the rows an
 * oracle computes from the events sent and the same query over a bounded read of the topic gives.
 */
@ExtendWith(ArrowLeakCheck.class)
@Timeout(180)
class ComputedColumnsKafkaTest {
  @RegisterExtension static final KafkaBroker KAFKA = new KafkaBroker();

  // 2026-01-01 00:00:00 UTC
  private static final long T0 = 1_767_225_600_000L;

  private static String create(String name, String bounded) {
    return create(name, "clicks", bounded);
  }

  private static String create(String name, String topic, String bounded) {
    return """
        CREATE TABLE %s (
          user_id BIGINT,
          url STRING,
          epoch_ms BIGINT,
          ts AS TO_TIMESTAMP_LTZ(epoch_ms, 3),
          kafka_ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL,
          part INT METADATA FROM 'partition' VIRTUAL,
          `offset` BIGINT METADATA VIRTUAL,
          topic STRING METADATA VIRTUAL,
          url_len AS CHAR_LENGTH(url) + part,
          WATERMARK FOR ts AS ts - INTERVAL '2' SECOND
        ) WITH (
          'connector' = 'kafka',
          'topic' = '%s',
          'properties.bootstrap.servers' = '%s',
          'format' = 'json'%s
        )
        """
        .formatted(name, topic, KAFKA.bootstrapServers(), bounded);
  }

  private static String click(long userId, long epochMs) {
    return "{\"user_id\": "
        + userId
        + ", \"url\": \"/p"
        + userId
        + "\", \"epoch_ms\": "
        + epochMs
        + "}";
  }

  @Test
  void aComputedEventTimeWithItsWatermarkAndMetadataColumnsWindowAsTheBoundedReadAndTheOracle()
      throws Exception {
    KAFKA.createTopic("clicks", 2);
    // Partition 0: one click a second from 00:00:00 to 00:00:09; partition 1: every two seconds
    // from 00:00:03 to 00:00:13. The last click of each (00:00:25) takes the watermark to
    // 00:00:23, so the windows ending at 00:00:10 and 00:00:20 close.
    Map<List<Object>, Long> oracle = new HashMap<>();
    List<String> p0 = new ArrayList<>();
    List<String> p1 = new ArrayList<>();
    LocalDateTime start = LocalDateTime.parse("2026-01-01T00:00:00");
    for (int i = 0; i < 10; i++) {
      p0.add(click(i, T0 + i * 1000L));
      oracle.merge(List.of(start.plusSeconds(10), 0), 1L, Long::sum);
    }
    for (int i = 0; i < 6; i++) {
      long second = 3 + 2L * i;
      p1.add(click(100 + i, T0 + second * 1000));
      oracle.merge(List.of(start.plusSeconds(second < 10 ? 10 : 20), 1), 1L, Long::sum);
    }
    p0.add(click(9, T0 + 25_000));
    p1.add(click(9, T0 + 25_000));
    long before = System.currentTimeMillis();
    KAFKA.send("clicks", 0, p0);
    KAFKA.send("clicks", 1, p1);
    long after = System.currentTimeMillis();
    List<List<Object>> expected = new ArrayList<>();
    oracle.forEach((key, count) -> expected.add(List.of(key.get(0), key.get(1), count)));
    assertThat(expected).hasSize(3);

    Configuration slots = new Configuration();
    slots.set(TaskManagerOptions.NUM_TASK_SLOTS, 4);
    try (QuiverSession session =
        QuiverSession.builder().parallelism(2).configuration(slots).build()) {
      session.execute(create("clicks", ""));
      session.execute(create("clicks_now", ",\n  'scan.bounded.mode' = 'latest-offset'"));

      // SELECT * gives the declared columns in their order, computed and metadata ones included.
      try (SqlResult all =
          session.execute("SELECT * FROM clicks_now WHERE user_id = 3").orElseThrow()) {
        assertThat(all.schema().getFields())
            .extracting(Field::getName)
            .containsExactly(
                "user_id",
                "url",
                "epoch_ms",
                "ts",
                "kafka_ts",
                "part",
                "offset",
                "topic",
                "url_len");
        List<List<Object>> rows = all.rows();
        assertThat(rows).hasSize(1);
        List<Object> row = rows.get(0);
        assertThat(row.subList(0, 4))
            .containsExactly(3L, "/p3", T0 + 3000, LocalDateTime.parse("2026-01-01T00:00:03"));
        long kafkaMillis = ((LocalDateTime) row.get(4)).toInstant(ZoneOffset.UTC).toEpochMilli();
        assertThat(kafkaMillis).isBetween(before, after);
        assertThat(row.subList(5, 9)).containsExactly(0, 3L, "clicks", 3 + 0);
      }

      String window =
          "SELECT window_end, part, count(*) AS clicks FROM TABLE(TUMBLE(TABLE %s,"
              + " DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY window_start, window_end, part";
      List<List<Object>> bounded;
      try (SqlResult batch =
          session
              .execute(
                  "SELECT * FROM ("
                      + window.formatted("clicks_now")
                      + ") WHERE window_end <= TIMESTAMP '2026-01-01 00:00:20'")
              .orElseThrow()) {
        assertThat(batch.streaming()).isFalse();
        bounded = batch.rows();
      }
      assertThat(bounded).containsExactlyInAnyOrderElementsOf(expected);

      try (SqlResult stream = session.execute(window.formatted("clicks")).orElseThrow()) {
        assertThat(stream.streaming()).isTrue();
        List<List<Object>> rows = new ArrayList<>();
        StreamingResults.readUntil(stream, rows, 3, Duration.ofSeconds(90));
        assertThat(rows).containsExactlyInAnyOrderElementsOf(bounded);
      }

      // INSERT INTO a table with computed and virtual metadata columns writes the physical ones.
      KAFKA.createTopic("clicks_copy", 1);
      String copy = ",\n  'scan.bounded.mode' = 'latest-offset'";
      session.execute(create("clicks_copy", "clicks_copy", copy));
      try (SqlResult insert =
          session
              .execute("INSERT INTO clicks_copy SELECT user_id, url, epoch_ms FROM clicks_now")
              .orElseThrow()) {
        assertThat(insert.rows()).containsExactly(List.of(18L));
      }
      // The sink's transactions commit as the job ends; wait until a reader can see them.
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (KAFKA.values("clicks_copy", true).size() < 18 && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      String read = "SELECT user_id, ts, url_len - part, topic FROM %s";
      session.execute(
          create(
              "copy_read",
              "clicks_copy",
              copy + ", 'properties.isolation.level' = 'read_committed'"));
      List<List<Object>> copied = session.sql(read.formatted("copy_read")).rows();
      List<List<Object>> original = session.sql(read.formatted("clicks_now")).rows();
      assertThat(copied).hasSize(18);
      assertThat(copied.stream().map(row -> row.subList(0, 3)).toList())
          .containsExactlyInAnyOrderElementsOf(
              original.stream().map(row -> row.subList(0, 3)).toList());
      assertThat(copied).allMatch(row -> row.get(3).equals("clicks_copy"));
    }

    // One reader of both partitions: partition 0's clicks up to 00:00:25 must not make partition
    // 1's earlier ones late, as they would under one watermark per reader (the computed event
    // time's watermark is each partition's, taken in the reader).
    try (QuiverSession session = QuiverSession.builder().parallelism(1).build()) {
      session.execute(create("clicks", ""));
      try (SqlResult stream =
          session
              .execute(
                  "SELECT window_end, part, count(*) AS clicks FROM TABLE(TUMBLE(TABLE clicks,"
                      + " DESCRIPTOR(ts), INTERVAL '10' SECOND))"
                      + " GROUP BY window_start, window_end, part")
              .orElseThrow()) {
        List<List<Object>> rows = new ArrayList<>();
        StreamingResults.readUntil(stream, rows, 3, Duration.ofSeconds(90));
        assertThat(rows).containsExactlyInAnyOrderElementsOf(expected);
      }
    }
  }

  @Test
  void metadataKeysAreKafkasAndDeclaredWithTheirTypes() {
    try (QuiverSession session = QuiverSession.builder().parallelism(1).build()) {
      String table =
          "CREATE TABLE t (id BIGINT, %s) WITH ('connector' = 'kafka', 'topic' = 't',"
              + " 'properties.bootstrap.servers' = 'localhost:1', 'format' = 'json')";
      assertThatThrownBy(
              () -> session.execute(table.formatted("h STRING METADATA FROM 'headers' VIRTUAL")))
          .hasMessage(
              "[INVALID_QUERY] Table 't': the metadata column h reads 'headers', which Kafka"
                  + " records do not have; the keys are 'timestamp', 'partition', 'offset',"
                  + " 'topic'");
      assertThatThrownBy(
              () -> session.execute(table.formatted("p BIGINT METADATA FROM 'partition'")))
          .hasMessage(
              "[INVALID_QUERY] Table 't': the metadata column p is BIGINT, but Kafka's 'partition'"
                  + " is INTEGER: declare it INTEGER");
      session.execute(table.formatted("ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp'"));
      assertThatThrownBy(() -> session.execute("INSERT INTO t VALUES (CAST(1 AS BIGINT))"))
          .hasMessage(
              "[UNSUPPORTED_FEATURE] not supported: INSERT INTO t: its metadata column ts is not"
                  + " VIRTUAL, and Quiver's sinks write no record metadata; declare it VIRTUAL"
                  + " (read only) to write the table");
      assertThatThrownBy(
              () ->
                  session.execute(
                      "CREATE TABLE f (id BIGINT, p INT METADATA FROM 'partition') WITH"
                          + " ('connector' = 'filesystem', 'path' = '/nowhere', 'format' = 'csv')"))
          .hasMessage(
              "[INVALID_QUERY] Table 'f': the metadata column p reads 'partition', but the"
                  + " filesystem connector has no metadata: declare a physical or computed column");
    }
  }
}
