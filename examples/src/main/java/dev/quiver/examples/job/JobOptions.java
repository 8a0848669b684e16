package dev.quiver.examples.job;

import dev.quiver.flink.batch.BatchCompression;
import dev.quiver.formats.FileFormat;
import dev.quiver.sql.PlannerOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The arguments of {@link QuiverJob}: the query, the tables it reads, where its result goes, and
 * how it is planned. A usage error is an {@link IllegalArgumentException} whose message ends with
 * the usage: that is what {@code flink run} and the REST API report to whoever submitted the jar.
 */
@Command(
    name = "quiver-job",
    sortOptions = false,
    description = {
      "Run one SQL query over Parquet, CSV or Arrow IPC files as a Flink batch job that writes",
      "its result to a directory of files (one part per task, published atomically)."
    },
    footerHeading = "%nExample:%n",
    footer = {
      "  flink run quiver-job.jar --catalog /data/tpch --format parquet --output /data/out/q1 \\",
      "      --sql \"SELECT l_returnflag, count(*) FROM lineitem GROUP BY l_returnflag\""
    })
final class JobOptions {
  /** The query: its text, or a file holding it. */
  static final class Query {
    @Option(names = "--sql", paramLabel = "QUERY", description = "The SQL text.")
    String text;

    @Option(
        names = {"-f", "--file"},
        paramLabel = "FILE",
        description = "Read the query from FILE (on the machine that runs this main method).")
    Path file;
  }

  @ArgGroup(exclusive = true, multiplicity = "1")
  Query query;

  @Option(
      names = "--catalog",
      paramLabel = "DIR",
      description =
          "Register every entry of DIR as a table (see quiver sql --catalog). Repeatable.")
  List<Path> catalogs = new ArrayList<>();

  @Option(
      names = {"-t", "--table"},
      paramLabel = "NAME=PATH",
      description =
          "Register PATH (a file, a folder of files or a glob) as table NAME. Repeatable; wins"
              + " over a --catalog table of the same name.")
  Map<String, String> tables = new LinkedHashMap<>();

  @Option(
      names = {"-o", "--output"},
      paramLabel = "DIR",
      required = true,
      description =
          "The result directory, which must not exist or be empty: part-00000.<ext>, ... (one"
              + " per task of the final stage) appear in it all at once when the job succeeds.")
  Path output;

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      defaultValue = "csv",
      description = "csv (with a header, the default), parquet or arrow (Arrow IPC file format).")
  String format;

  @Option(
      names = {"-p", "--parallelism"},
      paramLabel = "N",
      description =
          "Tasks per distributed stage (default: the job's parallelism, flink run -p or the"
              + " cluster's parallelism.default).")
  Integer parallelism;

  @Option(
      names = "--broadcast-threshold",
      paramLabel = "BYTES",
      description = "Broadcast a join's build side estimated at most BYTES (default 10485760).")
  long broadcastThreshold = PlannerOptions.DEFAULT_BROADCAST_THRESHOLD;

  @Option(
      names = "--compression",
      paramLabel = "CODEC",
      defaultValue = "none",
      description = "Compression of batches between stages: none (the default), lz4 or zstd.")
  String compression;

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "Print this help.")
  boolean help;

  /**
   * Parses {@code args}; empty when they ask for the help, which is then printed.
   *
   * @throws IllegalArgumentException for a usage error, with the usage in its message
   */
  static Optional<JobOptions> parse(String... args) {
    JobOptions options = new JobOptions();
    CommandLine line = new CommandLine(options);
    try {
      line.parseArgs(args);
      if (line.isUsageHelpRequested()) {
        System.out.print(line.getUsageMessage());
        return Optional.empty();
      }
      options.check(line);
    } catch (ParameterException e) {
      throw new IllegalArgumentException(
          "quiver-job: " + e.getMessage() + "\n\n" + line.getUsageMessage(), e);
    }
    return Optional.of(options);
  }

  private void check(CommandLine line) {
    try {
      fileFormat();
      batchCompression();
    } catch (IllegalArgumentException e) {
      throw new ParameterException(line, e.getMessage(), e);
    }
    if (parallelism != null && parallelism < 1) {
      throw new ParameterException(line, "--parallelism must be at least 1, not " + parallelism);
    }
    if (broadcastThreshold < 0) {
      throw new ParameterException(line, "--broadcast-threshold must not be negative");
    }
    for (Map.Entry<String, String> table : tables.entrySet()) {
      if (table.getValue().isBlank()) {
        throw new ParameterException(line, "--table " + table.getKey() + ": expected NAME=PATH");
      }
    }
  }

  /** The query text, read from its file if it was given as one. */
  String sql() {
    if (query.text != null) {
      return query.text;
    }
    try {
      return Files.readString(query.file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("quiver-job: cannot read the query file " + query.file, e);
    }
  }

  FileFormat fileFormat() {
    return FileFormat.fromName(format);
  }

  BatchCompression batchCompression() {
    return BatchCompression.parse(compression);
  }

  /** The given parallelism, or empty to take the environment's. */
  OptionalInt parallelism() {
    return parallelism == null ? OptionalInt.empty() : OptionalInt.of(parallelism);
  }
}
