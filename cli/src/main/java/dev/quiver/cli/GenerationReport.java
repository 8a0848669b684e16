package dev.quiver.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/** What {@code quiver gen tpch} and {@code quiver gen tpcds} print once their data is written. */
final class GenerationReport {
  private GenerationReport() {}

  /**
   * Rows and files per table and the total time, or that the data was already complete; {@code
   * what} is e.g. {@code TPC-H SF 0.1 parquet}, {@code nameWidth} the longest table name.
   */
  static void print(
      PrintWriter stdout,
      String what,
      Path out,
      boolean skipped,
      Map<String, Long> rows,
      Map<String, Integer> files,
      long millis,
      int nameWidth) {
    if (skipped) {
      stdout.println(what + " is already complete in " + out.toAbsolutePath());
      stdout.flush();
      return;
    }
    for (Map.Entry<String, Long> table : rows.entrySet()) {
      stdout.printf(
          Locale.ROOT,
          "%-" + nameWidth + "s %,12d rows %3d files%n",
          table.getKey(),
          table.getValue(),
          files.get(table.getKey()));
    }
    stdout.printf(
        Locale.ROOT, "%s written to %s in %.1f s%n", what, out.toAbsolutePath(), millis / 1000.0);
    stdout.flush();
  }
}
