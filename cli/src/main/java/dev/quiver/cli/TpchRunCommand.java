package dev.quiver.cli;

import dev.quiver.cli.tpch.TpchCatalog;
import dev.quiver.cli.tpch.TpchQueries;
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
 * {@code quiver tpch}: runs TPC-H queries on generated data and prints one line per query as it
 * finishes, then the total:
 *
 * <pre>
 *   query |     rows |  seconds
 *   ------+----------+---------
 *   q01   |        4 |    1.234
 *   q06   |        1 |    0.321
 *   ------+----------+---------
 *   total |        5 |    1.555
 * </pre>
 *
 * A query that fails is reported (row {@code FAILED}, its message on stderr) and the others still
 * run; the exit status is then 1.
 */
@Command(
    name = "tpch",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Run TPC-H queries and print the rows and seconds of each.",
      "Generates the data (Parquet) the first time and reuses it afterwards."
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  quiver tpch                                 all 22 queries at SF 0.1",
      "  quiver tpch --sf 1 --queries 1,3,5-7 -p 4",
      "  quiver tpch --sf 0.01 --queries 1 --out results/   writes results/q01.csv"
    })
final class TpchRunCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--sf",
      paramLabel = "SF",
      defaultValue = "0.1",
      description = "Scale factor (default ${DEFAULT-VALUE}: lineitem has about 6 M x SF rows).")
  double scale;

  @Option(
      names = "--data",
      paramLabel = "DIR",
      description =
          "The data set (default: $XDG_CACHE_HOME/quiver/tpch-sf<SF>, else"
              + " ~/.cache/quiver/tpch-sf<SF>). Used as it is if DIR/_SUCCESS records this SF;"
              + " without DIR/_SUCCESS its table folders are generated (replaced).")
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
    if (!(scale > 0)) {
      throw new ParameterException(spec.commandLine(), "--sf must be positive, not " + scale);
    }
    List<Integer> queries;
    try {
      queries = parseQueries(queryList);
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
                : TpchData.defaultDir(scale, System.getenv(), System.getProperty("user.home")))
            .toAbsolutePath();
    if (TpchData.markedScale(dir).isEmpty()) {
      err.println(
          "Generating TPC-H SF " + TpchData.scaleText(scale) + " in " + dir + " (once) ...");
      err.flush();
    }
    try (Progress progress = Progress.start(err, interactive, "generating", false)) {
      TpchData.ensure(dir, scale, Runtime.getRuntime().availableProcessors());
    }

    List<String> failed;
    try (QuiverSession quiver = session.open();
        CancelOnExit exit = CancelOnExit.guard(quiver, err)) {
      TpchCatalog.register(quiver, dir);
      stdout.printf(
          Locale.ROOT,
          "TPC-H SF %s, parallelism %d, %s, data %s%n%n",
          TpchData.scaleText(scale),
          quiver.parallelism(),
          session.cluster == null ? "local MiniCluster" : "cluster " + session.cluster,
          dir);
      failed =
          new QueryRuns(quiver, TpchQueries::text, out, stdout, err, interactive, verbose)
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

  /** {@code all}, or numbers and ranges {@code 1,3,5-7}, each in 1..22; sorted, no repeats. */
  static List<Integer> parseQueries(String text) {
    return QueryNumbers.parse(text, TpchQueries.COUNT);
  }
}
