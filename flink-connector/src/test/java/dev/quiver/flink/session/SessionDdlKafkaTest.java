package dev.quiver.flink.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.flink.testing.KafkaBroker;
import dev.quiver.testing.ArrowLeakCheck;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.TaskManagerOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A Kafka topic declared with Flink SQL's own {@code CREATE TABLE} text through {@link
 * QuiverSession#execute}, then a tumbling-window query over it: each window arrives once the
 * watermark the declaration names has passed its end.
 */
@ExtendWith(ArrowLeakCheck.class)
@Timeout(180)
class SessionDdlKafkaTest {
  @RegisterExtension static final KafkaBroker KAFKA = new KafkaBroker();

  @Test
  void aTopicDeclaredInFlinkSqlIsAStreamWithItsWatermark() throws Exception {
    KAFKA.createTopic("clicks", 1);
    List<String> values = new ArrayList<>();
    // 2026-01-01 00:00:00 UTC + i seconds; the last one moves the watermark past 00:00:10.
    long t0 = 1_767_225_600_000L;
    for (int i = 0; i < 10; i++) {
      values.add(
          "{\"user_id\": "
              + (i % 2)
              + ", \"url\": \"/p"
              + i
              + "\", \"ts\": "
              + (t0 + i * 1000L)
              + "}");
    }
    values.add("{\"user_id\": 9, \"url\": \"/late\", \"ts\": " + (t0 + 20_000L) + "}");
    KAFKA.send("clicks", 0, values);

    Configuration slots = new Configuration();
    slots.set(TaskManagerOptions.NUM_TASK_SLOTS, 2);
    try (QuiverSession session =
        QuiverSession.builder().parallelism(1).configuration(slots).build()) {
      session.execute(
          """
          CREATE TABLE clicks (
            `user_id` BIGINT,
            `url` STRING,
            `ts` TIMESTAMP(3),
            WATERMARK FOR `ts` AS `ts` - INTERVAL '2' SECOND
          ) WITH (
            'connector' = 'kafka',
            'topic' = 'clicks',
            'properties.bootstrap.servers' = '%s',
            'properties.group.id' = 'quiver-ddl-test',
            'scan.startup.mode' = 'earliest-offset',
            'format' = 'json'
          )
          """
              .formatted(KAFKA.bootstrapServers()));
      try (SqlResult result =
          session
              .execute(
                  "SELECT window_end, user_id, count(*) AS clicks"
                      + " FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '10' SECOND))"
                      + " GROUP BY window_start, window_end, user_id")
              .orElseThrow()) {
        assertThat(result.streaming()).isTrue();
        List<List<Object>> rows = new ArrayList<>();
        StreamingResults.readUntil(result, rows, 2, Duration.ofSeconds(90));
        LocalDateTime end = LocalDateTime.parse("2026-01-01T00:00:10");
        assertThat(rows).containsExactlyInAnyOrder(List.of(end, 0L, 5L), List.of(end, 1L, 5L));
      }
    }
  }
}
