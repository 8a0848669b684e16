package dev.quiver.cli;

import dev.quiver.cli.tpcds.TpcdsGenerator;
import dev.quiver.cli.tpcds.TpcdsSchemas;
import dev.quiver.formats.FileFormat;
import io.trino.tpcds.Table;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where {@code quiver tpcds} keeps its data sets, and making sure one is there before the queries
 * run: cached per scale factor in {@code $XDG_CACHE_HOME/quiver/tpcds-sf<SF>} ({@code
 * ~/.cache/quiver/...} without it), generated once. A directory counts as holding SF x when its
 * {@link TpcdsGenerator#SUCCESS} marker says {@code dataset=tpcds} and {@code scale=x}.
 */
final class TpcdsData {
  // About 8 files for store_sales, so that 8 tasks get a file each; 1 M rows at most.
  private static final int FILES = 8;
  private static final long MIN_ROWS_PER_FILE = 50_000;

  private TpcdsData() {}

  /** The cache directory of scale factor {@code scale}. */
  static Path defaultDir(double scale, Map<String, String> env, String userHome) {
    return TpchData.cacheRoot(env, userHome).resolve("tpcds-sf" + TpchData.scaleText(scale));
  }

  /** The scale factor the marker of {@code dir} records, if it is a TPC-DS marker. */
  static Optional<Double> markedScale(Path dir) {
    Path marker = dir.resolve(TpcdsGenerator.SUCCESS);
    if (!Files.isRegularFile(marker)) {
      return Optional.empty();
    }
    try {
      List<String> lines = Files.readAllLines(marker);
      if (!lines.contains("dataset=tpcds")) {
        return Optional.empty();
      }
      for (String line : lines) {
        if (line.startsWith("scale=")) {
          return Optional.of(Double.parseDouble(line.substring("scale=".length()).strip()));
        }
      }
    } catch (IOException | NumberFormatException e) {
      // an unreadable marker is no marker
    }
    return Optional.empty();
  }

  /** Whether {@code dir} has a folder for every one of the 24 tables (data from anywhere). */
  static boolean hasTables(Path dir) {
    for (Table table : TpcdsSchemas.tables()) {
      if (!Files.isDirectory(dir.resolve(table.getName()))) {
        return false;
      }
    }
    return true;
  }

  /** Rows per generated file for {@code scale}. */
  static long rowsPerFile(double scale) {
    long storeSales = (long) Math.ceil(2_880_404 * scale);
    long perFile = (storeSales + FILES - 1) / FILES;
    return Math.max(MIN_ROWS_PER_FILE, Math.min(TpcdsGenerator.DEFAULT_ROWS_PER_FILE, perFile));
  }

  /**
   * Makes sure {@code dir} holds TPC-DS at {@code scale}: nothing to do if its marker says so, or
   * if it has no marker but a folder per table (a data set from elsewhere, used as it is);
   * generated (Parquet) if it has neither; an error if its marker records another scale factor.
   *
   * @return whether data was generated
   */
  static boolean ensure(Path dir, double scale, int threads) {
    Optional<Double> marked = markedScale(dir);
    if (marked.isPresent()) {
      if (marked.get() == scale) {
        return false;
      }
      String other = TpchData.scaleText(marked.get());
      throw new CliException(
          dir
              + " holds TPC-DS SF "
              + other
              + ", not SF "
              + TpchData.scaleText(scale)
              + ": pass --sf "
              + other
              + " or another --data directory");
    }
    if (hasTables(dir)) {
      return false;
    }
    new TpcdsGenerator(dir, scale, FileFormat.PARQUET, threads, rowsPerFile(scale)).generate();
    return true;
  }
}
