package dev.quiver.cli;

import dev.quiver.cli.format.ResultFormat;
import dev.quiver.flink.session.QuiverSession;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code quiver sql}: runs one query over files and prints its result. */
@Command(
    name = "sql",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "Run a SQL query over Parquet, CSV or Arrow IPC files and print its result.",
    footerHeading = "%nExamples:%n",
    footer = {
      "  quiver sql --table orders=data/orders.parquet \\",
      "      \"SELECT o_orderstatus, count(*) FROM orders GROUP BY o_orderstatus\"",
      "  quiver sql --catalog ~/.cache/quiver/tpch-sf0.1 --format csv -f q1.sql >q1.csv"
    })
final class SqlCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin TableOptions tables;

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      defaultValue = "table",
      description =
          "table (aligned columns, the default; holds the whole result in memory), csv (RFC"
              + " 4180 with a header) or json (JSON Lines: one object per row).")
  ResultFormat format;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FILE",
      description = "Write the result to FILE (replaced only when complete) instead of stdout.")
  Path output;

  @Mixin SessionOptions session;

  @ArgGroup(exclusive = true, multiplicity = "1")
  QueryInput query;

  @SuppressWarnings("try") // the guard is held for the query: it cancels the job on Ctrl-C
  @Override
  public Integer call() throws Exception {
    String sql = query.read(spec.commandLine(), System.in);
    boolean verbose = Errors.verbose(spec.root().commandLine().getParseResult());
    long start = System.nanoTime();
    long rows;
    try (QuiverSession quiver = session.open();
        CancelOnExit exit = CancelOnExit.guard(quiver, spec.commandLine().getErr())) {
      tables.register(quiver);
      long queryStart = System.nanoTime();
      try (ResultOutput out = ResultOutput.of(output, spec.commandLine().getOut());
          Progress progress =
              Progress.start(spec.commandLine().getErr(), Terminal.interactive(), "query")) {
        rows = ResultStreaming.run(quiver, sql, format.writer(out.writer()), out, progress);
        out.commit();
      }
      if (verbose) {
        spec.commandLine()
            .getErr()
            .println(
                String.format(
                    Locale.ROOT,
                    "quiver: %d rows in %.3f s (%.3f s with the session's start)",
                    rows,
                    (System.nanoTime() - queryStart) / 1e9,
                    (System.nanoTime() - start) / 1e9));
      }
    }
    return 0;
  }
}
