package dev.quiver.cli;

import static java.util.Objects.requireNonNull;

import dev.quiver.cli.format.ResultFormat;
import dev.quiver.cli.format.TextTable;
import dev.quiver.flink.session.QuiverSession;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;

/**
 * Runs numbered benchmark queries ({@code quiver tpch}, {@code quiver tpcds}) one after the other
 * in one session and prints one line per query as it finishes, then the total:
 *
 * <pre>
 *   query |     rows |  seconds
 *   ------+----------+---------
 *   q01   |        4 |    1.234
 *   q06   |   FAILED |    0.321
 *   ------+----------+---------
 *   total |        4 |    1.555
 * </pre>
 *
 * A query that fails prints its one-line error on stderr ({@code quiver: q06: ...}) and the next
 * one runs. With an output directory each result goes to {@code DIR/qNN.csv}.
 */
final class QueryRuns {
  private static final boolean[] RIGHT = {false, true, true};
  private static final int[] WIDTHS = {5, 8, 8};

  private final QuiverSession quiver;
  private final IntFunction<String> texts;
  private final Path out;
  private final PrintWriter stdout;
  private final PrintWriter err;
  private final boolean interactive;
  private final boolean verbose;

  /**
   * @param texts the text of query n
   * @param out where results go as {@code qNN.csv}, or null to only count rows
   */
  QueryRuns(
      QuiverSession quiver,
      IntFunction<String> texts,
      Path out,
      PrintWriter stdout,
      PrintWriter err,
      boolean interactive,
      boolean verbose) {
    this.quiver = requireNonNull(quiver, "quiver is null");
    this.texts = requireNonNull(texts, "texts is null");
    this.out = out;
    this.stdout = requireNonNull(stdout, "stdout is null");
    this.err = requireNonNull(err, "err is null");
    this.interactive = interactive;
    this.verbose = verbose;
  }

  /** Runs the queries, printing the header, a row for each and the total; returns the failed. */
  List<String> runAll(List<Integer> queries) throws IOException {
    stdout.print(line("query", "rows", "seconds"));
    stdout.print(TextTable.separator(WIDTHS));
    stdout.flush();
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
          long count = run(texts.apply(queries.get(i)), name, progress);
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

  private long run(String sql, String name, Progress progress) throws IOException {
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
}
