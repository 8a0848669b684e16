package dev.quiver.benchmarks.tpch;

import dev.quiver.cli.tpch.TpchGenerator;
import dev.quiver.cli.tpch.TpchQueries;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The command line of {@link TpchBenchmark}.
 *
 * @param scale the TPC-H scale factor
 * @param parallelism Quiver's and Flink's parallelism, DuckDB's threads
 * @param data the Parquet data set (generated there unless its {@code _SUCCESS} matches)
 * @param out where the TSV, Markdown and SVG go
 * @param engines the engines to run, in order; DuckDB is the reference for every answer
 * @param queries query numbers 1 to 22
 * @param timeout per query and engine; a query that takes longer is cancelled and recorded
 * @param passes passes over the query set per engine; the last one is reported
 * @param rowsPerFile rows per generated Parquet file
 * @param managedMemory Flink's managed memory per MiniCluster ({@code taskmanager.memory.managed
 *     .size}), for both Flink clusters
 * @param fixedCostRuns runs of the empty-table query (0: skip the fixed-cost measurement)
 * @param flinkSql extra settings of the Flink SQL engine's table configuration
 */
record BenchmarkOptions(
    double scale,
    int parallelism,
    Path data,
    Path out,
    List<Engine.Kind> engines,
    List<Integer> queries,
    Duration timeout,
    int passes,
    long rowsPerFile,
    String managedMemory,
    int fixedCostRuns,
    Map<String, String> flinkSql) {

  static final String USAGE =
      """
      TpchBenchmark: TPC-H on Quiver, Flink batch SQL and DuckDB over the same Parquet files.
        --sf N                 scale factor (default 0.1)
        --parallelism N        tasks per stage / Flink parallelism / DuckDB threads (default 2)
        --data DIR             data set (default /tmp/quiver-tpch-sf<N>; generated when missing)
        --out DIR              output (default benchmarks/target/tpch-<timestamp>)
        --engines LIST         quiver,flink,duckdb (default all three)
        --queries all|LIST     e.g. 1,3,18 (default all)
        --timeout-seconds N    per query and engine (default 600)
        --passes N             passes per engine, the last one counts (default 2)
        --rows-per-file N      rows per generated file (default: 1,000,000 x SF, at most 1,000,000)
        --managed-memory SIZE  Flink managed memory of each MiniCluster (default 4g)
        --fixed-cost-runs N    runs of Quiver's empty-table query (default 10; 0 skips)
        --flink-sql KEY=VALUE  a Flink SQL table option, repeatable
      """;

  static BenchmarkOptions parse(String... args) {
    double scale = 0.1;
    int parallelism = 2;
    Path data = null;
    Path out = null;
    List<Engine.Kind> engines = List.of(Engine.Kind.values());
    List<Integer> queries = TpchQueries.all();
    Duration timeout = Duration.ofMinutes(10);
    int passes = 2;
    long rowsPerFile = 0;
    String managedMemory = "4g";
    int fixedCostRuns = 10;
    Map<String, String> flinkSql = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      String name = args[i];
      if (name.equals("--help") || name.equals("-h")) {
        throw new IllegalArgumentException(USAGE);
      }
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("missing value of " + name + "\n" + USAGE);
      }
      String value = args[++i];
      switch (name) {
        case "--sf", "--scale" -> scale = Double.parseDouble(value);
        case "--parallelism" -> parallelism = Integer.parseInt(value);
        case "--data" -> data = Path.of(value);
        case "--out" -> out = Path.of(value);
        case "--engines" -> engines = engines(value);
        case "--queries" -> queries = queries(value);
        case "--timeout-seconds" -> timeout = Duration.ofSeconds(Long.parseLong(value));
        case "--passes" -> passes = Integer.parseInt(value);
        case "--rows-per-file" -> rowsPerFile = Long.parseLong(value);
        case "--managed-memory" -> managedMemory = value;
        case "--fixed-cost-runs" -> fixedCostRuns = Integer.parseInt(value);
        case "--flink-sql" -> {
          int eq = value.indexOf('=');
          if (eq <= 0) {
            throw new IllegalArgumentException("--flink-sql takes KEY=VALUE, not " + value);
          }
          flinkSql.put(value.substring(0, eq), value.substring(eq + 1));
        }
        default -> throw new IllegalArgumentException("unknown option " + name + "\n" + USAGE);
      }
    }
    if (!(scale > 0) || parallelism < 1 || passes < 1 || fixedCostRuns < 0) {
      throw new IllegalArgumentException(
          "--sf, --parallelism and --passes must be positive, --fixed-cost-runs at least 0");
    }
    if (timeout.isZero() || timeout.isNegative()) {
      throw new IllegalArgumentException("--timeout-seconds must be positive");
    }
    if (data == null) {
      data = Path.of("/tmp/quiver-tpch-sf" + scaleName(scale));
    }
    if (out == null) {
      out = defaultOut();
    }
    if (rowsPerFile <= 0) {
      rowsPerFile = defaultRowsPerFile(scale);
    }
    return new BenchmarkOptions(
        scale,
        parallelism,
        data.toAbsolutePath(),
        out.toAbsolutePath(),
        engines,
        queries,
        timeout,
        passes,
        rowsPerFile,
        managedMemory,
        fixedCostRuns,
        Map.copyOf(flinkSql));
  }

  /**
   * SF 1's file layout at every smaller scale (lineitem 6 files, orders 2), so that a scan at
   * parallelism up to 6 has a file per task; 1,000,000 rows per file from SF 1 on.
   */
  static long defaultRowsPerFile(double scale) {
    long rows = TpchGenerator.DEFAULT_ROWS_PER_FILE;
    return scale >= 1 ? rows : Math.max(1_000, (long) Math.ceil(rows * scale));
  }

  /** {@code 1} for 1.0, {@code 0.1} for 0.1. */
  static String scaleName(double scale) {
    return scale == Math.rint(scale)
        ? Long.toString((long) scale)
        : String.format(Locale.ROOT, "%s", scale);
  }

  private static Path defaultOut() {
    String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    Path target =
        Files.isDirectory(Path.of("benchmarks"))
            ? Path.of("benchmarks", "target")
            : Path.of("target");
    return target.resolve("tpch-" + stamp);
  }

  private static List<Engine.Kind> engines(String value) {
    List<Engine.Kind> engines = new ArrayList<>();
    for (String name : value.split(",")) {
      Engine.Kind kind = Engine.Kind.of(name.strip());
      if (!engines.contains(kind)) {
        engines.add(kind);
      }
    }
    return List.copyOf(engines);
  }

  private static List<Integer> queries(String value) {
    if (value.equalsIgnoreCase("all")) {
      return TpchQueries.all();
    }
    List<Integer> queries = new ArrayList<>();
    for (String part : value.split(",")) {
      String number = part.strip().toLowerCase(Locale.ROOT);
      int q = Integer.parseInt(number.startsWith("q") ? number.substring(1) : number);
      if (q < 1 || q > TpchQueries.COUNT) {
        throw new IllegalArgumentException("TPC-H has queries 1 to 22, not " + part);
      }
      if (!queries.contains(q)) {
        queries.add(q);
      }
    }
    return List.copyOf(queries);
  }
}
