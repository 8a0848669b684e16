package dev.quiver.examples.cluster;

import static dev.quiver.examples.cluster.TpchCluster.JOB_RUN;
import static dev.quiver.examples.cluster.TpchCluster.PARALLELISM;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quiver.flink.session.QuiverSession;
import dev.quiver.flink.session.SqlResult;
import dev.quiver.flink.session.StreamingResults;
import dev.quiver.flink.testing.KafkaBroker;
import dev.quiver.plan.node.Aggregate;
import dev.quiver.plan.node.InputMode;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.stage.Stage;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A streaming window aggregate over a Kafka topic on the real multi-JVM cluster ({@link
 * TpchCluster}), restarted twice while it runs: once from a checkpoint, when the TaskManager that
 * runs a task of its final window aggregate is killed (SIGKILL) after a checkpoint holding open
 * windows, and once from a savepoint, stopped with one and started again from it. The rows the
 * reader gets are every window exactly once, equal to the batch answer over the same records.
 *
 * <pre>
 *   stage 0: kafka (2 partitions) ─► filter ─► TUMBLE 1 s ─► window aggregate PARTIAL ─SHUFFLE─►
 *   stage 1: window aggregate FINAL ─► result (checkpointed collect, every 500 ms)
 *
 *   events 0..1599      ─► windows ending by T0 + 10 s  ─► a checkpoint with windows 11..16 open
 *   SIGKILL the TaskManager of stage 1's task 0, start another; Flink restarts from the checkpoint
 *   events 1600..3199   ─► windows ending by T0 + 26 s  ─► stop with a savepoint (27..32 open)
 *   events 3200..4799 and one an hour later per partition (closes every window), while stopped
 *   start from the savepoint ─► the rest of the windows ─► stop with a savepoint: nothing more
 * </pre>
 *
 * The topic's broker runs in the test JVM ({@link KafkaBroker}); the cluster gets Flink's Kafka
 * connector in a jar shipped with the job, as a Flink distribution has none.
 */
