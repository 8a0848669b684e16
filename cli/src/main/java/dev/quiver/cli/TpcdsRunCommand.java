package dev.quiver.cli;

import dev.quiver.cli.tpcds.TpcdsQueries;
import dev.quiver.flink.session.QuiverSession;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code quiver tpcds}: runs the 99 TPC-DS queries (or some) on generated data, or on any folder
 * with one folder of Parquet files per table, and prints one line per query as it finishes (see
 * {@link QueryRuns}). A query that fails prints its one-line error and the others still run; the
 * exit status is then 1.
 */
@Command(
    name = "tpcds",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Run TPC-DS queries and print the rows and seconds of each.",
      "Generates the data (Parquet) the first time and reuses it afterwards."
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  quiver tpcds                                all 99 queries at SF 0.1",
      "  quiver tpcds --sf 1 --queries 3,7,19-22 -p 2",
      "  quiver tpcds --data /data/tpcds-sf10 --queries 1 --out results/   writes results/q01.csv"
    })
final class TpcdsRunCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--sf",
      paramLabel = "SF",
      defaultValue = "0.1",
      description = "Scale factor (default ${DEFAULT-VALUE}; store_sales has 2.9 M rows at SF 1).")
  double scale;

  @Option(
      names = "--data",
      paramLabel = "DIR",
      description =
          "The data set (default: $XDG_CACHE_HOME/quiver/tpcds-sf<SF>, else"
              + " ~/.cache/quiver/tpcds-sf<SF>): a folder with one folder of Parquet (or CSV)"
              + " files per table, used as it is; generated if it holds no tables.")
  Path data;

  @Option(
      names = {"-q", "--queries"},
      paramLabel = "LIST",
      defaultValue = "all",
      description = "all (default), or query numbers and ranges: 1,3,5-7.")
  String queryList;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description = "Write each query's result to DIR/qNN.csv (the csv format of quiver sql).")
  Path out;

  @Mixin SessionOptions session;

  @Override
  // the progress line shows while its block runs; the guard cancels the job on Ctrl-C
  @SuppressWarnings("try")
  public Integer call() throws IOException {
    if (!(scale > 0) || scale > 100_000) {
      throw new ParameterException(spec.commandLine(), "--sf must be in (0, 100000], not " + scale);
    }
    List<Integer> queries;
    try {
      queries = QueryNumbers.parse(queryList, TpcdsQueries.COUNT);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--queries: " + e.getMessage());
    }
    PrintWriter stdout = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    boolean verbose = Errors.verbose(spec.root().commandLine().getParseResult());
    boolean interactive = Terminal.interactive();
    Path dir =
        (data != null
                ? data
                : TpcdsData.defaultDir(scale, System.getenv(), System.getProperty("user.home")))
            .toAbsolutePath();
    boolean given =
        data != null && TpcdsData.markedScale(dir).isEmpty() && TpcdsData.hasTables(dir);
    if (TpcdsData.markedScale(dir).isEmpty() && !given) {
      err.println(
          "Generating TPC-DS SF " + TpchData.scaleText(scale) + " in " + dir + " (once) ...");
      err.flush();
    }
    try (Progress progress = Progress.start(err, interactive, "generating", false)) {
      TpcdsData.ensure(dir, scale, Runtime.getRuntime().availableProcessors());
    }

    List<String> failed;
    try (QuiverSession quiver = session.open();
        CancelOnExit exit = CancelOnExit.guard(quiver, err)) {
      quiver.registerDirectory(dir);
      stdout.printf(
          Locale.ROOT,
          "TPC-DS %s, parallelism %d, %s, data %s%n%n",
          given ? "data" : "SF " + TpchData.scaleText(TpcdsData.markedScale(dir).orElse(scale)),
          quiver.parallelism(),
          session.cluster == null ? "local MiniCluster" : "cluster " + session.cluster,
          dir);
      stdout.flush();
      failed =
          new QueryRuns(quiver, TpcdsQueries::text, out, stdout, err, interactive, verbose)
              .runAll(queries);
    }
    if (!failed.isEmpty()) {
      throw new CliException(
          failed.size()
              + " of "
              + queries.size()
              + " queries failed: "
              + String.join(", ", failed));
    }
    return 0;
  }
}
