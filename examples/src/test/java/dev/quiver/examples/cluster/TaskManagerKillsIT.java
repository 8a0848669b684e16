package dev.quiver.examples.cluster;

import static dev.quiver.examples.cluster.TpchCluster.JOB_RUN;
import static dev.quiver.examples.cluster.TpchCluster.PARALLELISM;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quiver.cli.tpch.ResultComparison;
import dev.quiver.cli.tpch.TpchQueries;
import dev.quiver.error.QuiverException;
import dev.quiver.examples.job.JobJarHooks;
import dev.quiver.flink.session.QuiverSession;
import dev.quiver.flink.session.SessionBuilder;
import dev.quiver.flink.session.SqlResult;
import dev.quiver.plan.node.Aggregate;
import dev.quiver.plan.node.HashJoin;
import dev.quiver.plan.node.InputMode;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.Sort;
import dev.quiver.stage.OutputDistribution;
import dev.quiver.stage.Stage;
import dev.quiver.stage.StageGraph;
import dev.quiver.testing.FaultMatrix;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.JobListener;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The SIGKILL matrix: a TaskManager killed while it provably runs a task of each kind, on the real
 * multi-JVM cluster ({@link TpchCluster}). A {@link KillLatch} chained into one stage holds task 0
 * of that stage at a chosen batch; the test kills exactly the process the latch reports, starts a
 * replacement TaskManager (so that every case gets a full cluster), and only then releases the
 * latch. With restarts left (the cluster's fixed-delay strategy) each case must give DuckDB's exact
 * answer, every row once, with the failure in the job's exception history naming the killed
 * TaskManager, and no staged file or spill file left on the TaskManagers that live on; with no
 * restarts left ({@code restart-strategy.type: none} on the job) the user gets one line naming the
 * stage and task, and no output. Each case is a row of the fault matrix ({@link FaultMatrix},
 * {@code target/fault-matrix.md}).
 *
 * <pre>
 *   test ── submit ──► cluster: stage S, task 0 reaches batch B ─► latch/attempt-0 (pid, TM)
 *   test ◄─ reads attempt-0 ─┘                              then waits for latch/release
 *   test ── SIGKILL pid, start a new TaskManager, write latch/release
 *   cluster: the JobManager notices the loss, restarts the lost tasks (attempt 1 passes the latch)
 * </pre>
 */
@ExtendWith({TpchCluster.Shared.class, FaultMatrix.class})
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class TaskManagerKillsIT {
  private static final String RESTARTS_LEFT = "TaskManager killed (SIGKILL), restarts left";
  private static final String NO_RESTARTS = "TaskManager killed (SIGKILL), no restarts left";

  /** Sorts, aggregations and joins spill beyond this: 1 MB, against tasks of ~30,000 rows. */
  private static final long SPILLING_BUDGET = 1 << 20;

  /** Both tasks of the final stage write a part: two scan tasks, no exchange, ~4 batches each. */
  private static final String SINK_QUERY =
      "select l_orderkey, l_linenumber, l_quantity, l_comment from lineitem where l_quantity >= 10";

  /** 60,175 rows in order: a merge of two sorting tasks into one result task. */
  private static final String SORTED_LINEITEM =
      "select * from lineitem order by l_orderkey, l_linenumber";

  private static TpchCluster tpch;

  /** A kind of task, the query that has one, and where its task is held. */
  enum Kill {
    SCAN(
        "scan (a stage of scans only, at its first batch)",
        TpchQueries.text(10),
        stage -> stage.inputs().isEmpty() && hashOutput(stage),
        1),
    SHUFFLE_WRITE(
        "shuffle write (a stage between two hash shuffles, hash-partitioning its output, at its"
            + " second batch)",
        "select n, count(*) as orders from (select l_orderkey, count(*) as n from lineitem"
            + " group by l_orderkey) group by n",
        stage -> reads(stage, InputMode.SHUFFLE) && hashOutput(stage),
        2),
    SHUFFLE_READ(
        "shuffle read (a stage reading a SHUFFLE input, output not partitioned)",
        TpchQueries.text(10),
        stage -> reads(stage, InputMode.SHUFFLE) && !hashOutput(stage),
        1),
    BROADCAST_BUILD(
        "broadcast build (the stage reading a BROADCAST input: an aggregate joined to a scan)",
        "select o.o_orderkey, s.m from orders o left join (select o_orderstatus as st,"
            + " min(o_orderkey) as m from orders group by o_orderstatus) s"
            + " on o.o_orderstatus = s.st",
        stage -> reads(stage, InputMode.BROADCAST),
        1),
    JOIN_PROBE(
        "hash-join probe (a join streaming its probe side, at its second output batch)",
        "select l_orderkey, l_linenumber, l_quantity, o_orderdate, o_orderpriority from lineitem"
            + " join orders on l_orderkey = o_orderkey",
        stage -> has(stage, HashJoin.class),
        2),
    SPILLING_SORT(
        "spilling sort (1 MB budget, at its first sorted batch)",
        "select l_orderkey, l_linenumber, l_comment from lineitem"
            + " order by l_comment, l_orderkey, l_linenumber",
        stage -> has(stage, Sort.class) && stage.tasks() == PARALLELISM,
        1),
    SPILLING_AGGREGATE(
        "spilling aggregate (1 MB budget, the final aggregate of 60,175 groups)",
        "select l_orderkey, l_linenumber, l_partkey, count(*) as n, sum(l_quantity) as q"
            + " from lineitem group by l_orderkey, l_linenumber, l_partkey",
        stage -> has(stage, Aggregate.class) && reads(stage, InputMode.SHUFFLE),
        1),
    SPILLING_JOIN(
        "spilling hash join (1 MB budget, partitioned, at its first output batch)",
        "select a.l_orderkey, a.l_linenumber, a.l_comment, b.l_comment as other from lineitem a"
            + " join lineitem b on a.l_orderkey = b.l_orderkey and a.l_linenumber ="
            + " b.l_linenumber",
        stage -> has(stage, HashJoin.class) && reads(stage, InputMode.SHUFFLE),
        1),
    RESULT_STREAMING(
        "result streaming (the one result task, merge and collect sink, at its third batch)",
        SORTED_LINEITEM,
        stage -> stage.tasks() == 1,
        3);

    final String where;
    final String sql;
    final Predicate<Stage> stage;
    final int batch;

    Kill(String where, String sql, Predicate<Stage> stage, int batch) {
      this.where = where;
      this.sql = sql;
      this.stage = stage;
      this.batch = batch;
    }

    boolean spills() {
      return name().startsWith("SPILLING_");
    }

    boolean ordered() {
      return sql.toLowerCase(Locale.ROOT).contains("order by");
    }

    /** The held stage of {@code graph}: the first that fits. */
    Stage held(StageGraph graph) {
      return graph.stages().stream()
          .filter(stage)
          .findFirst()
          .orElseThrow(() -> new AssertionError(this + ": no stage fits:\n" + graph.explain()));
    }
  }

  @BeforeAll
  static void start(TpchCluster shared) {
    tpch = shared;
  }

  /** Every case starts on a full cluster: the TaskManager killed before has been replaced. */
  @BeforeEach
  void fullCluster() throws Exception {
    tpch.restore();
  }

  @ParameterizedTest
  @EnumSource
  void aTaskManagerKilledUnderATaskChangesNoAnswer(Kill kill) throws Exception {
    Path latch = latchDir(kill.name());
    int[] held = {-1};
    try (QuiverSession session = session(latch, held, kill, null)) {
      Stage stage = kill.held(session.stageGraph(kill.sql));
      held[0] = stage.id();
      FaultMatrix.fault(RESTARTS_LEFT, where(kill.where, stage, kill.sql));
      List<List<Object>> rows;
      Killed killed;
      try (SqlResult result = session.sql(kill.sql)) {
        killed = killHeld(result.jobId().toHexString(), latch, kill.spills());
        rows = result.rows();
      }
      List<List<Object>> expected = tpch.duckDb(kill.sql);
      assertThat(difference(expected, rows, kill.ordered())).as(kill.sql).isNull();
      assertRecovered(killed);
      assertNothingLeftOnLiveTaskManagers();
      FaultMatrix.answer(rows.size() + " rows" + (kill.spills() ? killed.spillNote() : ""));
    }
  }

  /**
   * Cancelled while the job recovers: a TaskManager killed under the spilling sort, and the held
   * task's restarted attempt, on another TaskManager with its own spill files, held at the same
   * latch; the query is cancelled there. The job ends CANCELED and the TaskManagers that lived on
   * keep no spill file and no Arrow memory.
   */
  @Test
  void cancellingWhileTheJobRecoversFromAKilledTaskManagerLeavesNothing() throws Exception {
    Kill kill = Kill.SPILLING_SORT;
    Path latch = latchDir("cancel-during-recovery");
    KillLatch.holdRestarts(latch);
    int[] held = {-1};
    try (QuiverSession session = session(latch, held, kill, null)) {
      Stage stage = kill.held(session.stageGraph(kill.sql));
      held[0] = stage.id();
      FaultMatrix.fault(
          "cancel while the job recovers from a killed TaskManager",
          where(kill.where, stage, kill.sql) + ", the restarted attempt held");
      SqlResult result = session.sql(kill.sql);
      String job = result.jobId().toHexString();
      JsonNode ended;
      try (result) {
        Killed killed = killHeld(job, latch, true);
        Properties restarted = KillLatch.await(latch, 1, JOB_RUN);
        assertThat(restarted.getProperty(KillLatch.TASK_MANAGER))
            .as("the restarted attempt runs elsewhere")
            .isNotEqualTo(killed.taskManager());
        long restartedPid = Long.parseLong(restarted.getProperty(KillLatch.PID));
        assertThat(spillFiles(tpch.cluster.temporaryDirectory(restartedPid)))
            .as("spill files of the restarted attempt at the cancellation")
            .isNotEmpty();
        result.cancel();
        ended = tpch.cluster.rest().awaitJob(job, JOB_RUN);
      } catch (QuiverException e) {
        ended = tpch.cluster.rest().awaitJob(job, JOB_RUN); // close reports the cancellation
      } finally {
        KillLatch.releaseRestarts(latch);
      }
      assertThat(ended.path("state").asText()).isEqualTo("CANCELED");
      assertNothingLeftOnLiveTaskManagers();
      FaultMatrix.canceled(
          "CANCELED; no spill file or Arrow memory left on the TaskManagers that lived on");
    }
  }

  /**
   * The file sink, killed while the task that writes a part has written two batches of it (the
   * other task's part may be staged already): the output is published once, exactly the query's
   * rows, with no trace of the lost attempt's unfinished part.
   */
  @Test
  void aTaskManagerKilledUnderAFileSinkWriterChangesNoOutput() throws Exception {
    fileSinkCase(SINK_QUERY, "file sink (the writer of part 0, after two batches)", 3, false);
  }

  /**
   * {@code quiver-job.jar}'s Q10 whose stage reading a shuffle is held (the deterministic form of
   * the kill test of issue 19): the job recovers and writes DuckDB's answer.
   */
  @Test
  void aTaskManagerKilledUnderQ10sShuffleReaderChangesNoOutput() throws Exception {
    fileSinkCase(
        TpchQueries.text(10), "file sink job, Q10 held in its first shuffle reader", 1, false);
  }

  /** No restarts left: the job fails with one line naming the stage and task, nothing written. */
  @Test
  void withNoRestartsAFileSinkJobFailsWithOneLineAndWritesNothing() throws Exception {
    fileSinkCase(SINK_QUERY, "file sink (the writer of part 0, after two batches)", 3, true);
  }

  /** No restarts left: a query's reader gets one line naming the stage and task. */
  @Test
  void withNoRestartsAQueryFailsWithOneLineNamingTheStageAndTask() throws Exception {
    Kill kill = Kill.SHUFFLE_READ;
    Path latch = latchDir("no-restarts-collect");
    int[] held = {-1};
    Configuration noRestarts = new Configuration();
    noRestarts.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
    try (QuiverSession session = session(latch, held, kill, noRestarts)) {
      Stage stage = kill.held(session.stageGraph(kill.sql));
      held[0] = stage.id();
      FaultMatrix.fault(
          NO_RESTARTS, "query result (collect): " + where(kill.where, stage, kill.sql));
      SqlResult result = session.sql(kill.sql);
      Killed killed = killHeld(result.jobId().toHexString(), latch, false);
      String line =
          oneLine(
              () -> result.rows(),
              "[TASK_FAILED] ",
              "TaskManager " + killed.taskManager() + " was lost",
              "(stage " + stage.id() + ", task ",
              " of " + stage.tasks() + ")");
      assertThat(session.openQueries()).isZero();
      assertThat(tpch.cluster.rest().get("/jobs/" + killed.job()).path("state").asText())
          .isEqualTo("FAILED");
      assertNothingLeftOnLiveTaskManagers();
      FaultMatrix.error(line);
    }
  }

  private void fileSinkCase(String sql, String where, int batch, boolean noRestarts)
      throws Exception {
    String name = sql.equals(SINK_QUERY) ? "sink" : "sink-q10";
    Path out =
        Files.createDirectories(tpch.dir.resolve("kills-out"))
            .resolve(name + "-" + batch + (noRestarts ? "-none" : ""));
    String[] args = {
      "--sql", sql,
      "--catalog", tpch.data.toString(),
      "--output", out.toString(),
      "--format", "csv",
      "--parallelism", String.valueOf(PARALLELISM)
    };
    StageGraph graph = JobJarHooks.plan(args);
    Stage stage =
        sql.equals(SINK_QUERY)
            ? graph.finalStage() // its tasks write the parts
            : graph.stages().stream() // Q10: the first stage after a hash shuffle
                .filter(s -> reads(s, InputMode.SHUFFLE))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no shuffle reader:\n" + graph.explain()));
    FaultMatrix.fault(
        noRestarts ? NO_RESTARTS : RESTARTS_LEFT,
        where + ", stage " + stage.id() + " of " + query(sql));
    Path latch = latchDir(out.getFileName().toString());
    Configuration flink = JobJarHooks.flinkConfiguration(PARALLELISM);
    if (noRestarts) {
      flink.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
    }
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.createRemoteEnvironment(
            "127.0.0.1",
            tpch.cluster.restPort(),
            flink,
            tpch.jobJar.toString(),
            tpch.latchJar.toString());
    AtomicReference<JobClient> submitted = new AtomicReference<>();
    env.registerJobListener(
        new JobListener() {
          @Override
          public void onJobSubmitted(JobClient client, Throwable failure) {
            submitted.set(client);
          }

          @Override
          public void onJobExecuted(JobExecutionResult result, Throwable failure) {}
        });
    JobJarHooks job = JobJarHooks.build(env, KillLatch.inStage(stage.id(), 0, batch, latch), args);
    CompletableFuture<JobExecutionResult> run =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return job.execute();
              } catch (Exception e) {
                throw new CompletionException(e);
              }
            });
    Properties first = KillLatch.await(latch, 0, JOB_RUN);
    long deadline = System.nanoTime() + JOB_RUN.toNanos();
    while (submitted.get() == null) { // the listener hears of the job after it was submitted
      assertThat(System.nanoTime()).as("the job was submitted").isLessThan(deadline);
      Thread.sleep(20);
    }
    String jobId = submitted.get().getJobID().toHexString();
    Killed killed = kill(jobId, latch, first, false);
    if (noRestarts) {
      String line =
          oneLine(
              () -> {
                try {
                  run.get(JOB_RUN.toSeconds(), TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                  throw e.getCause();
                }
              },
              "[TASK_FAILED] ",
              "TaskManager " + killed.taskManager() + " was lost",
              "(stage " + stage.id() + ", task ",
              " of " + stage.tasks() + ")");
      assertThat(out).as("nothing published").doesNotExist();
      assertThat(staged(out)).as("nothing staged").isEmpty();
      assertNothingLeftOnLiveTaskManagers();
      FaultMatrix.error(line);
      return;
    }
    run.get(JOB_RUN.toSeconds(), TimeUnit.SECONDS);
    assertRecovered(killed);
    List<String> parts = new ArrayList<>();
    for (int task = 0; task < graph.finalStage().tasks(); task++) {
      parts.add(String.format("part-%05d.csv", task));
    }
    assertThat(TpchCluster.list(out)).as("the published parts, nothing else").isEqualTo(parts);
    assertThat(staged(out)).as("nothing left staged").isEmpty();
    List<List<Object>> expected = tpch.duckDb(sql);
    List<List<Object>> actual = CsvAnswers.read(tpch.duckdb, out.resolve("*.csv"), expected);
    assertThat(difference(expected, actual, parts.size() == 1)).as(sql).isNull();
    assertNothingLeftOnLiveTaskManagers();
    FaultMatrix.answer(actual.size() + " rows in " + parts.size() + " parts, each row once");
  }

  /** What the test learned when it killed the TaskManager that held the task. */
  private record Killed(String job, Properties first, int spillFiles) {
    String taskManager() {
      return first.getProperty(KillLatch.TASK_MANAGER);
    }

    String spillNote() {
      return ", " + spillFiles + " spill files on the killed TaskManager";
    }
  }

  /** Waits until the held task has reached the latch, then kills its TaskManager. */
  private Killed killHeld(String job, Path latch, boolean spills) throws Exception {
    return kill(job, latch, KillLatch.await(latch, 0, JOB_RUN), spills);
  }

  private Killed kill(String job, Path latch, Properties first, boolean spills) throws Exception {
    // The JobManager must agree where the task runs (its REST view lags by a refresh interval).
    tpch.awaitSubtask(job, "RUNNING", 0, first.getProperty(KillLatch.TASK_MANAGER));
    long pid = Long.parseLong(first.getProperty(KillLatch.PID));
    int spillFiles = spillFiles(tpch.cluster.temporaryDirectory(pid)).size();
    if (spills) {
      assertThat(spillFiles).as("spill files of the held TaskManager at the kill").isPositive();
    }
    tpch.cluster.killTaskManager(pid);
    tpch.cluster.startTaskManager(); // the replacement starts while the job recovers
    KillLatch.release(latch);
    return new Killed(job, first, spillFiles);
  }

  /**
   * The job recorded the failure (the held attempt lost with its TaskManager, or a task that read
   * from that TaskManager and failed first: its transport error names it) and finished the held
   * task in a later attempt, elsewhere, past the latch.
   */
  private void assertRecovered(Killed killed) throws Exception {
    JsonNode last = tpch.awaitSubtask(killed.job(), "FINISHED", -1, null);
    int attempt = last.path("attempt").asInt();
    assertThat(attempt).as("the held task's last attempt").isPositive();
    assertThat(last.path("taskmanager-id").asText()).isNotEqualTo(killed.taskManager());
    JsonNode history =
        tpch.cluster.rest().get("/jobs/" + killed.job() + "/exceptions").path("exceptionHistory");
    assertThat(history.path("entries"))
        .as("the failures the job recovered from: %s", history.toPrettyString())
        .anyMatch(entry -> entry.toString().contains(killed.taskManager()));
  }

  /** A remote session on the cluster whose stage {@code held[0]} a latch in {@code latch} holds. */
  private static QuiverSession session(
      Path latch, int[] held, Kill kill, Configuration configuration) {
    SessionBuilder builder =
        QuiverSession.builder()
            .parallelism(PARALLELISM)
            .remote(
                "127.0.0.1",
                tpch.cluster.restPort(),
                tpch.jobJar.toString(),
                tpch.latchJar.toString())
            .stageOutputHook(
                (stage, output) ->
                    KillLatch.inStage(held[0], 0, kill.batch, latch).apply(stage, output));
    if (kill.spills()) {
      builder.taskMemoryBudget(SPILLING_BUDGET);
    }
    if (kill == Kill.SPILLING_JOIN) {
      builder.broadcastThreshold(0); // lineitem is small enough to be broadcast otherwise
    }
    if (configuration != null) {
      builder.configuration(configuration);
    }
    QuiverSession session = builder.build();
    session.registerDirectory(tpch.data);
    return session;
  }

  private static Path latchDir(String name) throws IOException {
    return Files.createDirectories(tpch.dir.resolve("kills").resolve(name.toLowerCase()));
  }

  private static String where(String where, Stage stage, String sql) {
    return where + ", stage " + stage.id() + " of " + query(sql);
  }

  private static String query(String sql) {
    for (int q : new int[] {3, 10}) {
      if (sql.equals(TpchQueries.text(q))) {
        return "Q" + q;
      }
    }
    return "`" + sql + "`";
  }

  /** The one error the user gets from {@code call}: one line with every fragment. */
  private static String oneLine(
      org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String... fragments) {
    QuiverException[] caught = new QuiverException[1];
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(QuiverException.class, e -> caught[0] = e)
        .hasMessageContainingAll(fragments);
    assertThat(caught[0].getMessage()).as("one line").doesNotContain("\n");
    return caught[0].getMessage();
  }

  private static String difference(
      List<List<Object>> expected, List<List<Object>> actual, boolean ordered) {
    List<List<Object>> e = ResultComparison.normalize(expected);
    List<List<Object>> a = ResultComparison.normalize(actual);
    if (!ordered) {
      e.sort(Comparator.comparing(Object::toString));
      a.sort(Comparator.comparing(Object::toString));
    }
    return ResultComparison.difference(e, a);
  }

  /** Staging directories a {@code FileSink} left beside {@code out}. */
  private static List<String> staged(Path out) {
    return TpchCluster.list(out.getParent()).stream()
        .filter(name -> name.startsWith("." + out.getFileName() + ".staging-"))
        .toList();
  }

  /**
   * What the tasks that lived on left: no spill file on a TaskManager still running, no task that
   * reports leaked Arrow memory (a task that ended abnormally logs it).
   */
  private static void assertNothingLeftOnLiveTaskManagers() {
    for (Path tmp : tpch.cluster.liveTemporaryDirectories()) {
      assertThat(spillFiles(tmp)).as("spill files left in %s", tmp).isEmpty();
    }
    assertThat(tpch.cluster.logLinesContaining("leaked Arrow memory")).isEmpty();
  }

  /** Quiver's spill files under {@code tmp} (in {@code flink-io-…/quiver-spill-…/}). */
  private static List<Path> spillFiles(Path tmp) {
    while (true) {
      try (Stream<Path> files = Files.walk(tmp)) {
        return files
            .filter(p -> p.getFileName().toString().endsWith(".arrows"))
            .filter(p -> p.getParent().getFileName().toString().startsWith("quiver-spill-"))
            .toList();
      } catch (UncheckedIOException | java.nio.file.NoSuchFileException e) {
        // a file vanished while walking: walk again
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  private static boolean hashOutput(Stage stage) {
    return stage.distribution().kind() == OutputDistribution.Kind.HASH;
  }

  private static boolean reads(Stage stage, InputMode mode) {
    return stage.inputs().stream().anyMatch(input -> input.mode() == mode);
  }

  private static boolean has(Stage stage, Class<? extends PlanNode> kind) {
    return has(stage.plan(), kind);
  }

  private static boolean has(PlanNode node, Class<? extends PlanNode> kind) {
    return kind.isInstance(node) || node.children().stream().anyMatch(c -> has(c, kind));
  }
}
