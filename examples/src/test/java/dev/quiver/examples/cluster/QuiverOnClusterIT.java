package dev.quiver.examples.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quiver.cli.QuiverCommand;
import dev.quiver.cli.tpch.ResultComparison;
import dev.quiver.cli.tpch.TpchGenerator;
import dev.quiver.cli.tpch.TpchQueries;
import dev.quiver.flink.session.QuiverSession;
import dev.quiver.formats.FileFormat;
import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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
 *   <li>last, a longer query with the command line while one of the TaskManagers running it is
 *       killed (SIGKILL): the cluster's restart strategy (fixed delay) runs the lost tasks on the
 *       others, and the answer is still exact;
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
   * {@code quiver sql --cluster ... --format csv --output OUT SQL} with the job jar; its status.
   */
  private int clusterSql(String sql, Path out, StringWriter stderr) {
    return QuiverCommand.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(stderr))
        .execute(
            "sql",
            "--cluster",
            "127.0.0.1:" + cluster.restPort(),
            "--jar",
            jobJar.toString(),
            "--catalog",
            data.toString(),
            "--parallelism",
            String.valueOf(PARALLELISM),
            "--format",
            "csv",
            "--output",
            out.toString(),
            sql);
  }

  /**
   * A TaskManager that runs tasks of a query is killed while the query runs (nested loop joins of
   * lineitem with part: 120 million pairs, seconds on these small JVMs); the job restarts what it
   * lost on the other TaskManagers and the command line still prints DuckDB's answer, every row
   * once. Runs last: the cluster has one or two TaskManagers fewer afterwards.
   */
  @Test
  @Order(Integer.MAX_VALUE)
  void aTaskManagerKilledMidQueryChangesNoAnswer() throws Exception {
    String sql =
        "select l_returnflag, count(*) as pairs, sum(l_quantity) as quantity,"
            + " sum(p_retailprice) as price from lineitem, part"
            + " where l_quantity > p_size and l_discount < 0.05"
            + " group by l_returnflag order by l_returnflag";
    FlinkRest rest = cluster.rest();
    // A kill can still miss: the TaskManager may end its last task of the job between the poll
    // and the signal, and then nothing has to recover (a kill held back by a latch is for the
    // fault-injection issue). So: up to two attempts, each on one TaskManager fewer; every
    // attempt's answer must be DuckDB's, and one attempt must show the job recovering.
    boolean recovered = false;
    for (int attempt = 1; attempt <= 2 && !recovered; attempt++) {
      Path out = dir.resolve("cli-out").resolve("killed-" + attempt + ".csv");
      recovered = killATaskManagerWhileTheJoinRuns(sql, out, rest);
      assertSameAsDuckDb(sql, out);
    }
    assertThat(recovered).as("a killed TaskManager ran a task the job then recovered").isTrue();
  }

  /**
   * Runs {@code sql} through the command line and kills a TaskManager that runs a task of its job
   * in two polls 300 ms apart, at least a second after the first task ran (past the scan of part,
   * in the join); returns whether the job recorded a failure it recovered from.
   */
  private boolean killATaskManagerWhileTheJoinRuns(String sql, Path out, FlinkRest rest)
      throws Exception {
    Set<String> before = rest.runningJobs();
    StringWriter stderr = new StringWriter();
    ExecutorService client = Executors.newSingleThreadExecutor();
    try {
      Future<Integer> status = client.submit(() -> clusterSql(sql, out, stderr));
      String job = null;
      Set<String> running = Set.of();
      long deadline = System.nanoTime() + JOB_RUN.toNanos();
      long firstRunning = 0;
      while (running.isEmpty() || System.nanoTime() - firstRunning < 1_000_000_000L) {
        assertThat(status.isDone())
            .as("the query ended before a TaskManager was killed: %s", stderr)
            .isFalse();
        assertThat(System.nanoTime()).as("the query's tasks did not start").isLessThan(deadline);
        Thread.sleep(100);
        if (job == null) {
          job =
              rest.runningJobs().stream().filter(j -> !before.contains(j)).findFirst().orElse(null);
        }
        if (job != null) {
          running = rest.taskManagersRunning(job);
          if (!running.isEmpty() && firstRunning == 0) {
            firstRunning = System.nanoTime();
          }
          if (!running.isEmpty() && System.nanoTime() - firstRunning >= 1_000_000_000L) {
            Thread.sleep(300); // still running 300 ms later: a long task, the join's
            Set<String> still = new java.util.TreeSet<>(rest.taskManagersRunning(job));
            still.retainAll(running);
            running = still;
          }
        }
      }
      cluster.killTaskManager(running.iterator().next());

      assertThat(status.get(JOB_RUN.toSeconds(), TimeUnit.SECONDS)).as(stderr.toString()).isZero();
      return rest.get("/jobs/" + job + "/exceptions")
              .path("exceptionHistory")
              .path("entries")
              .size()
          > 0;
    } finally {
      client.shutdownNow();
    }
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
