package dev.quiver.examples.tpch;

import dev.quiver.flink.file.FileFormat;
import java.io.PrintStream;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;

/** The command line of {@link TpchGenerator}; the CLI owns stdout, so the summary goes there. */
final class TpchCommand {
  private static final String USAGE =
      "usage: TpchGenerator DIR [--scale SF] [--format parquet|csv] [--threads N]"
          + " [--rows-per-file N]";

  private TpchCommand() {}

  static int run(String[] args, PrintStream out, PrintStream err) {
    Path dir = null;
    double scale = 1;
    FileFormat format = FileFormat.PARQUET;
    int threads = Runtime.getRuntime().availableProcessors();
    long rowsPerFile = TpchGenerator.DEFAULT_ROWS_PER_FILE;
    try {
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--scale" -> scale = Double.parseDouble(value(args, ++i));
          case "--format" -> format = FileFormat.fromName(value(args, ++i));
          case "--threads" -> threads = Integer.parseInt(value(args, ++i));
          case "--rows-per-file" -> rowsPerFile = Long.parseLong(value(args, ++i));
          case "-h", "--help" -> {
            out.println(USAGE);
            return 0;
          }
          default -> {
            if (args[i].startsWith("-") || dir != null) {
              throw new IllegalArgumentException("unknown argument '" + args[i] + "'");
            }
            dir = Paths.get(args[i]);
          }
        }
      }
      if (dir == null) {
        throw new IllegalArgumentException("DIR is missing");
      }
      TpchGenerator.Result result =
          new TpchGenerator(dir, scale, format, threads, rowsPerFile).generate();
      if (result.skipped()) {
        out.println("TPC-H SF " + scale + " " + format + " is already complete in " + dir);
        return 0;
      }
      for (Map.Entry<String, Long> table : result.rows().entrySet()) {
        out.printf(
            "%-9s %,12d rows %3d files%n",
            table.getKey(), table.getValue(), result.files().get(table.getKey()));
      }
      out.printf(
          "TPC-H SF %s %s written to %s in %.1f s%n",
          scale, format, dir.toAbsolutePath(), result.millis() / 1000.0);
      return 0;
    } catch (IllegalArgumentException e) {
      err.println("TpchGenerator: " + e.getMessage() + "\n" + USAGE);
      return 2;
    } catch (RuntimeException e) {
      err.println("TpchGenerator: " + e);
      return 1;
    }
  }

  private static String value(String[] args, int i) {
    if (i >= args.length) {
      throw new IllegalArgumentException(args[i - 1] + " needs a value");
    }
    return args[i];
  }
}
