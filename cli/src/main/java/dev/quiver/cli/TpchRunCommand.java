package dev.quiver.cli;

import dev.quiver.cli.format.ResultFormat;
import dev.quiver.cli.format.TextTable;
import dev.quiver.cli.tpch.TpchCatalog;
import dev.quiver.cli.tpch.TpchQueries;
import dev.quiver.flink.session.QuiverSession;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
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
  private static final boolean[] RIGHT = {false, true, true};
  private static final int[] WIDTHS = {5, 8, 8};

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
      stdout.print(line("query", "rows", "seconds"));
      stdout.print(TextTable.separator(WIDTHS));
      stdout.flush();
      failed = runAll(quiver, queries, stdout, err, interactive, verbose);
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

  /** Runs the queries, printing a row for each and then the total; returns the failed ones. */
  private List<String> runAll(
      QuiverSession quiver,
      List<Integer> queries,
      PrintWriter stdout,
      PrintWriter err,
      boolean interactive,
      boolean verbose)
      throws IOException {
    List<String> failed = new ArrayList<>();
    long totalRows = 0;
    double totalSeconds = 0;
    try (Progress progress = Progress.start(err, interactive, "")) {
      for (int i = 0; i < queries.size(); i++) {
        String name = String.format(Locale.ROOT, "q%02d", queries.get(i));
        progress.restart(String.format(Locale.ROOT, "%s (%d/%d)", name, i + 1, queries.size()));
        long start = System.nanoTime();
        String rows;
        try {
          long count = run(quiver, queries.get(i), name, progress);
          totalRows += count;
          rows = Long.toString(count);
        } catch (RuntimeException | IOException e) {
          failed.add(name);
          rows = "FAILED";
          progress.quiet(
              () -> {
                err.println("quiver: " + name + ": " + Errors.message(e));
                if (verbose) {
                  e.printStackTrace(err);
                }
                err.flush();
              });
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        totalSeconds += seconds;
        String row = line(name, rows, String.format(Locale.ROOT, "%.3f", seconds));
        progress.quiet(
            () -> {
              stdout.print(row);
              stdout.flush();
            });
      }
    }
    stdout.print(TextTable.separator(WIDTHS));
    stdout.print(
        line("total", Long.toString(totalRows), String.format(Locale.ROOT, "%.3f", totalSeconds)));
    stdout.flush();
    return failed;
  }

  private long run(QuiverSession quiver, int query, String name, Progress progress)
      throws IOException {
    String sql = TpchQueries.text(query);
    if (out == null) {
      return ResultStreaming.run(quiver, sql, null, null, progress);
    }
    try (ResultOutput file = ResultOutput.file(out.resolve(name + ".csv"))) {
      long rows =
          ResultStreaming.run(quiver, sql, ResultFormat.CSV.writer(file.writer()), file, progress);
      file.commit();
      return rows;
    }
  }

  private static String line(String query, String rows, String seconds) {
    return TextTable.line(new String[] {query, rows, seconds}, WIDTHS, RIGHT);
  }

  /** {@code all}, or numbers and ranges {@code 1,3,5-7}, each in 1..22; sorted, no repeats. */
  static List<Integer> parseQueries(String text) {
    if (text.strip().equalsIgnoreCase("all")) {
      return TpchQueries.all();
    }
    TreeSet<Integer> numbers = new TreeSet<>();
    for (String part : text.split(",", -1)) {
      String item = part.strip();
      int dash = item.indexOf('-', 1);
      int from = number(dash < 0 ? item : item.substring(0, dash), text);
      int to = dash < 0 ? from : number(item.substring(dash + 1), text);
      if (to < from) {
        throw new IllegalArgumentException("empty range " + item + " in '" + text + "'");
      }
      for (int q = from; q <= to; q++) {
        numbers.add(q);
      }
    }
    return List.copyOf(numbers);
  }

  private static int number(String text, String list) {
    try {
      int q = Integer.parseInt(text.strip());
      if (q >= 1 && q <= TpchQueries.COUNT) {
        return q;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        "expected all or query numbers 1 to 22 like 1,3,5-7, not '" + list + "'");
  }
}
