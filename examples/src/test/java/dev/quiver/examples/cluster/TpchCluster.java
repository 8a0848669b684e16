package dev.quiver.examples.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quiver.cli.tpch.ResultComparison;
import dev.quiver.cli.tpch.TpchGenerator;
import dev.quiver.flink.catalog.DirectoryTables;
import dev.quiver.formats.CsvOptions;
import dev.quiver.formats.FileFormat;
import dev.quiver.formats.FileWriters;
import dev.quiver.sql.Catalog;
import dev.quiver.sql.PlannerOptions;
import dev.quiver.sql.SqlPlanner;
import dev.quiver.stage.StageGraph;
import dev.quiver.stage.StagePlanner;
import io.trino.tpch.TpchTable;
import java.io.IOException;
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
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.BatchExecutionOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * What the cluster tests share, started once per test JVM and stopped when it ends: a {@link
 * StandaloneCluster} of a JobManager and three TaskManagers of two slots, TPC-H SF 0.01 as Parquet
 * (two files a table), DuckDB's views of it, {@code quiver-job.jar} and a jar of {@link KillLatch}.
 * A test class gets it as a parameter of its {@code @BeforeAll} method with
 * {@code @ExtendWith(TpchCluster.Shared.class)}; the same extension prints the cluster's logs when
 * a test fails.
 */
final class TpchCluster implements ExtensionContext.Store.CloseableResource {
  static final int PARALLELISM = 2;
  static final int TASK_MANAGERS = 3;
  static final int SLOTS = 2;
  static final Duration CLUSTER_START = Duration.ofSeconds(90);
  static final Duration JOB_RUN = Duration.ofSeconds(90);

  final Path dir;
  final Path jobJar;
  final Path latchJar;
  final Path data;
  final StandaloneCluster cluster;
  final Connection duckdb;

  private TpchCluster(
      Path dir,
      Path jobJar,
      Path latchJar,
      Path data,
      StandaloneCluster cluster,
      Connection duckdb) {
    this.dir = dir;
    this.jobJar = jobJar;
    this.latchJar = latchJar;
    this.data = data;
    this.cluster = cluster;
    this.duckdb = duckdb;
  }

  /** Resolves a {@link TpchCluster} parameter; prints the cluster's logs when a test fails. */
  static final class Shared implements ParameterResolver, TestWatcher {
    private static final ExtensionContext.Namespace NAMESPACE =
        ExtensionContext.Namespace.create(TpchCluster.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
      return parameter.getParameter().getType() == TpchCluster.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
      return get(context);
    }

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      TpchCluster shared =
          context.getRoot().getStore(NAMESPACE).get(TpchCluster.class, TpchCluster.class);
      if (shared != null) {
        System.err.println("Flink cluster logs:\n" + shared.cluster.logTails());
      }
    }

    private static TpchCluster get(ExtensionContext context) {
      return context
          .getRoot()
          .getStore(NAMESPACE)
          .getOrComputeIfAbsent(TpchCluster.class, key -> start(), TpchCluster.class);
    }
  }

  private static TpchCluster start() {
    Path jobJar = Path.of(System.getProperty("quiver.job.jar", "target/quiver-job.jar"));
    assertThat(jobJar)
        .as("the job jar; build it with mvn package -pl examples (mvn verify runs this test)")
        .isRegularFile();
    StandaloneCluster cluster = null;
    Connection duckdb = null;
    try {
      Path dir = Files.createTempDirectory("quiver-cluster-it");
      cluster = StandaloneCluster.start(dir.resolve("cluster"), TASK_MANAGERS, SLOTS);
      // While the cluster starts: the data, and DuckDB's views of it.
      Path data = dir.resolve("tpch");
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
      Path latchJar = latchJar(dir);
      cluster.awaitSlots(TASK_MANAGERS * SLOTS, CLUSTER_START);
      return new TpchCluster(dir, jobJar.toAbsolutePath(), latchJar, data, cluster, duckdb);
    } catch (Exception e) {
      if (cluster != null) {
        cluster.close();
      }
      try {
        if (duckdb != null) {
          duckdb.close();
        }
      } catch (SQLException suppressed) {
        e.addSuppressed(suppressed);
      }
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      throw new IllegalStateException("cannot start the cluster: " + e, e);
    }
  }

  @Override
  public void close() throws Exception {
    try {
      duckdb.close();
    } finally {
      try {
        cluster.close();
      } finally {
        FileWriters.deleteRecursively(dir);
      }
    }
  }

  /** Starts TaskManagers in place of killed ones and waits until all their slots are there. */
  void restore() throws IOException, InterruptedException {
    cluster.restore(TASK_MANAGERS, CLUSTER_START);
  }

  /** The options of a command that runs on the cluster with the job jar over the TPC-H data. */
  List<String> clusterOptions() {
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

  /** Plans {@code sql} over the TPC-H tables as {@code quiver-job.jar} would. */
  StageGraph plan(String sql) {
    Catalog catalog = new Catalog();
    DirectoryTables.open(data, CsvOptions.DEFAULT).forEach(catalog::add);
    return StagePlanner.withDefaultRewrites()
        .plan(new SqlPlanner(catalog).plan(sql, PlannerOptions.of(PARALLELISM)));
  }

  /** Quiver's settings for a job, as {@code QuiverJob} sets them. */
  static Configuration jobConfiguration() {
    Configuration flink = new Configuration();
    flink.set(PipelineOptions.GENERIC_TYPES, false);
    flink.set(PipelineOptions.OBJECT_REUSE, true);
    flink.set(ExecutionOptions.RUNTIME_MODE, RuntimeExecutionMode.BATCH);
    flink.set(BatchExecutionOptions.ADAPTIVE_AUTO_PARALLELISM_ENABLED, false);
    flink.set(CoreOptions.DEFAULT_PARALLELISM, PARALLELISM);
    return flink;
  }

  void assertSameAsDuckDb(String sql, Path csv) throws SQLException {
    List<List<Object>> expected = duckDb(sql);
    assertThat(expected).as("DuckDB's answer to %s", sql).isNotEmpty();
    List<List<Object>> actual = CsvAnswers.read(duckdb, csv, expected);
    assertThat(ResultComparison.difference(expected, actual)).as(sql).isNull();
  }

  List<List<Object>> duckDb(String sql) throws SQLException {
    try (Statement statement = duckdb.createStatement();
        ResultSet rs = statement.executeQuery(sql)) {
      return ResultComparison.rows(rs);
    }
  }

  /** The names in {@code directory}, hidden ones too, sorted. */
  static List<String> list(Path directory) {
    try (Stream<Path> entries = Files.list(directory)) {
      return entries.map(p -> p.getFileName().toString()).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Waits until the JobManager reports the held task (subtask 0 of the latch's vertex) in {@code
   * status}, and, where given, in attempt {@code attempt} on TaskManager {@code taskManager}.
   */
  JsonNode awaitSubtask(String job, String status, int attempt, String taskManager)
      throws IOException, InterruptedException {
    FlinkRest rest = cluster.rest();
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

  /**
   * A jar of {@link KillLatch} (and its nested classes) from the test classes, for jobs to ship:
   * the cluster has only Flink, and {@code quiver-job.jar} only Quiver.
   */
  private static Path latchJar(Path dir) throws IOException, URISyntaxException {
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
}
