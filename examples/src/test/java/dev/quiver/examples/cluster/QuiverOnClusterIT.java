package dev.quiver.examples.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quiver.cli.QuiverCommand;
import dev.quiver.cli.QuiverJvm;
import dev.quiver.cli.tpch.ResultComparison;
import dev.quiver.cli.tpch.TpchQueries;
import dev.quiver.flink.session.QuiverSession;
import dev.quiver.server.Authentication;
import dev.quiver.server.QuiverFlightServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Quiver on a real Flink cluster: a standalone session cluster of four JVMs on the loopback
 * interface (a JobManager and three TaskManagers of two slots, {@link StandaloneCluster}, shared
 * with the other cluster tests through {@link TpchCluster}) whose class path holds Flink and
 * nothing of Quiver, so every Quiver class a task runs comes from the jar shipped with its job.
 * Over TPC-H SF 0.01 it runs
 *
 * <ul>
 *   <li>Q10 (broadcast joins, a hash shuffle, an ordered merge) as {@code quiver-job.jar} submitted
 *       through the REST API the way a user without Flink's client would: the job writes its result
 *       as CSV itself;
 *   <li>Q5 with Flink's own {@code flink run}, writing Parquet;
 *   <li>Q3 with the command line, {@code quiver sql --cluster}, shipping {@code quiver-job.jar};
 *   <li>a Flight SQL server and the shell in front of the cluster,
 * </ul>
 *
 * and compares every result with DuckDB's answer. Processes killed under a running query are {@link
 * TaskManagerKillsIT}'s. Needs {@code target/quiver-job.jar}, so it runs in Maven's
 * integration-test phase ({@code mvn verify}).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
@ExtendWith(TpchCluster.Shared.class)
class QuiverOnClusterIT {
  private static final int PARALLELISM = TpchCluster.PARALLELISM;
  private static final Duration JOB_RUN = TpchCluster.JOB_RUN;

  private static TpchCluster shared;
  private static Path dir;
  private static Path jobJar;
  private static Path data;
  private static StandaloneCluster cluster;

  @BeforeAll
  static void startCluster(TpchCluster tpch) throws Exception {
    shared = tpch;
    dir = Files.createDirectories(tpch.dir.resolve("on-cluster"));
    jobJar = tpch.jobJar;
    data = tpch.data;
    cluster = tpch.cluster;
    tpch.restore(); // a full cluster, whatever ran before
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
    return shared.clusterOptions();
  }

  private static void assertSameAsDuckDb(int query, Path csv) throws SQLException {
    shared.assertSameAsDuckDb(TpchQueries.text(query), csv);
  }

  private static List<List<Object>> duckDb(String sql) throws SQLException {
    return shared.duckDb(sql);
  }

  private static List<String> list(Path directory) {
    return TpchCluster.list(directory);
  }
}
