package dev.quiver.benchmarks.tpch;

import dev.quiver.benchmarks.run.Benchmark;
import dev.quiver.benchmarks.run.BenchmarkOptions;
import dev.quiver.benchmarks.run.BenchmarkRun;

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
 * <p>The run itself is {@link Benchmark}'s with the {@link TpchWorkload}; after its passes,
 * Quiver's fixed cost per query is measured on the warm session.
 */
public final class TpchBenchmark {
  static final TpchWorkload WORKLOAD = new TpchWorkload();

  private TpchBenchmark() {}

  public static void main(String[] args) throws Exception {
    Benchmark.main(args, TpchBenchmark::parse, TpchBenchmark::run);
  }

  static BenchmarkOptions parse(String... args) {
    return BenchmarkOptions.parse(WORKLOAD, "", args);
  }

  /** Runs the benchmark and writes the report; returns what it measured. */
  static BenchmarkRun run(BenchmarkOptions options) throws Exception {
    return new Benchmark(WORKLOAD, options, "").run();
  }
}
