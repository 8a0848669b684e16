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
 * Joins of two streams whose held rows are far more than a task's memory budget: the join moves
 * them to the task's spill space and reads them back when the watermark says they can be joined, so
 * the stream gives the batch answer for what the watermark has decided (without spilling, the job
 * fails with MEMORY_BUDGET_EXCEEDED). Bids 0..119,999 of each topic span T0 .. T0 + 1,199.99 s; the
 * watermark is the largest event time less 5 s. The small session gives each task 1.25 MiB, which
 * must fit a hash join of what completes and an 8,192-row output batch.
 */
@ExtendWith(ArrowLeakCheck.class)
@Timeout(600)
class StreamJoinSpillQueryTest {
  @RegisterExtension static final KafkaBroker KAFKA = new KafkaBroker();

  private static final Duration DEADLINE = Duration.ofSeconds(240);
  private static final long BUDGET = 1280 * 1024;
  private static final List<String> TOPICS = List.of("lefts", "rights");
  private static QuiverSession session; // the batch oracle's
  private static QuiverSession small; // the streams', with the small budget

  @BeforeAll
  static void start() throws Exception {
    session = QuiverSession.builder().parallelism(2).build();
    small =
        QuiverSession.builder()
            .parallelism(2)
            .configuration(slots(4))
            .taskMemoryBudget(BUDGET)
            .build();
    for (String topic : TOPICS) {
      KAFKA.createTopic(topic, 2);
      KafkaBids.send(KAFKA, topic, 0, 120_000);
      KafkaBids.register(session, KAFKA, topic);
      KafkaBids.register(small, KAFKA, topic);
    }
  }

  @AfterAll
  static void stop() {
    for (QuiverSession open : new QuiverSession[] {small, session}) {
      if (open != null) {
        open.close();
      }
    }
  }

  /**
   * A window join of 400-second windows: the watermark closes the windows ending at T0 + 400 s and
   * 800 s, 40,000 bids per window and side, about 20,000 per task.
   */
  @Test
  void aWindowJoinBeyondTheTaskBudgetSpillsItsBuffersAndEqualsTheBatchJoin() {
    LocalDateTime lastClosedEnd = LocalDateTime.of(2026, 1, 1, 0, 13, 20);
    String query =
        "SELECT l.window_end, l.id, l.auction, r.price FROM"
            + " TABLE(TUMBLE(TABLE lefts%1$s, DESCRIPTOR(ts), INTERVAL '400' SECOND)) l"
            + " JOIN TABLE(TUMBLE(TABLE rights%1$s, DESCRIPTOR(ts), INTERVAL '400' SECOND)) r"
            + " ON l.window_start = r.window_start AND l.window_end = r.window_end"
            + " AND l.id = r.id";
    assertThat(session.explain(String.format(query, ""))).contains("window end build=#");
    List<List<Object>> expected =
        session.sql(String.format(query, "_now")).rows().stream()
            .filter(row -> !((LocalDateTime) row.get(0)).isAfter(lastClosedEnd))
            .toList();
    assertThat(expected).hasSize(80_000);
    assertStreamGives(String.format(query, ""), expected);
  }

  /**
   * An interval join 600 s wide: each left bid matches the right bid 20 ids (200 ms) before it
   * (same auction, price 5 higher), so both inputs hold about 600 s of bids, 30,000 per side and
   * task. The watermark completes every pair whose left bid is before T0 + 590 s, whichever side
   * the join builds, and the query keeps only those.
   */
  @Test
  void anIntervalJoinBeyondTheTaskBudgetSpillsItsRowsAndEqualsTheBatchJoin() {
    String query =
        "SELECT l.id, l.auction, r.id, r.price FROM lefts%1$s l JOIN rights%1$s r"
            + " ON l.auction = r.auction AND l.price = r.price + 5"
            + " AND l.ts BETWEEN r.ts + INTERVAL '0.1' SECOND AND r.ts + INTERVAL '600' SECOND"
            + " WHERE l.id < 59000";
    assertThat(session.explain(String.format(query, ""))).contains("interval probe.#");
    List<List<Object>> expected = session.sql(String.format(query, "_now")).rows();
    assertThat(expected).hasSizeGreaterThan(40_000);
    assertStreamGives(String.format(query, ""), expected);
  }

  private static void assertStreamGives(String query, List<List<Object>> expected) {
    try (SqlResult stream = small.sql(query)) {
      List<List<Object>> rows = new ArrayList<>();
      StreamingResults.readUntil(stream, rows, expected.size(), DEADLINE);
      assertThat(rows).containsExactlyInAnyOrderElementsOf(expected);
    }
  }

  private static Configuration slots(int slots) {
    Configuration flink = new Configuration();
    flink.set(TaskManagerOptions.NUM_TASK_SLOTS, slots);
    return flink;
  }
}
