package dev.quiver.benchmarks.run;

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
 * The command line of a {@link Benchmark}, the same for every {@link Workload} (a workload without
 * a fixed-cost measurement does not take {@code --fixed-cost-runs}).
 *
 * @param scale the scale factor
 * @param parallelism Quiver's and Flink's parallelism, DuckDB's threads
 * @param data the Parquet data set (generated there unless its {@code _SUCCESS} matches)
 * @param out where the TSV, Markdown and SVG go
 * @param engines the engines to run, in order; DuckDB is the reference for every answer
 * @param queries query numbers, 1 to the workload's count
 * @param timeout per query and engine; a query that takes longer is cancelled and recorded
 * @param passes passes over the query set per engine; the last one is reported
 * @param rowsPerFile rows per generated Parquet file
 * @param managedMemory Flink's managed memory per MiniCluster ({@code taskmanager.memory.managed
 *     .size}), for both Flink clusters
 * @param fixedCostRuns runs of the empty-table query (0: skip the fixed-cost measurement)
 * @param flinkSql extra settings of the Flink SQL engine's table configuration
 */
public record BenchmarkOptions(
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
  /** Rows per file from SF 1 on: {@code TpchGenerator}'s and {@code TpcdsGenerator}'s default. */
  static final long FULL_SCALE_ROWS_PER_FILE = 1_000_000;

  /** The usage text; {@code extra} adds a workload's own options (lines ending in a newline). */
  public static String usage(Workload workload, String extra) {
    return workload.command()
        + ": "
        + workload.name()
        + " on Quiver, Flink batch SQL and DuckDB over the same Parquet files.\n"
        + "  --sf N                 scale factor (default 0.1)\n"
        + "  --parallelism N        tasks per stage / Flink parallelism / DuckDB threads (default 2)\n"
        + "  --data DIR             data set (default /tmp/quiver-"
        + workload.id()
        + "-sf<N>; generated when missing)\n"
        + "  --out DIR              output (default benchmarks/target/"
        + workload.id()
        + "-<timestamp>)\n"
        + "  --engines LIST         quiver,flink,duckdb (default all three)\n"
        + "  --queries all|LIST     e.g. 1,3,18 (default all)\n"
        + "  --timeout-seconds N    per query and engine (default 600)\n"
        + "  --passes N             passes per engine, the last one counts (default 2)\n"
        + "  --rows-per-file N      rows per generated file (default: 1,000,000 x SF, at most"
        + " 1,000,000)\n"
        + "  --managed-memory SIZE  Flink managed memory of each MiniCluster (default 4g)\n"
        + (workload.fixedCost().isPresent()
            ? "  --fixed-cost-runs N    runs of Quiver's empty-table query (default 10; 0 skips)\n"
            : "")
        + "  --flink-sql KEY=VALUE  a Flink SQL table option, repeatable\n"
        + extra;
  }

  /** Parses the options common to every workload; {@code extra} as in {@link #usage}. */
  public static BenchmarkOptions parse(Workload workload, String extra, String... args) {
    String usage = usage(workload, extra);
    boolean fixedCost = workload.fixedCost().isPresent();
    double scale = 0.1;
    int parallelism = 2;
    Path data = null;
    Path out = null;
    List<Engine.Kind> engines = List.of(Engine.Kind.values());
    List<Integer> queries = all(workload);
    Duration timeout = Duration.ofMinutes(10);
    int passes = 2;
    long rowsPerFile = 0;
    String managedMemory = "4g";
    int fixedCostRuns = fixedCost ? 10 : 0;
    Map<String, String> flinkSql = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      String name = args[i];
      if (name.equals("--help") || name.equals("-h")) {
        throw new IllegalArgumentException(usage);
      }
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("missing value of " + name + "\n" + usage);
      }
      String value = args[++i];
      switch (name) {
        case "--sf", "--scale" -> scale = Double.parseDouble(value);
        case "--parallelism" -> parallelism = Integer.parseInt(value);
        case "--data" -> data = Path.of(value);
        case "--out" -> out = Path.of(value);
        case "--engines" -> engines = engines(value);
        case "--queries" -> queries = queries(workload, value);
        case "--timeout-seconds" -> timeout = Duration.ofSeconds(Long.parseLong(value));
        case "--passes" -> passes = Integer.parseInt(value);
        case "--rows-per-file" -> rowsPerFile = Long.parseLong(value);
        case "--managed-memory" -> managedMemory = value;
        case "--fixed-cost-runs" -> {
          if (!fixedCost) {
            throw new IllegalArgumentException("unknown option " + name + "\n" + usage);
          }
          fixedCostRuns = Integer.parseInt(value);
        }
        case "--flink-sql" -> {
          int eq = value.indexOf('=');
          if (eq <= 0) {
            throw new IllegalArgumentException("--flink-sql takes KEY=VALUE, not " + value);
          }
          flinkSql.put(value.substring(0, eq), value.substring(eq + 1));
        }
        default -> throw new IllegalArgumentException("unknown option " + name + "\n" + usage);
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
      data = Path.of("/tmp/quiver-" + workload.id() + "-sf" + scaleName(scale));
    }
    if (out == null) {
      out = defaultOut(workload);
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
   * These options for one data set of several: its files in {@code data}, {@code rowsPerFile} rows
   * each, its report in {@code out}.
   */
  public BenchmarkOptions forDataSet(Path data, long rowsPerFile, Path out) {
    return new BenchmarkOptions(
        scale,
        parallelism,
        data,
        out,
        engines,
        queries,
        timeout,
        passes,
        rowsPerFile,
        managedMemory,
        fixedCostRuns,
        flinkSql);
  }

  /**
   * SF 1's file layout at every smaller scale (TPC-H: lineitem 6 files, orders 2; TPC-DS:
   * store_sales 3, inventory 12), so that a scan at parallelism up to 6 has a file per task;
   * 1,000,000 rows per file (the generators' default) from SF 1 on.
   */
  public static long defaultRowsPerFile(double scale) {
    long rows = FULL_SCALE_ROWS_PER_FILE;
    return scale >= 1 ? rows : Math.max(1_000, (long) Math.ceil(rows * scale));
  }

  /** {@code 1} for 1.0, {@code 0.1} for 0.1. */
  public static String scaleName(double scale) {
    return scale == Math.rint(scale)
        ? Long.toString((long) scale)
        : String.format(Locale.ROOT, "%s", scale);
  }

  private static Path defaultOut(Workload workload) {
    String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    Path target =
        Files.isDirectory(Path.of("benchmarks"))
            ? Path.of("benchmarks", "target")
            : Path.of("target");
    return target.resolve(workload.id() + "-" + stamp);
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

  private static List<Integer> all(Workload workload) {
    List<Integer> all = new ArrayList<>();
    for (int q = 1; q <= workload.queryCount(); q++) {
      all.add(q);
    }
    return List.copyOf(all);
  }

  private static List<Integer> queries(Workload workload, String value) {
    if (value.equalsIgnoreCase("all")) {
      return all(workload);
    }
    List<Integer> queries = new ArrayList<>();
    for (String part : value.split(",")) {
      String number = part.strip().toLowerCase(Locale.ROOT);
      int q = Integer.parseInt(number.startsWith("q") ? number.substring(1) : number);
      if (q < 1 || q > workload.queryCount()) {
        throw new IllegalArgumentException(
            workload.name() + " has queries 1 to " + workload.queryCount() + ", not " + part);
      }
      if (!queries.contains(q)) {
        queries.add(q);
      }
    }
    return List.copyOf(queries);
  }
}
