package dev.quiver.flink.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.flink.testing.KafkaBroker;
import dev.quiver.testing.ArrowLeakCheck;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.TaskManagerOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A bounded {@code INSERT INTO} a Kafka table, JSON and CSV: the rows written to the topic, read
 * back through a Kafka table of the same schema with {@code isolation.level = read_committed}, are
 * the query's rows (every column type, NULLs, text that needs quoting), each once.
 */
@ExtendWith(ArrowLeakCheck.class)
@Timeout(180)
class KafkaInsertTest {
  @RegisterExtension static final KafkaBroker KAFKA = new KafkaBroker();

  private static final int EVENTS = 1500;
  private static final String COLUMNS =
      "id BIGINT NOT NULL, n INT, amount DOUBLE, price DECIMAL(10, 2), name STRING,"
          + " flag BOOLEAN, `day` DATE, ts TIMESTAMP(3)";

  @Test
  void rowsWrittenToATopicReadBackAsTheQuerysRows() throws Exception {
    KAFKA.createTopic("events", 2);
    for (int partition = 0; partition < 2; partition++) {
      List<String> values = new ArrayList<>();
      for (int id = partition; id < EVENTS; id += 2) {
        values.add(event(id));
      }
      KAFKA.send("events", partition, values);
    }
    Configuration slots = new Configuration();
    slots.set(TaskManagerOptions.NUM_TASK_SLOTS, 4);
    try (QuiverSession session =
        QuiverSession.builder().parallelism(2).configuration(slots).build()) {
      session.execute(table("events", "events", "json", ""));
      List<List<Object>> expected = session.sql("SELECT * FROM events").rows();
      assertThat(expected).hasSize(EVENTS);
      for (String format : List.of("json", "csv")) {
        String topic = "out_" + format;
        KAFKA.createTopic(topic, 3);
        String options = format.equals("csv") ? ", 'csv.field-delimiter' = '|'" : "";
        session.execute(table(topic, topic, format, options));
        try (SqlResult insert =
            session.execute("INSERT INTO " + topic + " SELECT * FROM events").orElseThrow()) {
          assertThat(insert.insertInto()).contains(topic);
          assertThat(insert.rows()).containsExactly(List.of((long) EVENTS));
        }
        // The job has committed; the commit markers reach each partition a moment later.
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (KAFKA.values(topic, true).size() < EVENTS && System.nanoTime() < deadline) {
          Thread.sleep(100);
        }
        assertThat(KAFKA.values(topic, true)).as(format).hasSize(EVENTS);
        session.execute(
            table(
                topic + "_read",
                topic,
                format,
                options + ", 'properties.isolation.level' = 'read_committed'"));
        assertThat(session.sql("SELECT * FROM " + topic + "_read").rows())
            .as(format)
            .containsExactlyInAnyOrderElementsOf(expected);
      }
      assertThat(KAFKA.values("out_json", true).get(0)).startsWith("{\"id\":");
    }
  }

  private static String table(String name, String topic, String format, String options) {
    return """
        CREATE TABLE %s (%s) WITH (
          'connector' = 'kafka', 'topic' = '%s', 'format' = '%s',
          'properties.bootstrap.servers' = '%s', 'scan.bounded.mode' = 'latest-offset'%s)
        """
        .formatted(name, COLUMNS, topic, format, KAFKA.bootstrapServers(), options);
  }

  /** Event {@code id} as JSON: NULLs at strides, names with quotes, commas and '|'. */
  private static String event(int id) {
    StringBuilder s = new StringBuilder("{\"id\": ").append(id);
    s.append(", \"n\": ").append(id % 7 == 0 ? "null" : Integer.toString(id * 3 - 500));
    s.append(", \"amount\": ").append(id % 5 == 0 ? "null" : Double.toString(id * 1.25));
    s.append(", \"price\": ").append(id % 11 == 0 ? "null" : (id * 100 + 7) / 100 + "." + "07");
    s.append(", \"name\": ")
        .append(
            id % 13 == 0
                ? "null"
                : id % 9 == 0 ? "\"\"" : "\"n" + id + (id % 3 == 0 ? " é,|\\\"q\\\"" : "") + "\"");
    s.append(", \"flag\": ").append(id % 4 == 0 ? "null" : Boolean.toString(id % 2 == 1));
    s.append(", \"day\": ").append(id % 6 == 0 ? "null" : "\"2024-01-0" + (1 + id % 9) + "\"");
    s.append(", \"ts\": ").append(1_767_225_600_000L + id * 100L + id % 3);
    return s.append('}').toString();
  }
}
