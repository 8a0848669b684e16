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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A streaming window join whose open windows hold far more rows than a task's memory budget: the
 * window join's buffers spill them to the task's spill space and read them back when the watermark
 * closes their window, so the stream gives the batch answer for the closed windows (without
 * spilling, the job fails with MEMORY_BUDGET_EXCEEDED: "keeps the rows of every open window of both
 * inputs in memory and cannot spill them"). Bids 0..119,999 of each topic span T0 .. T0 + 1,199.99
 * s, so the watermark (largest event time less 5 s) closes the 400-second windows ending at T0 +
 * 400 s and 800 s: 40,000 bids per window and side, about 20,000 per task, more than the 1.25 MiB
 * budget holds (which must fit a window's hash join and an 8,192-row output batch).
 */
@ExtendWith(ArrowLeakCheck.class)
@Timeout(420)
class WindowBuffersSpillQueryTest {
  @RegisterExtension static final KafkaBroker KAFKA = new KafkaBroker();

  private static final Duration DEADLINE = Duration.ofSeconds(240);
  private static final long BUDGET = 1280 * 1024;
  private static final LocalDateTime LAST_CLOSED_END = LocalDateTime.of(2026, 1, 1, 0, 13, 20);
  private static QuiverSession session;

  @BeforeAll
  static void start() throws Exception {
    Configuration slots = new Configuration();
    slots.set(TaskManagerOptions.NUM_TASK_SLOTS, 4); // the running stream and its batch oracle
    session = QuiverSession.builder().parallelism(2).configuration(slots).build();
    for (String topic : List.of("wide_lefts", "wide_rights")) {
      KAFKA.createTopic(topic, 2);
      KafkaBids.send(KAFKA, topic, 0, 120_000);
      KafkaBids.register(session, KAFKA, topic);
    }
  }

  @AfterAll
  static void stop() {
    if (session != null) {
      session.close();
    }
  }

  @Test
  void aWindowJoinBeyondTheTaskBudgetSpillsItsBuffersAndEqualsTheBatchJoin() throws Exception {
    String query =
        "SELECT l.window_end, l.id, l.auction, r.price FROM"
            + " TABLE(TUMBLE(TABLE wide_lefts%1$s, DESCRIPTOR(ts), INTERVAL '400' SECOND)) l"
            + " JOIN TABLE(TUMBLE(TABLE wide_rights%1$s, DESCRIPTOR(ts), INTERVAL '400' SECOND)) r"
            + " ON l.window_start = r.window_start AND l.window_end = r.window_end"
            + " AND l.id = r.id";
    assertThat(session.explain(String.format(query, ""))).contains("window end build=#");
    List<List<Object>> expected =
        session.sql(String.format(query, "_now")).rows().stream()
            .filter(row -> !((LocalDateTime) row.get(0)).isAfter(LAST_CLOSED_END))
            .toList();
    assertThat(expected).hasSize(80_000);
    try (QuiverSession small =
        QuiverSession.builder()
            .parallelism(2)
            .configuration(slotsFor(4))
            .taskMemoryBudget(BUDGET)
            .build()) {
      for (String topic : List.of("wide_lefts", "wide_rights")) {
        KafkaBids.register(small, KAFKA, topic);
      }
      try (SqlResult stream = small.sql(String.format(query, ""))) {
        List<List<Object>> rows = new ArrayList<>();
        StreamingResults.readUntil(stream, rows, expected.size(), DEADLINE);
        assertThat(rows).containsExactlyInAnyOrderElementsOf(expected);
      }
    }
  }

  private static Configuration slotsFor(int slots) {
    Configuration flink = new Configuration();
    flink.set(TaskManagerOptions.NUM_TASK_SLOTS, slots);
    return flink;
  }
}
