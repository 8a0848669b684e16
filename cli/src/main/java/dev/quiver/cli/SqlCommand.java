package dev.quiver.cli;

import dev.quiver.cli.format.ResultFormat;
import dev.quiver.flink.session.QuiverSession;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code quiver sql}: runs the statements of its input over files and streams and prints each
 * query's result ({@link Script}: {@code CREATE TABLE} / {@code DROP TABLE} of Flink SQL declare
 * Kafka and watched-directory tables; a query over one prints rows as they arrive until Ctrl-C);
 * with {@code --output-dir DIR}, runs each {@code -f FILE} in turn in one session and writes {@code
 * DIR/<file>.csv} (or {@code .jsonl}, {@code .txt}), or {@code DIR/<file>.err} with the one-line
 * error of a query that failed, and goes on with the next. With {@code --savepoint-dir DIR}, Ctrl-C
 * stops a streaming query with a savepoint ({@link SavepointOnStop}) that {@code --from-savepoint
 * PATH} starts it from again.
 */
@Command(
    name = "sql",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Run a SQL query over Parquet, CSV or Arrow IPC files and print its result.",
      "The input may start with CREATE TABLE statements in Flink SQL's syntax (a Kafka topic, a"
          + " watched directory: 'connector' = 'kafka' | 'filesystem'); a query over such a stream"
          + " prints its rows as they arrive (CSV unless --format json) until Ctrl-C."
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  quiver sql --table orders=data/orders.parquet \\",
      "      \"SELECT o_orderstatus, count(*) FROM orders GROUP BY o_orderstatus\"",
      "  quiver sql --catalog ~/.cache/quiver/tpch-sf0.1 --format csv -f q1.sql >q1.csv",
      "  quiver sql --catalog DIR -f a.sql -f b.sql --output-dir out/   writes out/a.csv, out/b.csv",
      "  quiver sql -f clicks.sql    CREATE TABLE clicks (...) WITH ('connector' = 'kafka', ...);",
      "                              SELECT ... FROM clicks WHERE ...;   (rows as they arrive)",
      "  quiver sql --savepoint-dir sp/ -f clicks.sql   Ctrl-C: a savepoint at PATH",
      "  quiver sql --from-savepoint PATH -f clicks.sql   goes on where it stopped"
    })
