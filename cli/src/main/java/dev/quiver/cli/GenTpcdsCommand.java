package dev.quiver.cli;

import dev.quiver.cli.tpcds.TpcdsGenerator;
import dev.quiver.formats.FileFormat;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code quiver gen tpcds}: writes the 24 TPC-DS tables with {@link TpcdsGenerator}. */
@Command(
    name = "tpcds",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Generate the 24 TPC-DS tables (io.trino.tpcds, the dsdgen port) into"
          + " DIR/<table>/part-CCCCC-NNN.<ext>, then DIR/_SUCCESS.",
      "Does nothing if DIR/_SUCCESS already records the same scale factor and format;"
          + " otherwise the table folders are replaced."
    },
    footerHeading = "%nExample:%n",
    footer = "  quiver gen tpcds --sf 1 --out /data/tpcds-sf1")
final class GenTpcdsCommand implements Callable<Integer> {
  /** The formats TPC-DS data can be written in. */
  enum Format {
    PARQUET,
    CSV
  }

  @Spec CommandSpec spec;

  @Option(
      names = "--sf",
      paramLabel = "SF",
      required = true,
      description =
          "Scale factor, e.g. 0.01, 0.1, 1 (store_sales has about 2.9 M x SF rows at SF 1 and"
              + " more; the small dimension tables scale less than linearly).")
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
      defaultValue = "" + TpcdsGenerator.DEFAULT_ROWS_PER_FILE)
  long rowsPerFile;

  @Override
  @SuppressWarnings("try") // the progress line shows while its block runs
  public Integer call() {
    if (!(scale > 0) || scale > 100_000) {
      throw new ParameterException(spec.commandLine(), "--sf must be in (0, 100000], not " + scale);
    }
    int threadCount = threads == null ? Runtime.getRuntime().availableProcessors() : threads;
    if (threadCount < 1 || rowsPerFile < 1) {
      throw new ParameterException(
          spec.commandLine(), "--threads and --rows-per-file must be at least 1");
    }
    FileFormat fileFormat = format == Format.CSV ? FileFormat.CSV : FileFormat.PARQUET;
    TpcdsGenerator generator = new TpcdsGenerator(out, scale, fileFormat, threadCount, rowsPerFile);
    TpcdsGenerator.Result result;
    String label = "generating TPC-DS SF " + TpchData.scaleText(scale);
    try (Progress progress =
        Progress.start(spec.commandLine().getErr(), Terminal.interactive(), label, false)) {
      result = generator.generate();
    }
    String what =
        "TPC-DS SF " + TpchData.scaleText(scale) + " " + format.name().toLowerCase(Locale.ROOT);
    GenerationReport.print(
        spec.commandLine().getOut(),
        what,
        out,
        result.skipped(),
        result.rows(),
        result.files(),
        result.millis(),
        22);
    return 0;
  }
}
