package dev.quiver.cli;

import dev.quiver.cli.tpch.TpchGenerator;
import dev.quiver.formats.FileFormat;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code quiver gen tpch}: writes the eight TPC-H tables with {@link TpchGenerator}. */
@Command(
    name = "tpch",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Generate the eight TPC-H tables into DIR/<table>/part-NNNNN.<ext>, then DIR/_SUCCESS.",
      "Does nothing if DIR/_SUCCESS already records the same scale factor and format;"
          + " otherwise the table folders are replaced."
    },
    footerHeading = "%nExample:%n",
    footer = "  quiver gen tpch --sf 1 --out /data/tpch-sf1")
final class GenTpchCommand implements Callable<Integer> {
  /** The formats TPC-H data can be written in. */
  enum Format {
    PARQUET,
    CSV
  }

  @Spec CommandSpec spec;

  @Option(
      names = "--sf",
      paramLabel = "SF",
      required = true,
      description = "Scale factor (lineitem has about 6 M x SF rows).")
  double scale;

  @Option(names = "--out", paramLabel = "DIR", required = true, description = "Target directory.")
  Path out;

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      defaultValue = "parquet",
      description = "parquet (default) or csv.")
  Format format;

  @Option(
      names = "--threads",
      paramLabel = "N",
      description = "Generator threads (default: the processors).")
  Integer threads;

  @Option(
      names = "--rows-per-file",
      paramLabel = "N",
      description = "Rows per file (default ${DEFAULT-VALUE}).",
      defaultValue = "" + TpchGenerator.DEFAULT_ROWS_PER_FILE)
  long rowsPerFile;

  @Override
  @SuppressWarnings("try") // the progress line shows while its block runs
  public Integer call() {
    if (!(scale > 0)) {
      throw new ParameterException(spec.commandLine(), "--sf must be positive, not " + scale);
    }
    int threadCount = threads == null ? Runtime.getRuntime().availableProcessors() : threads;
    if (threadCount < 1 || rowsPerFile < 1) {
      throw new ParameterException(
          spec.commandLine(), "--threads and --rows-per-file must be at least 1");
    }
    FileFormat fileFormat = format == Format.CSV ? FileFormat.CSV : FileFormat.PARQUET;
    TpchGenerator generator = new TpchGenerator(out, scale, fileFormat, threadCount, rowsPerFile);
    TpchGenerator.Result result;
    String label = "generating TPC-H SF " + TpchData.scaleText(scale);
    try (Progress progress =
        Progress.start(spec.commandLine().getErr(), Terminal.interactive(), label, false)) {
      result = generator.generate();
    }
    String what =
        "TPC-H SF " + TpchData.scaleText(scale) + " " + format.name().toLowerCase(Locale.ROOT);
    GenerationReport.print(
        spec.commandLine().getOut(),
        what,
        out,
        result.skipped(),
        result.rows(),
        result.files(),
        result.millis(),
        9);
    return 0;
  }
}
