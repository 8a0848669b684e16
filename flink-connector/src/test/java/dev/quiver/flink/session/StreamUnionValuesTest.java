package dev.quiver.flink.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.flink.testing.KafkaBroker;
import dev.quiver.testing.ArrowLeakCheck;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.TaskManagerOptions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * VALUES beside a Kafka stream in one stage (one task, so no exchange separates them): the VALUES
 * rows come out while the stream runs, whether the VALUES come before or after the stream in the
 * union. A stream never ends, so VALUES that waited for its end would never run.
 *
 * <pre>
 *   stage 0: Union[Scan bids (unbounded), Values]   or   Union[Values, Scan bids (unbounded)]
 * </pre>
 */
@ExtendWith(ArrowLeakCheck.class)
@Timeout(240)
class StreamUnionValuesTest {
  @RegisterExtension static final KafkaBroker KAFKA = new KafkaBroker();

  private static final Duration DEADLINE = Duration.ofSeconds(30);

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void valuesBesideAStreamComeOutWhileItRuns(boolean valuesFirst) throws Exception {
    String topic = valuesFirst ? "values_first" : "values_last";
    KAFKA.createTopic(topic, 2);
    KafkaBids.send(KAFKA, topic, 0, 100);
    Configuration slots = new Configuration();
    slots.set(TaskManagerOptions.NUM_TASK_SLOTS, 4);
    try (QuiverSession session =
        QuiverSession.builder().parallelism(1).configuration(slots).build()) {
      KafkaBids.register(session, KAFKA, topic);
      String stream = "SELECT id, auction FROM " + topic;
      String values = "VALUES (CAST(-1 AS BIGINT), CAST(-1 AS BIGINT))";
      String query =
          valuesFirst
              ? "SELECT * FROM (" + values + ") UNION ALL " + stream
              : stream + " UNION ALL " + values;
      assertThat(session.explain(query)).contains("Values[rows=1]").doesNotContain("Stage 1");
      try (SqlResult result = session.sql(query)) {
        List<List<Object>> rows = new ArrayList<>();
        StreamingResults.readUntil(
            result,
            rows,
            read -> read.size() >= 101 && read.contains(List.of(-1L, -1L)),
            "100 bids and the VALUES row",
            DEADLINE);
        assertThat(rows).hasSize(101);
      }
    }
  }
}
