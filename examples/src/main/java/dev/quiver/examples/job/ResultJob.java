package dev.quiver.examples.job;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.catalog.DirectoryTables;
import dev.quiver.flink.catalog.FileCatalogTables;
import dev.quiver.flink.catalog.FileScanSources;
import dev.quiver.flink.catalog.FileTableSpec;
import dev.quiver.flink.compiler.StageGraphCompiler;
import dev.quiver.flink.compiler.StageOutputHook;
import dev.quiver.flink.file.FileSink;
import dev.quiver.formats.CsvOptions;
import dev.quiver.formats.FileFormat;
import dev.quiver.sql.Catalog;
import dev.quiver.sql.PlannerOptions;
import dev.quiver.sql.SqlPlanner;
import dev.quiver.stage.StageGraph;
import dev.quiver.stage.StagePlanner;
import java.nio.file.Path;
import java.util.Map;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * One query as a Flink job that writes its own result, built into an environment. Everything here
 * runs where the job's main method runs (the {@code flink run} client, or the JobManager for a REST
 * submission): table files are opened and the plan is made there; the tasks read and write the same
 * paths, so they must be on a file system every TaskManager sees.
 *
 * <pre>
 *   tables ─► Catalog ─► SqlPlanner ─► StagePlanner ─► stage graph
 *          ─► StageGraphCompiler (FileScanSources) ─► final stage's batches
 *          ─► FileSink: DIR/part-00000.ext ... published by one atomic rename
 * </pre>
 *
 * Unlike a {@code QuiverSession} query, nothing comes back to the client: the final stage's tasks
 * write the result, one part file each (one in all for a query with ORDER BY, whose final stage is
 * a single merging task).
 */
final class ResultJob {
  private static final int JOB_NAME_CHARS = 100;

  private final StageGraph graph;
  private final Path output;
  private final FileFormat format;
  private final String name;

  private ResultJob(StageGraph graph, Path output, FileFormat format, String name) {
    this.graph = graph;
    this.output = output;
    this.format = format;
    this.name = name;
  }

  /** Plans the query of {@code options} and adds its stages and result sink to {@code env}. */
  static ResultJob build(StreamExecutionEnvironment env, JobOptions options) {
    return build(env, options, StageOutputHook.NONE);
  }

  /** {@link #build(StreamExecutionEnvironment, JobOptions)} with {@code hook} (tests). */
  static ResultJob build(StreamExecutionEnvironment env, JobOptions options, StageOutputHook hook) {
    requireNonNull(env, "env is null");
    requireNonNull(options, "options is null");
    String sql = options.sql();
    StageGraph graph = plan(options, env.getParallelism());
    StageGraphCompiler compiler =
        new StageGraphCompiler()
            .withCompression(options.batchCompression())
            .withScanSources(new FileScanSources())
            .withStageOutputHook(hook);
    DataStream<BatchRecord> result = compiler.compile(env, graph);
    Path output = options.output.toAbsolutePath().normalize();
    FileSink.write(result, output, options.fileFormat());
    return new ResultJob(graph, output, options.fileFormat(), jobName(sql));
  }

  /**
   * The stage graph of the query of {@code options}, with {@code --parallelism} tasks per stage or
   * else {@code defaultParallelism}.
   */
  static StageGraph plan(JobOptions options, int defaultParallelism) {
    int parallelism = options.parallelism().orElse(Math.max(1, defaultParallelism));
    PlannerOptions planner =
        new PlannerOptions(
            parallelism,
            options.broadcastThreshold,
            PlannerOptions.spreadThresholdFor(parallelism));
    return StagePlanner.withDefaultRewrites()
        .plan(new SqlPlanner(catalog(options)).plan(options.sql(), planner));
  }

  /** The tables of {@code --catalog} directories, then of {@code --table}s (which win). */
  private static Catalog catalog(JobOptions options) {
    Catalog catalog = new Catalog();
    for (Path dir : options.catalogs) {
      DirectoryTables.open(dir.toAbsolutePath(), CsvOptions.DEFAULT).forEach(catalog::add);
    }
    for (Map.Entry<String, String> table : options.tables.entrySet()) {
      String location = absolute(table.getValue());
      catalog.add(FileCatalogTables.open(table.getKey(), FileTableSpec.of(location)));
    }
    return catalog;
  }

  /**
   * A relative location is taken relative to the working directory here, since the tasks that read
   * it run elsewhere; a {@code file:} URI is already absolute.
   */
  private static String absolute(String location) {
    return location.startsWith("file:")
        ? location
        : Path.of(location).toAbsolutePath().normalize().toString();
  }

  private static String jobName(String sql) {
    String oneLine = sql.strip().replaceAll("\\s+", " ");
    return "quiver: "
        + (oneLine.length() <= JOB_NAME_CHARS
            ? oneLine
            : oneLine.substring(0, JOB_NAME_CHARS) + "...");
  }

  StageGraph graph() {
    return graph;
  }

  Path output() {
    return output;
  }

  FileFormat format() {
    return format;
  }

  String name() {
    return name;
  }
}
