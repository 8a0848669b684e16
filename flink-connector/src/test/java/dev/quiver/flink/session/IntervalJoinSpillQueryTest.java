package dev.quiver.flink.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.flink.testing.KafkaBroker;
import dev.quiver.testing.ArrowLeakCheck;
import java.time.Duration;
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
 * A streaming interval join whose held rows are far more than a task's memory budget: the join
 * moves them to the task's spill space and reads them back when the watermark completes them, so
 * the stream gives the batch answer for the rows it has decided (without spilling, the job fails
 * with MEMORY_BUDGET_EXCEEDED: "holds the rows of both inputs ... and cannot spill them").
 *
 * <p>Each left bid matches the right bid 20 ids (200 ms) before it: same auction, price 5 higher,
 * and the interval is 600 s wide, so both inputs hold about 600 s of bids, 30,000 per side and
 * task, more than the 1.25 MiB budget holds. Bids 0..119,999 span T0 .. T0 + 1,199.99 s; the
 * watermark (the largest event time less 5 s) completes every pair whose left bid is before T0 +
 * 590 s, whichever side the join builds, and the query keeps only those.
 */
@ExtendWith(ArrowLeakCheck.class)
@Timeout(420)
class IntervalJoinSpillQueryTest {
  @RegisterExtension static final KafkaBroker KAFKA = new KafkaBroker();

  private static final Duration DEADLINE = Duration.ofSeconds(240);
  private static final long BUDGET = 1280 * 1024;
  private static QuiverSession session;

  @BeforeAll
  static void start() throws Exception {
    Configuration slots = new Configuration();
    slots.set(TaskManagerOptions.NUM_TASK_SLOTS, 4); // the running stream and its batch oracle
    session = QuiverSession.builder().parallelism(2).configuration(slots).build();
    for (String topic : List.of("long_lefts", "long_rights")) {
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
  void anIntervalJoinBeyondTheTaskBudgetSpillsItsRowsAndEqualsTheBatchJoin() throws Exception {
    String query =
        "SELECT l.id, l.auction, r.id, r.price FROM long_lefts%1$s l JOIN long_rights%1$s r"
            + " ON l.auction = r.auction AND l.price = r.price + 5"
            + " AND l.ts BETWEEN r.ts + INTERVAL '0.1' SECOND AND r.ts + INTERVAL '600' SECOND"
            + " WHERE l.id < 59000";
    assertThat(session.explain(String.format(query, ""))).contains("interval probe.#");
    List<List<Object>> expected = session.sql(String.format(query, "_now")).rows();
    assertThat(expected).hasSizeGreaterThan(40_000);
    Configuration slots = new Configuration();
    slots.set(TaskManagerOptions.NUM_TASK_SLOTS, 4);
    try (QuiverSession small =
        QuiverSession.builder()
            .parallelism(2)
            .configuration(slots)
            .taskMemoryBudget(BUDGET)
            .build()) {
      for (String topic : List.of("long_lefts", "long_rights")) {
        KafkaBids.register(small, KAFKA, topic);
      }
      try (SqlResult stream = small.sql(String.format(query, ""))) {
        List<List<Object>> rows = new ArrayList<>();
        StreamingResults.readUntil(stream, rows, expected.size(), DEADLINE);
        assertThat(rows).containsExactlyInAnyOrderElementsOf(expected);
      }
    }
  }
}
