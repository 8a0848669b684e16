package dev.quiver.benchmarks.run;

import static java.util.Objects.requireNonNull;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * One workload's queries on three engines side by side, in this JVM, over the same Parquet files:
 * Quiver (a session on a local MiniCluster), Flink 2.3 batch SQL (a table environment on a
 * MiniCluster with the same settings) and DuckDB (JDBC). Every answer is checked against DuckDB's.
 *
 * <p>Per engine ({@link EnginePasses}): start it (cluster, tables), run the query set {@code
 * --passes} times (the last pass counts), then, if the workload measures it, the fixed cost per
 * query on the warm engine ({@link FixedCost}), and stop it. DuckDB runs first, so its answers are
 * there to compare with. A query that fails or runs past {@code --timeout-seconds} is recorded, and
 * the run goes on. Results go to {@code --out} ({@link Report}).
 */
public final class Benchmark {
  private final Workload workload;
  private final BenchmarkOptions options;
  private final BenchmarkRun run;
  private final Map<Integer, List<List<Object>>> reference = new HashMap<>();

  /**
   * @param variant what sets this run apart from others of the workload (a data layout), or empty
   */
  public Benchmark(Workload workload, BenchmarkOptions options, String variant) {
    this.workload = requireNonNull(workload, "workload is null");
    this.options = requireNonNull(options, "options is null");
    this.run = new BenchmarkRun(workload, options, requireNonNull(variant, "variant is null"));
  }

  /** What a benchmark's main class runs with its parsed options. */
  @FunctionalInterface
  public interface Command<O> {
    void run(O options) throws Exception;
  }

  /**
   * A benchmark's {@code main}: parses {@code args} (a mistake prints the message and the usage,
   * exit status 2), runs the command, and exits, as Flink and Arrow leave non-daemon threads
   * behind.
   */
  public static <O> void main(String[] args, Function<String[], O> parse, Command<O> command)
      throws Exception {
    O options;
    try {
      options = parse.apply(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    command.run(options);
    System.exit(0);
  }

  /** Runs the benchmark and writes the report; returns what it measured. */
  public BenchmarkRun run() throws Exception {
    long start = System.nanoTime();
    run.loadBefore = EnginePasses.loadAverage();
    System.out.printf(
        Locale.ROOT,
        "%s SF %s, parallelism %d, engines %s, queries %s, %d passes%s%n  data %s%n  out  %s%n",
        workload.name(),
        BenchmarkOptions.scaleName(options.scale()),
        options.parallelism(),
        options.engines(),
        options.queries(),
        options.passes(),
        run.variant.isEmpty() ? "" : ", " + run.variant,
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
    boolean skipped = workload.generate(options.data(), options.scale(), options.rowsPerFile());
    run.generationSeconds = (System.nanoTime() - start) / 1e9;
    run.dataDescription = workload.describeData(options.data());
    System.out.printf(
        Locale.ROOT,
        "  %s %s%n",
        skipped
            ? "reusing"
            : String.format(Locale.ROOT, "generated in %.1f s,", run.generationSeconds),
        run.dataDescription);
  }

  /** DuckDB's answers when DuckDB is not one of the engines measured: one untimed pass. */
  private void referenceAnswers(QueryRunner runner) throws Exception {
    System.out.println("DuckDB reference answers (not measured)");
    try (DuckDbEngine duckdb = runner.call(() -> new DuckDbEngine(options, workload))) {
      for (int query : options.queries()) {
        QueryRunner.Outcome outcome = runner.run(duckdb, workload.text(query), options.timeout());
        if (outcome.succeeded()) {
          reference.put(query, outcome.rows());
        }
      }
    }
  }
}
