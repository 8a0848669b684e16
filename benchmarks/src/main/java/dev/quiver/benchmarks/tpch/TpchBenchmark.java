package dev.quiver.benchmarks.tpch;

import dev.quiver.cli.tpch.TpchGenerator;
import dev.quiver.formats.FileFormat;
import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The 22 TPC-H queries on three engines side by side, in this JVM, over the same Parquet files:
 * Quiver (a session on a local MiniCluster), Flink 2.3 batch SQL (a table environment on a
 * MiniCluster with the same settings) and DuckDB (JDBC). Every answer is checked against DuckDB's.
 *
 * <pre>
 *   java -Xmx8g --add-opens=java.base/java.nio=ALL-UNNAMED -cp benchmarks/target/benchmarks.jar \
 *       dev.quiver.benchmarks.tpch.TpchBenchmark --sf 1 --parallelism 2
 * </pre>
 *
 * <p>Per engine ({@link EnginePasses}): start it (cluster, tables), run the query set {@code
 * --passes} times (the last pass counts), then, for Quiver, measure the fixed cost per query on the
 * warm session ({@link FixedCost}), and stop it. DuckDB runs first, so its answers are there to
 * compare with. A query that fails or runs past {@code --timeout-seconds} is recorded, and the run
 * goes on. Results go to {@code --out} ({@link Report}).
 */
public final class TpchBenchmark {
  private final BenchmarkOptions options;
  private final BenchmarkRun run;
  private final Map<Integer, List<List<Object>>> reference = new HashMap<>();

  TpchBenchmark(BenchmarkOptions options) {
    this.options = options;
    this.run = new BenchmarkRun(options);
  }

  public static void main(String[] args) throws Exception {
    BenchmarkOptions options;
    try {
      options = BenchmarkOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    new TpchBenchmark(options).run();
    System.exit(0); // Flink and Arrow leave non-daemon threads behind
  }

  /** Runs the benchmark and writes the report; returns what it measured. */
  BenchmarkRun run() throws Exception {
    long start = System.nanoTime();
    run.loadBefore = EnginePasses.loadAverage();
    System.out.printf(
        Locale.ROOT,
        "TPC-H SF %s, parallelism %d, engines %s, queries %s, %d passes%n  data %s%n  out  %s%n",
        BenchmarkOptions.scaleName(options.scale()),
        options.parallelism(),
        options.engines(),
        options.queries(),
        options.passes(),
        options.data(),
        options.out());
    generateData();
    Files.createDirectories(options.out());
    List<Engine.Kind> order = new ArrayList<>();
    if (options.engines().contains(Engine.Kind.DUCKDB)) {
      order.add(Engine.Kind.DUCKDB); // first: its answers are the reference
    }
    options.engines().stream().filter(k -> k != Engine.Kind.DUCKDB).forEach(order::add);
    try (QueryRunner runner = new QueryRunner()) {
      if (!options.engines().contains(Engine.Kind.DUCKDB)) {
        referenceAnswers(runner);
      }
      EnginePasses passes = new EnginePasses(options, run, reference, runner);
      for (Engine.Kind kind : order) {
        passes.run(kind);
      }
    }
    run.loadAfter = EnginePasses.loadAverage();
    run.elapsedSeconds = (System.nanoTime() - start) / 1e9;
    Report.write(run, options.out());
    System.out.println();
    System.out.println(Files.readString(options.out().resolve(Report.SUMMARY)));
    System.out.println("Written to " + options.out());
    return run;
  }

  private void generateData() {
    long start = System.nanoTime();
    TpchGenerator.Result result =
        new TpchGenerator(
                options.data(),
                options.scale(),
                FileFormat.PARQUET,
                Runtime.getRuntime().availableProcessors(),
                options.rowsPerFile())
            .generate();
    run.generationSeconds = (System.nanoTime() - start) / 1e9;
    run.dataDescription = describeData();
    System.out.printf(
        Locale.ROOT,
        "  %s %s%n",
        result.skipped()
            ? "reusing"
            : String.format(Locale.ROOT, "generated in %.1f s,", run.generationSeconds),
        run.dataDescription);
  }

  private String describeData() {
    long bytes = 0;
    Map<String, Long> files = new LinkedHashMap<>();
    for (TpchTable<?> table : TpchTable.getTables()) {
      try (Stream<Path> paths = Files.list(options.data().resolve(table.getTableName()))) {
        List<Path> parquet =
            paths.filter(p -> p.getFileName().toString().endsWith(".parquet")).toList();
        files.put(table.getTableName(), (long) parquet.size());
        for (Path file : parquet) {
          bytes += Files.size(file);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return String.format(
        Locale.ROOT,
        "(Parquet, %.1f MB; lineitem %d files, orders %d)",
        bytes / 1e6,
        files.get("lineitem"),
        files.get("orders"));
  }

  /** DuckDB's answers when DuckDB is not one of the engines measured: one untimed pass. */
  private void referenceAnswers(QueryRunner runner) throws Exception {
    System.out.println("DuckDB reference answers (not measured)");
    try (DuckDbEngine duckdb = runner.call(() -> new DuckDbEngine(options))) {
      for (int query : options.queries()) {
        QueryRunner.Outcome outcome = runner.run(duckdb, duckdb.text(query), options.timeout());
        if (outcome.succeeded()) {
          reference.put(query, outcome.rows());
        }
      }
    }
  }
}