final class SqlCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin TableOptions tables;

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      description =
          "table (aligned columns, the default; holds the whole result in memory), csv (RFC"
              + " 4180 with a header; the default with --output-dir) or json (JSON Lines: one"
              + " object per row).")
  ResultFormat format;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FILE",
      description = "Write the result to FILE (replaced only when complete) instead of stdout.")
  Path output;

  @Option(
      names = "--output-dir",
      paramLabel = "DIR",
      description =
          "Run every -f FILE in turn and write each result to DIR/<FILE's name>.csv (.jsonl,"
              + " .txt), or its one-line error to DIR/<name>.err and go on; exit status 1 if any"
              + " failed.")
  Path outputDir;

  @Option(
      names = "--savepoint-dir",
      paramLabel = "DIR",
      description =
          "Ctrl-C (or SIGTERM) stops a streaming query or INSERT with a savepoint in DIR instead"
              + " of cancelling it: the rows emitted before it are written (an INSERT's sink"
              + " commits them), stderr names the savepoint for --from-savepoint, exit status 0."
              + " A batch query or INSERT is cancelled as without it; a second Ctrl-C cancels."
              + " With --cluster, a path every node reaches.")
  String savepointDir;

  @Option(
      names = "--from-savepoint",
      paramLabel = "PATH",
      description =
          "Start the script's streaming query or INSERT (its one statement besides CREATE / DROP"
              + " TABLE) from the savepoint PATH that --savepoint-dir gave: where the stopped"
              + " job's sources, state and sink were. Same statement, tables and --parallelism as"
              + " then.")
  String fromSavepoint;

  @Mixin SessionOptions session;

  @ArgGroup(exclusive = true, multiplicity = "1")
  QueryInput query;

  @SuppressWarnings("try") // the guards are held for the query: they cancel or stop its job
  @Override
  public Integer call() throws Exception {
    if (outputDir != null) {
      return runFiles();
    }
    String sql = query.read(spec.commandLine(), System.in);
    checkResumable(sql);
    boolean verbose = Errors.verbose(spec.root().commandLine().getParseResult());
    PrintWriter err = spec.commandLine().getErr();
    long start = System.nanoTime();
    long rows;
    try (QuiverSession quiver = session.open();
        CancelOnExit exit = CancelOnExit.guard(quiver, err);
        SavepointOnStop stop =
            savepointDir == null ? null : SavepointOnStop.install(savepointDir, err)) {
      tables.register(quiver);
      long queryStart = System.nanoTime();
      try (ResultOutput out = ResultOutput.of(output, spec.commandLine().getOut());
          Progress progress = Progress.start(err, Terminal.interactive(), "query")) {
        rows =
            Script.run(
                quiver, sql, format, out, progress, new Script.Savepoints(fromSavepoint, stop));
        out.commit();
      }
      Optional<String> savepoint = stop == null ? Optional.empty() : stop.savepoint();
      savepoint.ifPresent(
          path ->
              err.println(
                  "quiver: stopped with a savepoint: "
                      + path
                      + " (resume with --from-savepoint "
                      + path
                      + ")"));
      if (verbose) {
        spec.commandLine()
            .getErr()
            .println(
                String.format(
                    Locale.ROOT,
                    "quiver: %d rows in %.3f s (%.3f s with the session's start)",
                    rows,
                    (System.nanoTime() - queryStart) / 1e9,
                    (System.nanoTime() - start) / 1e9));
      }
    }
    return 0;
  }

  /**
   * {@code --from-savepoint} starts one query or INSERT: a script with none or several is a usage
   * error.
   */
  private void checkResumable(String sql) {
    if (fromSavepoint == null) {
      return;
    }
    List<String> queries = Script.queries(sql);
    if (queries.size() != 1) {
      throw new ParameterException(
          spec.commandLine(),
          "--from-savepoint starts one streaming query, and the input has "
              + queries.size()
              + " statements besides CREATE / DROP TABLE");
    }
  }

  /** {@code --output-dir}: every file's query in one session, a result or error file for each. */
  @SuppressWarnings("try") // the guard is held for the queries: it cancels the job on Ctrl-C
  private int runFiles() throws IOException {
    Map<String, String> names = names();
    ResultFormat chosen = format == null ? ResultFormat.CSV : format;
    PrintWriter stdout = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    boolean verbose = Errors.verbose(spec.root().commandLine().getParseResult());
    List<String> failed = new ArrayList<>();
    Files.createDirectories(outputDir);
    try (QuiverSession quiver = session.open();
        CancelOnExit exit = CancelOnExit.guard(quiver, err)) {
      tables.register(quiver);
      for (Map.Entry<String, String> file : names.entrySet()) {
        Path result = outputDir.resolve(file.getValue() + extension(chosen));
        Path error = outputDir.resolve(file.getValue() + ".err");
        long start = System.nanoTime();
        try (ResultOutput out = ResultOutput.file(result);
            Progress progress = Progress.start(err, Terminal.interactive(), file.getKey())) {
          String sql = QueryInput.readFile(file.getKey());
          long rows = Script.run(quiver, sql, chosen, out, progress);
          out.commit();
          Files.deleteIfExists(error);
          stdout.printf(
              Locale.ROOT,
              "%s: %d rows in %.3f s -> %s%n",
              file.getKey(),
              rows,
              (System.nanoTime() - start) / 1e9,
              result);
        } catch (RuntimeException e) {
          if (CancelOnExit.cancelling()) {
            throw e;
          }
          failed.add(file.getKey());
          String message = Errors.message(e);
          Files.deleteIfExists(result); // a result of an earlier run would look like this one's
          Files.writeString(error, message + "\n", StandardCharsets.UTF_8);
          err.println("quiver: " + file.getKey() + ": " + message);
          if (verbose) {
            e.printStackTrace(err);
          }
          err.flush();
          stdout.printf(Locale.ROOT, "%s: FAILED -> %s%n", file.getKey(), error);
        }
        stdout.flush();
      }
    }
    if (!failed.isEmpty()) {
      throw new CliException(
          failed.size() + " of " + names.size() + " queries failed: " + String.join(", ", failed));
    }
    return 0;
  }

  /** Each query file and the name of its output (the file name without .sql), in order. */
  private Map<String, String> names() {
    if (output != null) {
      throw new ParameterException(
          spec.commandLine(), "--output and --output-dir exclude each other");
    }
    if (savepointDir != null || fromSavepoint != null) {
      throw new ParameterException(
          spec.commandLine(),
          (savepointDir != null ? "--savepoint-dir" : "--from-savepoint")
              + " is for one streaming query, and --output-dir runs several files: give one -f"
              + " FILE without --output-dir");
    }
    if (query.files.isEmpty()) {
      throw new ParameterException(
          spec.commandLine(), "--output-dir runs query files: give -f FILE");
    }
    Map<String, String> names = new LinkedHashMap<>();
    Map<String, String> byName = new HashMap<>();
    for (String file : query.files) {
      if (file.equals("-")) {
        throw new ParameterException(
            spec.commandLine(), "--output-dir needs query files, not standard input");
      }
      String name = Path.of(file).getFileName().toString().replaceFirst("(?i)\\.sql$", "");
      String other = byName.put(name.toLowerCase(Locale.ROOT), file);
      if (other != null) {
        throw new ParameterException(
            spec.commandLine(),
            other + " and " + file + " would both write " + name + ".* in --output-dir");
      }
      names.put(file, name);
    }
    return names;
  }

  private static String extension(ResultFormat format) {
    return switch (format) {
      case CSV -> ".csv";
      case JSON -> ".jsonl";
      case TABLE -> ".txt";
    };
  }
}
