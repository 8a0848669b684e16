package dev.quiver.flink.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.QuiverException;
import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.compiler.StageOutputHook;
import dev.quiver.flink.runtime.BatchOperator;
import dev.quiver.flink.testing.KafkaBroker;
import dev.quiver.plan.node.RowSchema;
import dev.quiver.plan.time.EventTime;
import dev.quiver.testing.ArrowLeakCheck;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * GROUP BY over a stream without an event-time window, on a real Kafka broker: the result is a
 * changelog (first column {@code op}: +I, -U, +U, -D), and the changelog applied in order equals
 * the same query over the same records read as a bounded table (the batch engine is the oracle),
 * before and after more records arrive.
 */
@ExtendWith(ArrowLeakCheck.class)
@Timeout(240)
class UpdatingAggregateQueryTest {
  @RegisterExtension static final KafkaBroker KAFKA = new KafkaBroker();

  private static final Duration DEADLINE = Duration.ofSeconds(90);
  private static final RowSchema BIDS = KafkaBids.SCHEMA;
  private static final long T0 = KafkaBids.T0;
  private static final AtomicBoolean ARMED = new AtomicBoolean();
  private static final AtomicInteger FAILURES = new AtomicInteger();
  private static QuiverSession session;

  @BeforeAll
  static void start() throws Exception {
    Configuration slots = new Configuration();
    slots.set(TaskManagerOptions.NUM_TASK_SLOTS, 4); // the running stream and its batch oracle
    session = QuiverSession.builder().parallelism(2).configuration(slots).build();
  }

  @AfterAll
  static void stop() {
    if (session != null) {
      session.close();
    }
  }

  /** A topic of 2 partitions with bids [0, 1000), as a stream and as a bounded table "_now". */
  private static void topic(String topic) throws Exception {
    KAFKA.createTopic(topic, 2);
    send(topic, 0, 1000);
    KafkaBids.register(session, KAFKA, topic);
  }

  private static Map<String, String> kafka(String topic, Map<String, String> more) {
    return KafkaBids.options(KAFKA, topic, more);
  }

  /** Bids [from, to): auction id % 13 (every 7th NULL), price id / 4, time T0 + id * 10 ms. */
  private static void send(String topic, long from, long to) throws Exception {
    KafkaBids.send(KAFKA, topic, from, to);
  }

  @Test
  void aKeyedAggregateOfAStreamIsAChangelogThatAddsUpToTheBatchAnswer() throws Exception {
    topic("keyed");
    String query =
        "SELECT auction, count(*) AS n, sum(price) AS total, max(price) AS top, avg(id) AS mean"
            + " FROM keyed%s GROUP BY auction";
    checkChangelog(query, "keyed", true);
  }

  @Test
  void aGlobalAggregateAndAHavingFilterAreChangelogsToo() throws Exception {
    topic("global");
    checkChangelog("SELECT count(*) AS n, min(price) AS low FROM global%s", "global", true);
    // HAVING filters each change on its own: a group leaves the result with a -U, never a -D.
    checkChangelog(
        "SELECT auction, n FROM (SELECT auction, count(*) AS n FROM global%s GROUP BY auction)"
            + " WHERE n > 80",
        "global", false);
  }

  @Test
  void anUpdatingResultCannotBeInsertedAndItsSchemaStartsWithTheRowKind() throws Exception {
    topic("sinkless");
    PlannedQuery planned =
        session.prepare("SELECT auction, count(*) FROM sinkless GROUP BY auction");
    assertThat(planned.changelog()).isTrue();
    assertThat(planned.schema().getFields().get(0).getName()).isEqualTo("op");
    assertThat(planned.schema().getFields()).hasSize(3);
    assertThat(session.prepare("SELECT auction FROM sinkless").changelog()).isFalse();
    session.execute(
        "CREATE TABLE counts (auction BIGINT, n BIGINT) WITH ('connector' = 'kafka', 'topic' ="
            + " 'counts', 'properties.bootstrap.servers' = '"
            + KAFKA.bootstrapServers()
            + "', 'format' = 'json')");
    assertThatThrownBy(
            () ->
                session.execute(
                    "INSERT INTO counts SELECT auction, count(*) FROM sinkless GROUP BY auction"))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("INSERT INTO counts: the query's result is updating");
    assertThat(session.openQueries()).isZero();
  }

