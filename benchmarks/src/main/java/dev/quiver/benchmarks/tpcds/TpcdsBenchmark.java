package dev.quiver.benchmarks.tpcds;

import dev.quiver.benchmarks.run.Benchmark;
import dev.quiver.benchmarks.run.BenchmarkOptions;
import dev.quiver.benchmarks.run.BenchmarkRun;
import dev.quiver.benchmarks.run.Report;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The 99 TPC-DS queries on three engines side by side, in this JVM, over the same Parquet files:
 * Quiver, Flink 2.3 batch SQL (with the few text edits of {@link FlinkTpcdsEdits}) and DuckDB,
 * every answer checked against DuckDB's, on one data layout or both: one Parquet file per table
 * ({@code single}, as a data set loaded by hand usually is) and many files per table ({@code
 * multi}, the generator's files of {@code --rows-per-file} rows).
 *
 * <pre>
 *   java -Xmx8g --add-opens=java.base/java.nio=ALL-UNNAMED -cp benchmarks/target/benchmarks.jar \
 *       dev.quiver.benchmarks.tpcds.TpcdsBenchmark --sf 1 --parallelism 2
 * </pre>
 *
 * <p>Each layout is a {@link Benchmark} run of its own, with its data in {@code DATA/<layout>} and
 * its report in {@code OUT/<layout>}; {@code OUT/summary.md} puts the layouts side by side and then
 * gives each one's summary.
 */
public final class TpcdsBenchmark {
  static final TpcdsWorkload WORKLOAD = new TpcdsWorkload();

  private static final String LAYOUT_USAGE =
      "  --layout L             single (one Parquet file per table), multi (files of"
          + " --rows-per-file rows)\n"
          + "                         or both (default), each in DATA/<layout>, reported in"
          + " OUT/<layout>\n";

  /** A data layout: how many Parquet files each table has. */
  enum Layout {
    SINGLE("single", "one Parquet file per table"),
    MULTI("multi", "many Parquet files per table");

    final String id;
    final String label;

    Layout(String id, String label) {
      this.id = id;
      this.label = label;
    }
  }

  /** The parsed command line: the common options and the layouts. */
  record Options(BenchmarkOptions common, List<Layout> layouts) {}

  private TpcdsBenchmark() {}

  public static void main(String[] args) throws Exception {
    Benchmark.main(args, TpcdsBenchmark::parse, TpcdsBenchmark::run);
  }

  static Options parse(String... args) {
    List<String> rest = new ArrayList<>(Arrays.asList(args));
    List<Layout> layouts = List.of(Layout.SINGLE, Layout.MULTI);
    int at = rest.indexOf("--layout");
    if (at >= 0) {
      if (at + 1 >= rest.size()) {
        throw new IllegalArgumentException(
            "missing value of --layout\n" + BenchmarkOptions.usage(WORKLOAD, LAYOUT_USAGE));
      }
      String value = rest.remove(at + 1).strip().toLowerCase(Locale.ROOT);
      rest.remove(at);
      layouts =
          switch (value) {
            case "single" -> List.of(Layout.SINGLE);
            case "multi" -> List.of(Layout.MULTI);
            case "both" -> List.of(Layout.SINGLE, Layout.MULTI);
            default ->
                throw new IllegalArgumentException(
                    "--layout takes single, multi or both, not " + value);
          };
    }
    BenchmarkOptions common =
        BenchmarkOptions.parse(WORKLOAD, LAYOUT_USAGE, rest.toArray(String[]::new));
    return new Options(common, layouts);
  }

  /** Runs every layout and writes their reports and the summary of both; returns the runs. */
  static List<BenchmarkRun> run(Options options) throws Exception {
    BenchmarkOptions common = options.common();
    List<BenchmarkRun> runs = new ArrayList<>();
    for (Layout layout : options.layouts()) {
      BenchmarkOptions o =
          common.forDataSet(
              common.data().resolve(layout.id),
              layout == Layout.SINGLE ? TpcdsWorkload.ONE_FILE_PER_TABLE : common.rowsPerFile(),
              common.out().resolve(layout.id));
      runs.add(new Benchmark(WORKLOAD, o, layout.label).run());
    }
    String summary = LayoutSummary.markdown(runs);
    Files.createDirectories(common.out());
    Path file = common.out().resolve(Report.SUMMARY);
    Files.writeString(file, summary);
    if (runs.size() > 1) {
      System.out.println();
      System.out.println(summary.substring(0, summary.indexOf("\n## ")));
    }
    System.out.println("Written to " + common.out());
    return runs;
  }
}