@ExtendWith(TpchCluster.Shared.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class StreamingKillsIT {
  @RegisterExtension static final KafkaBroker KAFKA = new KafkaBroker();

  private static final String TOPIC = "bids";
  private static final int PARTITIONS = 2;
  private static final long T0 = 1_767_225_600_000L; // 2026-01-01 00:00:00 UTC
  private static final int AUCTIONS = 10;
  private static final Duration CHECKPOINTS = Duration.ofMillis(500);
  private static final String QUERY =
      "SELECT window_start, window_end, auction, count(*) AS bids, sum(price) AS total"
          + " FROM TABLE(TUMBLE(TABLE %s, DESCRIPTOR(ts), INTERVAL '1' SECOND))"
          + " WHERE auction IS NOT NULL"
          + " GROUP BY window_start, window_end, auction";

  private static TpchCluster tpch;

  @BeforeAll
  static void start(TpchCluster shared) throws Exception {
    tpch = shared;
    KAFKA.createTopic(TOPIC, PARTITIONS);
  }

  /** Every case starts on a full cluster: a TaskManager killed before has been replaced. */
  @BeforeEach
  void fullCluster() throws Exception {
    tpch.restore();
  }

  @Test
  void aKilledTaskManagerAndASavepointStopLoseAndRepeatNoWindow() throws Exception {
    Path savepoints = tpch.dir.resolve("streaming-savepoints");
    List<List<Object>> rows = new ArrayList<>();
    try (QuiverSession session = session()) {
      String query = String.format(QUERY, "bids");
      Stage finalAggregate = finalAggregate(session, query);
      send(0, 1600); // the watermark reaches T0 + 10.99 s
      String savepoint;
      try (SqlResult stream = session.sql(query)) {
        String job = stream.jobId().toHexString();
        readUntil(stream, rows, windowsEndingBy(10));
        awaitCheckpointAfter(job, completedCheckpoints(job)); // windows 11..16 open in it
        Killed killed = killTaskManagerOf(job, finalAggregate);
        send(1600, 3200); // while the job recovers: the watermark reaches T0 + 26.99 s
        readUntil(stream, rows, windowsEndingBy(26));
        assertRecovered(killed);
        assertThat(rows)
            .as("the windows ending by T0 + 26 s, after the kill")
            .containsExactlyInAnyOrderElementsOf(expected(session, 26));
        savepoint = stream.stopWithSavepoint(savepoints);
        rows.addAll(stream.rows()); // what the job emitted before the savepoint; then it ends
      }
      send(3200, 4800);
      closeAllWindows();
      try (SqlResult resumed = session.sqlFromSavepoint(query, savepoint)) {
        readUntil(resumed, rows, windowsEndingBy(48));
        resumed.stopWithSavepoint(savepoints); // the stream ends: nothing more comes
        rows.addAll(resumed.rows());
      }
      List<List<Object>> expected = session.sql(String.format(QUERY, "bids_now")).rows();
      assertThat(expected).hasSize(windowsEndingBy(48));
      assertThat(rows).containsExactlyInAnyOrderElementsOf(expected);
    }
  }

  /** The rows of the windows ending by T0 + {@code seconds} s: one per window and auction. */
  private static int windowsEndingBy(int seconds) {
    return seconds * AUCTIONS;
  }

  /** The batch answer over what the topic holds now, for the windows ending by T0 + seconds. */
  private static List<List<Object>> expected(QuiverSession session, int seconds) {
    LocalDateTime last = LocalDateTime.of(2026, 1, 1, 0, 0).plusSeconds(seconds);
    List<List<Object>> expected =
        session.sql(String.format(QUERY, "bids_now")).rows().stream()
            .filter(row -> !((LocalDateTime) row.get(1)).isAfter(last))
            .toList();
    assertThat(expected).hasSize(windowsEndingBy(seconds));
    return expected;
  }

  /** A session on the cluster, checkpointing every 500 ms, with restarts to spare. */
  private static QuiverSession session() {
    Configuration flink = new Configuration();
    flink.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, CHECKPOINTS);
    flink.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    flink.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 30);
    flink.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofSeconds(1));
    QuiverSession session =
        QuiverSession.builder()
            .parallelism(PARALLELISM)
            .remote(
                "127.0.0.1",
                tpch.cluster.restPort(),
                tpch.jobJar.toString()) // with Flink's Kafka connector, which the cluster lacks
            .configuration(flink)
            .build();
    String columns = "id BIGINT, auction BIGINT, price DOUBLE, ts TIMESTAMP(3)";
    // No partition counts as idle while the test runs: on 2 loaded cores a source task's first
    // fetch can take longer than the default second, and the watermark of the other partition alone
    // would then close windows before this one's rows arrive (late rows are dropped; the batch
    // answer keeps them).
    String with =
        "'connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s',"
                .formatted(TOPIC, KAFKA.bootstrapServers())
            + " 'format' = 'json', 'scan.watermark.idle-timeout' = '10 min'";
    session.execute(
        "CREATE TABLE bids (%s, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH (%s)"
            .formatted(columns, with));
    session.execute(
        "CREATE TABLE bids_now (%s) WITH (%s, 'scan.bounded.mode' = 'latest-offset')"
            .formatted(columns, with));
    return session;
  }

  /** The stage of the final window aggregate: the aggregate that reads a shuffle. */
  private static Stage finalAggregate(QuiverSession session, String query) {
    return session.stageGraph(query).stages().stream()
        .filter(stage -> stage.inputs().stream().anyMatch(i -> i.mode() == InputMode.SHUFFLE))
        .filter(stage -> has(stage.plan(), Aggregate.class))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no final aggregate in " + session.explain(query)));
  }

  private static boolean has(PlanNode node, Class<? extends PlanNode> kind) {
    return kind.isInstance(node) || node.children().stream().anyMatch(c -> has(c, kind));
  }

  /** The TaskManager killed under task 0 of {@code stage}, and the job. */
  private record Killed(String job, Stage stage, String taskManager) {}

  /**
   * Kills (SIGKILL) the TaskManager that runs task 0 of {@code stage}, as the JobManager reports
   * it, and starts another in its place.
   */
  private static Killed killTaskManagerOf(String job, Stage stage) throws Exception {
    JsonNode task = tpch.cluster.rest().subtask(job, vertex(stage), 0);
    assertThat(task.path("status").asText())
        .as("task 0 of stage %d", stage.id())
        .isEqualTo("RUNNING");
    String taskManager = task.path("taskmanager-id").asText();
    tpch.cluster.killTaskManager(tpch.cluster.taskManagerPid(taskManager));
    tpch.cluster.startTaskManager(); // the replacement starts while the job recovers
    return new Killed(job, stage, taskManager);
  }

  /** What names {@code stage}'s Flink vertex. */
  private static String vertex(Stage stage) {
    return "stage " + stage.id() + ": ";
  }

  /**
   * The job restarted the killed task elsewhere, and recorded the loss of its TaskManager among the
   * failures it recovered from.
   */
  private static void assertRecovered(Killed killed) throws Exception {
    FlinkRest rest = tpch.cluster.rest();
    JsonNode task = rest.subtask(killed.job(), vertex(killed.stage()), 0);
    assertThat(task.path("status").asText()).isEqualTo("RUNNING");
    assertThat(task.path("attempt").asInt()).as("the killed task's attempt").isPositive();
    assertThat(task.path("taskmanager-id").asText()).isNotEqualTo(killed.taskManager());
    JsonNode history = rest.get("/jobs/" + killed.job() + "/exceptions").path("exceptionHistory");
    assertThat(history.path("entries"))
        .as("the failures the job recovered from: %s", history.toPrettyString())
        .anyMatch(entry -> entry.toString().contains(killed.taskManager()));
  }

  private static int completedCheckpoints(String job) throws Exception {
    return tpch.cluster
        .rest()
        .get("/jobs/" + job + "/checkpoints")
        .path("counts")
        .path("completed")
        .asInt();
  }

  /** Waits until the job has completed a checkpoint after the {@code completed} ones. */
  private static void awaitCheckpointAfter(String job, int completed) throws Exception {
    long deadline = System.nanoTime() + JOB_RUN.toNanos();
    while (completedCheckpoints(job) <= completed) {
      assertThat(System.nanoTime()).as("a checkpoint completed").isLessThan(deadline);
      Thread.sleep(CHECKPOINTS.toMillis() / 5);
    }
  }

  private static void readUntil(SqlResult result, List<List<Object>> rows, int count) {
    StreamingResults.readUntil(result, rows, count, JOB_RUN);
  }

  /** Bids [from, to): auction id % 10, price id / 4, event time T0 + id * 10 ms; every 7th NULL. */
  private static void send(long from, long to) throws Exception {
    for (int partition = 0; partition < PARTITIONS; partition++) {
      List<String> values = new ArrayList<>();
      for (long id = from + partition; id < to; id += PARTITIONS) {
        String auction = id % 7 == 0 ? "null" : Long.toString(id % AUCTIONS);
        values.add(
            String.format(
                "{\"id\": %d, \"auction\": %s, \"price\": %s, \"ts\": %d}",
                id, auction, id / 4.0, T0 + id * 10));
      }
      KAFKA.send(TOPIC, partition, values);
    }
  }

  /**
   * A bid an hour later on every partition, without an auction (so in no window): the watermark
   * passes every window of the bids before it.
   */
  private static void closeAllWindows() throws Exception {
    for (int partition = 0; partition < PARTITIONS; partition++) {
      String late =
          String.format(
              "{\"id\": %d, \"auction\": null, \"price\": 0, \"ts\": %d}",
              1_000_000 + partition, T0 + 3_600_000);
      KAFKA.send(TOPIC, partition, List.of(late));
    }
  }
}
