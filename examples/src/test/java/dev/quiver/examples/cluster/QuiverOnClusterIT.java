package dev.quiver.examples.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quiver.cli.QuiverCommand;
import dev.quiver.cli.QuiverJvm;
import dev.quiver.cli.tpch.ResultComparison;
import dev.quiver.cli.tpch.TpchGenerator;
import dev.quiver.cli.tpch.TpchQueries;
import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.catalog.DirectoryTables;
import dev.quiver.flink.catalog.FileScanSources;
import dev.quiver.flink.compiler.StageGraphCompiler;
import dev.quiver.flink.file.FileSink;
import dev.quiver.flink.session.QuiverSession;
import dev.quiver.formats.CsvOptions;
import dev.quiver.formats.FileFormat;
import dev.quiver.plan.node.InputMode;
import dev.quiver.server.Authentication;
import dev.quiver.server.QuiverFlightServer;
import dev.quiver.sql.Catalog;
import dev.quiver.sql.PlannerOptions;
import dev.quiver.sql.SqlPlanner;
import dev.quiver.stage.Stage;
import dev.quiver.stage.StageGraph;
import dev.quiver.stage.StagePlanner;
import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.BatchExecutionOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;
import org.junit.jupiter.api.io.TempDir;

/**
 * Quiver on a real Flink cluster: a standalone session cluster of four JVMs on the loopback
 * interface (a JobManager and three TaskManagers of two slots, {@link StandaloneCluster}) whose
 * class path holds Flink and nothing of Quiver, so every Quiver class a task runs comes from the
 * jar shipped with its job. Over TPC-H SF 0.01 it runs
 *
 * <ul>
 *   <li>Q10 (broadcast joins, a hash shuffle, an ordered merge) as {@code quiver-job.jar} submitted
 *       through the REST API the way a user without Flink's client would: the job writes its result
 *       as CSV itself;
 *   <li>Q5 with Flink's own {@code flink run}, writing Parquet;
 *   <li>Q3 with the command line, {@code quiver sql --cluster}, shipping {@code quiver-job.jar};
 *   <li>last, Q10 as a job built with the library API while the TaskManager that runs one of its
 *       tasks, held there by a test operator ({@link KillLatch}), is killed (SIGKILL): the
 *       cluster's restart strategy (fixed delay) runs the lost tasks on the others, and the answer
 *       is still exact;
 * </ul>
 *
 * and compares every result with DuckDB's answer. Needs {@code target/quiver-job.jar}, so it runs
 * in Maven's integration-test phase ({@code mvn verify}).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class QuiverOnClusterIT {
  private static final int PARALLELISM = 2;
  private static final Duration CLUSTER_START = Duration.ofSeconds(90);
  private static final Duration JOB_RUN = Duration.ofSeconds(90);

  @TempDir static Path dir;
  private static Path jobJar;
  private static Path data;
  private static StandaloneCluster cluster;
  private static Connection duckdb;

  @RegisterExtension
  static final TestWatcher CLUSTER_LOGS =
      new TestWatcher() {
        @Override
        public void testFailed(ExtensionContext context, Throwable cause) {
          if (cluster != null) {
            System.err.println("Flink cluster logs:\n" + cluster.logTails());
          }
        }
      };

  @BeforeAll
  static void startCluster() throws Exception {
    jobJar = Path.of(System.getProperty("quiver.job.jar", "target/quiver-job.jar"));
    assertThat(jobJar)
        .as("the job jar; build it with mvn package -pl examples (mvn verify runs this test)")
        .isRegularFile();
    cluster = StandaloneCluster.start(dir.resolve("cluster"), 3, 2);
    // While the cluster starts: the data, and DuckDB's views of it.
    data = dir.resolve("tpch");
    new TpchGenerator(data, 0.01, FileFormat.PARQUET, 2, 20_000).generate();
    duckdb = DriverManager.getConnection("jdbc:duckdb:");
    try (Statement statement = duckdb.createStatement()) {
      for (TpchTable<?> table : TpchTable.getTables()) {
        String name = table.getTableName();
        statement.execute(
            "create view "
                + name
                + " as select * from read_parquet('"
                + data.resolve(name).resolve("*.parquet")
                + "')");
      }
    }
    cluster.awaitSlots(6, CLUSTER_START);
  }

  @AfterAll
  static void stopCluster() throws SQLException {
    try {
      if (duckdb != null) {
        duckdb.close();
      }
    } finally {
      if (cluster != null) {
        cluster.close();
      }
    }
  }

  @Test
  void theClusterHasFlinkButNotQuiver() {
    List<String> classPath = StandaloneCluster.classPath();
    assertThat(classPath).anyMatch(jar -> jar.contains("flink-runtime-2"));
    assertThat(classPath)
        .noneMatch(jar -> jar.contains("quiver"))
        .noneMatch(jar -> jar.contains("arrow"))
        .noneMatch(jar -> jar.contains("calcite"))
        .noneMatch(jar -> jar.contains("duckdb"));
  }

  @Test
  void theJobJarSubmittedThroughRestWritesQ10() throws Exception {
    String sql = TpchQueries.text(10);
    try (QuiverSession local = QuiverSession.builder().parallelism(PARALLELISM).build()) {
      local.registerDirectory(data); // as the job does: planning only, nothing runs here
      assertThat(local.explain(sql)).contains("SHUFFLE").contains("BROADCAST").contains("MERGE");
    }
    Path out = dir.resolve("job-out").resolve("q10");
    FlinkRest rest = cluster.rest();
    String jar = rest.uploadJar(jobJar);
    String job =
        rest.runJar(
            jar,
            List.of(
                "--sql", sql,
                "--catalog", data.toString(),
                "--output", out.toString(),
                "--format", "csv",
                "--parallelism", String.valueOf(PARALLELISM)));
    JsonNode ended = rest.awaitJob(job, JOB_RUN);
    assertThat(ended.path("state").asText()).as(rest.failure(job)).isEqualTo("FINISHED");
    assertThat(rest.taskManagersOf(job))
        .as("TaskManagers that ran tasks of the job")
        .hasSizeGreaterThanOrEqualTo(2);
    rest.deleteJar(jar);

    // ORDER BY: the final stage is one merging task, so one part holds the whole result.
    assertThat(list(out)).containsExactly("part-00000.csv");
    assertSameAsDuckDb(10, out.resolve("part-00000.csv"));
  }

  @Test
  void theJobJarRunWithFlinkRunWritesQ5AsParquet() throws Exception {
    Path out = dir.resolve("flink-run-out").resolve("q05");
    StandaloneCluster.ClientRun run =
        cluster.flink(
            JOB_RUN,
            "run",
            jobJar.toString(),
            "--sql",
            TpchQueries.text(5),
            "--catalog",
            data.toString(),
            "--output",
            out.toString(),
            "--format",
            "parquet",
            "--parallelism",
            String.valueOf(PARALLELISM));
    assertThat(run.status()).as(run.output()).isZero();
    // Attached: main returned when the job had ended, and said so.
    assertThat(run.output()).contains("quiver-job: job ").contains("finished in");

    assertThat(list(out)).containsExactly("part-00000.parquet");
    List<List<Object>> expected = duckDb(TpchQueries.text(5));
    List<List<Object>> actual = duckDb("select * from read_parquet('" + out + "/*.parquet')");
    assertThat(ResultComparison.difference(expected, actual)).as("q5").isNull();
  }

  @Test
  void theCommandLineRunsQ3OnTheCluster() throws Exception {
    Path out = dir.resolve("cli-out").resolve("q03.csv");
    StringWriter stderr = new StringWriter();
    int status = clusterSql(TpchQueries.text(3), out, stderr);
    assertThat(status).as(stderr.toString()).isZero();
    assertSameAsDuckDb(3, out);
  }

  /**
   * The Flight SQL server in front of a session on the cluster ({@code quiver serve --cluster}): a
   * Flight SQL client's statement runs as a job on the cluster (there is no local one) and streams
   * DuckDB's answer back; afterwards the server holds no query and the session no job.
   */
  @Test
  void aFlightSqlServerOnTheClusterAnswersAClient() throws Exception {
    String sql =
        "SELECT n_name, count(*) AS suppliers FROM nation JOIN supplier ON s_nationkey ="
            + " n_nationkey GROUP BY n_name ORDER BY n_name";
    try (QuiverSession session =
            QuiverSession.builder()
                .parallelism(PARALLELISM)
                .remote("127.0.0.1", cluster.restPort(), jobJar.toString())
                .build();
        BufferAllocator allocator = new RootAllocator()) {
      session.registerDirectory(data);
      int jobsBefore = cluster.rest().get("/jobs/overview").path("jobs").size();
      try (QuiverFlightServer server =
              QuiverFlightServer.builder(session)
                  .host("127.0.0.1")
                  .port(0)
                  .authentication(Authentication.none())
                  .start();
          FlightSqlClient client =
              new FlightSqlClient(FlightClient.builder(allocator, server.location()).build())) {
        List<List<Object>> rows = new ArrayList<>();
        FlightInfo info = client.execute(sql);
        try (FlightStream stream = client.getStream(info.getEndpoints().get(0).getTicket())) {
          while (stream.next()) {
            VectorSchemaRoot root = stream.getRoot();
            for (int i = 0; i < root.getRowCount(); i++) {
              rows.add(
                  List.of(
                      root.getVector(0).getObject(i).toString(), root.getVector(1).getObject(i)));
            }
          }
        }
        assertThat(rows).isEqualTo(duckDb(sql));
        // The server ends its side of the stream after the client has read the last batch.
        long deadline = System.nanoTime() + JOB_RUN.toNanos();
        while (server.activeQueries() != 0) {
          assertThat(System.nanoTime()).as("the server let go of the query").isLessThan(deadline);
          Thread.sleep(20);
        }
      }
      assertThat(session.openQueries()).isZero();
      JsonNode jobs = cluster.rest().get("/jobs/overview").path("jobs");
      assertThat(jobs.size()).as("one more job on the cluster").isEqualTo(jobsBefore + 1);
    }
  }

  /**
   * {@code quiver shell --cluster} in its own JVM with statements on a pipe, as a user runs it:
   * each statement is a job on the cluster, and the shell prints its table.
   */
  @Test
  void theShellRunsItsStatementsOnTheCluster() throws Exception {
    int jobsBefore = cluster.rest().get("/jobs/overview").path("jobs").size();
    Path out = dir.resolve("shell-out.txt");
    Path err = dir.resolve("shell-err.txt");
    List<String> args = new ArrayList<>(List.of("shell"));
    args.addAll(clusterOptions());
    List<String> command = QuiverJvm.command(args.toArray(String[]::new));
    Process shell =
        new ProcessBuilder(command)
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    try {
      try (var stdin = shell.getOutputStream()) {
        stdin.write(
            "select count(*) as n from nation;\nselect count(*) as s from supplier;\n"
                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
      }
      assertThat(shell.waitFor(JOB_RUN.toSeconds(), TimeUnit.SECONDS)).as("exited").isTrue();
      assertThat(shell.exitValue()).as(Files.readString(err)).isZero();
      assertThat(Files.readString(out)).contains("25\n(1 row)\n").contains("100\n(1 row)\n");
    } finally {
      shell.destroyForcibly();
    }
    assertThat(cluster.rest().get("/jobs/overview").path("jobs").size())
        .as("the shell's two jobs on the cluster")
        .isEqualTo(jobsBefore + 2);
  }

  /**
   * {@code quiver sql --cluster ... --format csv --output OUT SQL} with the job jar; its status.
   */
  private int clusterSql(String sql, Path out, StringWriter stderr) {
    List<String> args = new ArrayList<>(List.of("sql"));
    args.addAll(clusterOptions());
    args.addAll(List.of("--format", "csv", "--output", out.toString(), sql));
    return QuiverCommand.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(stderr))
        .execute(args.toArray(String[]::new));
  }

  /** The options of a command that runs on the cluster with the job jar over the TPC-H data. */
  private static List<String> clusterOptions() {
    return List.of(
        "--cluster",
        "127.0.0.1:" + cluster.restPort(),
        "--jar",
        jobJar.toString(),
        "--catalog",
        data.toString(),
        "--parallelism",
        String.valueOf(PARALLELISM));
  }

  /**
   * A TaskManager is killed (SIGKILL) while it provably runs a task of a query, and the answer is
   * still DuckDB's, every row once: the job records the failure, restarts the lost task on another
   * TaskManager, and the result is published once. Runs last: the cluster has a TaskManager fewer
   * afterwards.
   *
   * <p>Why a latch, and this one: a kill aimed at a TaskManager picked from a poll of the REST API
   * can miss (its task may end between the poll and the signal, and then nothing has to recover),
   * and a query slow enough to make that unlikely only makes it rarer. So the test holds a task
   * itself. Of the ways to do that, a test-only job built with the library API is the one that
   * needs nothing of production code but what a user already has: {@link
   * StageGraphCompiler#withStageOutputHook} chains a test operator ({@link KillLatch}, shipped in a
   * jar of its own beside {@code quiver-job.jar}) into task 0 of a stage that reads a shuffle. Its
   * first attempt writes a marker naming its process and TaskManager and waits for a release file;
   * the test kills exactly that process, then releases. A source the test completes later (a FIFO,
   * a file written late) would have held a scan instead, but the planner opens every file to plan
   * (list, footers, statistics), so it would have held the planning too, or needed a way around it
   * in production code. The query is Q10, whose plan has every kind of exchange (broadcast, hash
   * shuffle, ordered merge) for the restart to rebuild; the result is written by Quiver's file
   * sink, as {@code quiver-job.jar} writes it.
   */
  @Test
  @Order(Integer.MAX_VALUE)
  void aTaskManagerKilledWhileItRunsATaskChangesNoAnswer() throws Exception {
    String sql = TpchQueries.text(10);
    StageGraph graph = plan(sql);
    Stage held =
        graph.stages().stream()
            .filter(stage -> stage.tasks() == PARALLELISM)
            .filter(stage -> stage.inputs().stream().anyMatch(i -> i.mode() == InputMode.SHUFFLE))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no stage reads a shuffle:\n" + graph.explain()));
    Path latch = Files.createDirectories(dir.resolve("latch"));
    Path out = dir.resolve("job-out").resolve("killed");
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.createRemoteEnvironment(
            "127.0.0.1",
            cluster.restPort(),
            jobConfiguration(),
            jobJar.toString(),
            latchJar().toString());
    DataStream<BatchRecord> result =
        new StageGraphCompiler()
            .withScanSources(new FileScanSources())
            .withStageOutputHook(KillLatch.inStage(held.id(), 0, latch))
            .compile(env, graph);
    FileSink.write(result, out, FileFormat.CSV);
    JobClient client = env.executeAsync("quiver: q10, a TaskManager killed");
    String job = client.getJobID().toHexString();
    FlinkRest rest = cluster.rest();
    Properties first;
    try {
      // The marker says where the task waits; the JobManager must agree (its REST view lags the
      // TaskManager's by a refresh interval, and the task stays where it is until released).
      first = KillLatch.await(latch, 0, JOB_RUN);
      String killed = first.getProperty(KillLatch.TASK_MANAGER);
      awaitSubtask(rest, job, "RUNNING", 0, killed);
      cluster.killTaskManager(Long.parseLong(first.getProperty(KillLatch.PID)));
      KillLatch.release(latch);
      client.getJobExecutionResult().get(JOB_RUN.toSeconds(), TimeUnit.SECONDS);
    } finally {
      if (!client.getJobStatus().get().isGloballyTerminalState()) {
        client.cancel().get();
      }
    }

    // The attempt that finished the held task ran after the failure, elsewhere, past the latch.
    String killed = first.getProperty(KillLatch.TASK_MANAGER);
    JsonNode last = awaitSubtask(rest, job, "FINISHED", -1, null);
    int attempt = last.path("attempt").asInt();
    assertThat(attempt).as("the held task's last attempt").isPositive();
    assertThat(last.path("taskmanager-id").asText()).isNotEqualTo(killed);
    Properties restarted = KillLatch.attempt(latch, attempt);
    assertThat(restarted).as("attempt %d passed the latch", attempt).isNotNull();
    assertThat(restarted.getProperty(KillLatch.TASK_MANAGER))
        .isEqualTo(last.path("taskmanager-id").asText());
    assertThat(restarted.getProperty(KillLatch.PID)).isNotEqualTo(first.getProperty(KillLatch.PID));
    // The job recorded the failure: the held attempt, lost with its TaskManager. (A later entry
    // may show a restarted consumer that found its input lost with it too, before its producers
    // ran again.)
    JsonNode history = rest.get("/jobs/" + job + "/exceptions").path("exceptionHistory");
    assertThat(history.path("entries"))
        .as("the failures the job recovered from: %s", history.toPrettyString())
        .anyMatch(
            entry ->
                entry.path("taskManagerId").asText().equals(killed)
                    && entry.path("taskName").asText().contains(KillLatch.NAME + " (1/")
                    && entry.path("taskName").asText().endsWith("execution #0"));

    assertThat(list(out)).containsExactly("part-00000.csv");
    assertSameAsDuckDb(10, out.resolve("part-00000.csv"));
  }

  /**
   * Waits until the JobManager reports the held task (subtask 0 of the latch's vertex) in {@code
   * status}, and, where given, in attempt {@code attempt} on TaskManager {@code taskManager}.
   */
  private static JsonNode awaitSubtask(
      FlinkRest rest, String job, String status, int attempt, String taskManager)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + JOB_RUN.toNanos();
    JsonNode subtask = rest.subtask(job, KillLatch.NAME, 0);
    while (!(subtask.path("status").asText().equals(status)
        && (attempt < 0 || subtask.path("attempt").asInt() == attempt)
        && (taskManager == null || subtask.path("taskmanager-id").asText().equals(taskManager)))) {
      assertThat(System.nanoTime())
          .as(
              "the held task is not %s (attempt %d, on %s): %s",
              status, attempt, taskManager, subtask)
          .isLessThan(deadline);
      Thread.sleep(100);
      subtask = rest.subtask(job, KillLatch.NAME, 0);
    }
    return subtask;
  }

  /** Plans {@code sql} over the TPC-H tables as {@code quiver-job.jar} would. */
  private static StageGraph plan(String sql) {
    Catalog catalog = new Catalog();
    DirectoryTables.open(data, CsvOptions.DEFAULT).forEach(catalog::add);
    return StagePlanner.withDefaultRewrites()
        .plan(new SqlPlanner(catalog).plan(sql, PlannerOptions.of(PARALLELISM)));
  }

  /** Quiver's settings for a job, as {@code QuiverJob} sets them. */
  private static Configuration jobConfiguration() {
    Configuration flink = new Configuration();
    flink.set(PipelineOptions.GENERIC_TYPES, false);
    flink.set(PipelineOptions.OBJECT_REUSE, true);
    flink.set(ExecutionOptions.RUNTIME_MODE, RuntimeExecutionMode.BATCH);
    flink.set(BatchExecutionOptions.ADAPTIVE_AUTO_PARALLELISM_ENABLED, false);
    flink.set(CoreOptions.DEFAULT_PARALLELISM, PARALLELISM);
    return flink;
  }

  /**
   * A jar of {@link KillLatch} (and its nested classes) from the test classes, for the job to ship:
   * the cluster has only Flink, and {@code quiver-job.jar} only Quiver.
   */
  private static Path latchJar() throws IOException, URISyntaxException {
    Path classes =
        Path.of(KillLatch.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    String folder = KillLatch.class.getPackageName().replace('.', '/');
    Path jar = dir.resolve("kill-latch.jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
        Stream<Path> files = Files.list(classes.resolve(folder))) {
      for (Path file : files.toList()) {
        String name = file.getFileName().toString();
        if (name.equals("KillLatch.class") || name.startsWith("KillLatch$")) {
          out.putNextEntry(new JarEntry(folder + "/" + name));
          out.write(Files.readAllBytes(file));
          out.closeEntry();
        }
      }
    }
    return jar;
  }

  private static void assertSameAsDuckDb(int query, Path csv) throws SQLException {
    assertSameAsDuckDb(TpchQueries.text(query), csv);
  }

  private static void assertSameAsDuckDb(String sql, Path csv) throws SQLException {
    List<List<Object>> expected = duckDb(sql);
    assertThat(expected).as("DuckDB's answer to %s", sql).isNotEmpty();
    List<List<Object>> actual = CsvAnswers.read(duckdb, csv, expected);
    assertThat(ResultComparison.difference(expected, actual)).as(sql).isNull();
  }

  private static List<List<Object>> duckDb(String sql) throws SQLException {
    try (Statement statement = duckdb.createStatement();
        ResultSet rs = statement.executeQuery(sql)) {
      return ResultComparison.rows(rs);
    }
  }

  private static List<String> list(Path directory) {
    try (Stream<Path> entries = Files.list(directory)) {
      return entries.map(p -> p.getFileName().toString()).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