  /**
   * The final aggregate's groups survive a failure: once the first answer is out (so a checkpoint
   * holds the groups), stage 0 fails on its next batch; Flink restarts the job from the checkpoint
   * and the changelog goes on from the restored groups, adding up to the batch answer over all the
   * records, with no row retracted that it did not add.
   */
  @Test
  void theGroupsSurviveATaskFailure() throws Exception {
    KAFKA.createTopic("restored", 2);
    send("restored", 0, 1000);
    Configuration flink = new Configuration();
    flink.set(TaskManagerOptions.NUM_TASK_SLOTS, 4);
    flink.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    flink.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
    flink.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(10));
    StageOutputHook hook =
        (stage, output) ->
            stage.id() != 0
                ? output
                : output
                    .forward()
                    .transform("fail once", output.getType(), new FailWhenArmed())
                    .setParallelism(output.getParallelism());
    ARMED.set(false);
    FAILURES.set(0);
    try (QuiverSession failing =
        QuiverSession.builder().parallelism(2).configuration(flink).stageOutputHook(hook).build()) {
      failing.registerTable(
          "restored",
          BIDS,
          Optional.of(new EventTime("ts", Duration.ofSeconds(5))),
          kafka("restored", Map.of()));
      // The oracle runs in the shared session, where no task fails.
      session.registerTable(
          "restored_now",
          BIDS,
          Optional.empty(),
          kafka("restored", Map.of("scan.bounded.mode", "latest-offset")));
      String query =
          "SELECT auction, count(*) AS n, sum(price) AS total, max(id) AS last FROM %s"
              + " GROUP BY auction";
      try (SqlResult stream = failing.sql(String.format(query, "restored"))) {
        List<List<Object>> changes = new ArrayList<>();
        Map<List<Object>, Integer> first = batch(String.format(query, "restored_now"));
        StreamingResults.readUntil(
            stream, changes, read -> applied(read).equals(first), "the first answer", DEADLINE);
        ARMED.set(true);
        send("restored", 1000, 1600);
        Map<List<Object>, Integer> all = batch(String.format(query, "restored_now"));
        StreamingResults.readUntil(
            stream, changes, read -> applied(read).equals(all), "the answer after more", DEADLINE);
        assertThat(FAILURES.get()).as("injected failures").isPositive();
      }
    }
  }

  /**
   * Runs {@code query} (with {@code %s} for the table's suffix) over the stream until its changelog
   * adds up to the batch answer, then sends more records and waits again: the groups they touch
   * change with -U / +U pairs (when {@code updates}), each -U retracting a row the changelog added.
   */
  private static void checkChangelog(String query, String topic, boolean updates) throws Exception {
    try (SqlResult stream = session.sql(String.format(query, ""))) {
      assertThat(stream.changelog()).isTrue();
      assertThat(stream.schema().getFields().get(0).getName()).isEqualTo("op");
      List<List<Object>> changes = new ArrayList<>();
      Map<List<Object>, Integer> expected = batch(String.format(query, "_now"));
      StreamingResults.readUntil(
          stream, changes, read -> applied(read).equals(expected), "the batch answer", DEADLINE);
      send(topic, 1000, 1600);
      Map<List<Object>, Integer> more = batch(String.format(query, "_now"));
      assertThat(more).isNotEqualTo(expected);
      StreamingResults.readUntil(
          stream,
          changes,
          read -> applied(read).equals(more),
          "the batch answer after more",
          DEADLINE);
      List<Object> kinds = changes.stream().map(row -> row.get(0)).distinct().toList();
      assertThat(kinds).contains("+I").doesNotContain("-D");
      if (updates) {
        assertThat(kinds).contains("-U", "+U");
      }
    }
  }

  /**
   * Groups beyond the task's memory budget: with 64 KiB per task, the final aggregate moves its
   * groups to the task's RocksDB spill store and reads back those the next records touch. The
   * changelog still adds up to the batch answer, and the groups it brings back are updated, not
   * inserted twice (a second +I of a group would be a second row of it in the applied result).
   */
  @Test
  void groupsBeyondTheTaskBudgetLiveInTheSpillStore() throws Exception {
    try (QuiverSession small = smallBudget("cold")) {
      String query = COLD_QUERY;
      try (SqlResult stream = small.sql(String.format(query, "cold"))) {
        List<List<Object>> changes = new ArrayList<>();
        Map<List<Object>, Integer> first = batch(String.format(query, "cold_now"));
        assertThat(first).hasSize(1500);
        StreamingResults.readUntil(
            stream, changes, read -> applied(read).equals(first), "the first answer", DEADLINE);
        send("cold", 4000, 6000);
        Map<List<Object>, Integer> all = batch(String.format(query, "cold_now"));
        StreamingResults.readUntil(
            stream, changes, read -> applied(read).equals(all), "the answer after more", DEADLINE);
        assertThat(changes.stream().filter(change -> change.get(0).equals("+I")).count())
            .as("one +I per group")
            .isEqualTo(1500);
      }
    }
  }

  /**
   * The cold groups of a GROUP BY whose budget holds few of them go into a savepoint as raw
   * operator state, streamed from the RocksDB store, and come back from it into the restarted
   * query's store: the changelog before the stop and after the start, applied, is the batch answer
   * over all records, and no group is inserted twice.
   */
  @Test
  void coldGroupsComeBackFromASavepoint(@TempDir Path dir) throws Exception {
    try (QuiverSession small = smallBudget("coldsaved")) {
      String query = COLD_QUERY;
      List<List<Object>> changes = new ArrayList<>();
      String savepoint;
      try (SqlResult stream = small.sql(String.format(query, "coldsaved"))) {
        Map<List<Object>, Integer> first = batch(String.format(query, "coldsaved_now"));
        StreamingResults.readUntil(
            stream, changes, read -> applied(read).equals(first), "the first answer", DEADLINE);
        savepoint = stream.stopWithSavepoint(dir);
        changes.addAll(stream.rows());
      }
      assertThat(StreamingSavepointTest.rawStatePartitions(savepoint))
          .as("the groups are in raw operator state, one partition per aggregate task")
          .isGreaterThanOrEqualTo(2);
      send("coldsaved", 4000, 6000);
      Map<List<Object>, Integer> all = batch(String.format(query, "coldsaved_now"));
      try (SqlResult resumed =
          small.sqlFromSavepoint(String.format(query, "coldsaved"), savepoint)) {
        StreamingResults.readUntil(
            resumed, changes, read -> applied(read).equals(all), "the answer after", DEADLINE);
      }
      assertThat(changes.stream().filter(change -> change.get(0).equals("+I")).count())
          .as("one +I per group: a restored group is updated")
          .isEqualTo(1500);
    }
  }

  /** 1,500 groups: far more than a 64 KiB task budget holds. */
  private static final String COLD_QUERY =
      "SELECT id %% 1500 AS k, count(*) AS n, sum(price) AS total, max(id) AS last FROM %s"
          + " GROUP BY id %% 1500";

  /**
   * Topic {@code topic} with bids 0..3999, registered in the shared session (its bounded table
   * {@code <topic>_now} answers in batch) and in the returned session, whose tasks have 64 KiB.
   */
  private static QuiverSession smallBudget(String topic) throws Exception {
    KAFKA.createTopic(topic, 2);
    send(topic, 0, 4000);
    KafkaBids.register(session, KAFKA, topic);
    Configuration flink = new Configuration();
    flink.set(TaskManagerOptions.NUM_TASK_SLOTS, 4);
    QuiverSession small =
        QuiverSession.builder()
            .parallelism(2)
            .configuration(flink)
            .taskMemoryBudget(64 * 1024)
            .build();
    try {
      KafkaBids.register(small, KAFKA, topic);
    } catch (Exception | AssertionError e) {
      small.close();
      throw e;
    }
    return small;
  }

  /** The batch answer as a multiset of rows. */
  private static Map<List<Object>, Integer> batch(String query) {
    Map<List<Object>, Integer> rows = new HashMap<>();
    for (List<Object> row : session.sql(query).rows()) {
      rows.merge(row, 1, Integer::sum);
    }
    return rows;
  }

  /**
   * The changelog {@code changes} applied in order: +I and +U rows added, -U and -D rows removed,
   * each from a row that is there (else the changelog is wrong: a row appears as an extra key).
   */
  private static Map<List<Object>, Integer> applied(List<List<Object>> changes) {
    Map<List<Object>, Integer> rows = new HashMap<>();
    for (List<Object> change : changes) {
      List<Object> row = change.subList(1, change.size());
      switch ((String) change.get(0)) {
        case "+I", "+U" -> rows.merge(row, 1, Integer::sum);
        case "-U", "-D" -> {
          Integer count = rows.get(row);
          if (count == null) {
            rows.put(List.of("retracted but never added", row), 1);
          } else if (count == 1) {
            rows.remove(row);
          } else {
            rows.put(row, count - 1);
          }
        }
        default -> throw new AssertionError("not a row kind: " + change.get(0));
      }
    }
    return rows;
  }

  /** Passes batches on; in its first attempt, fails on the first data batch once armed. */
  private static final class FailWhenArmed extends BatchOperator
      implements OneInputStreamOperator<BatchRecord, BatchRecord> {
    private static final long serialVersionUID = 1L;

    @Override
    public void processElement(StreamRecord<BatchRecord> element) {
      BatchRecord record = element.getValue();
      if (record.isData()
          && ARMED.get()
          && getRuntimeContext().getTaskInfo().getAttemptNumber() == 0) {
        record.close();
        FAILURES.incrementAndGet();
        throw new IllegalStateException("injected failure in " + taskName());
      }
      emit(record);
    }
  }
}
