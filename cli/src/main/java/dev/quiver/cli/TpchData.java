package dev.quiver.cli;

import dev.quiver.cli.tpch.TpchGenerator;
import dev.quiver.formats.FileFormat;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Where {@code quiver tpch} keeps its data sets, and making sure one is there before the queries
 * run.
 *
 * <p>Data sets are cached per scale factor in {@code $XDG_CACHE_HOME/quiver/tpch-sf<SF>} ({@code
 * ~/.cache/quiver/...} without it) and generated once. A directory counts as holding SF x when its
 * {@link TpchGenerator#SUCCESS} marker says {@code scale=x} (Parquet or CSV); with no marker it is
 * (re)generated, which is also how an interrupted generation is completed.
 */
final class TpchData {
  // About 8 files for the largest table, so that 8 tasks get a file each; 1 M rows at most.
  private static final int FILES = 8;
  private static final long MIN_ROWS_PER_FILE = 10_000;

  private TpchData() {}

  /** The cache directory of scale factor {@code scale}. */
  static Path defaultDir(double scale, Map<String, String> env, String userHome) {
    return cacheRoot(env, userHome).resolve("tpch-sf" + scaleText(scale));
  }

  /** {@code $XDG_CACHE_HOME/quiver} if set (and absolute), else {@code ~/.cache/quiver}. */
  static Path cacheRoot(Map<String, String> env, String userHome) {
    String xdg = env.get("XDG_CACHE_HOME");
    Path cache =
        xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()
            ? Path.of(xdg)
            : Path.of(userHome, ".cache");
    return cache.resolve("quiver");
  }

  /** {@code 0.1}, {@code 1}, {@code 10}: the scale factor without trailing zeros or exponent. */
  static String scaleText(double scale) {
    return BigDecimal.valueOf(scale).stripTrailingZeros().toPlainString();
  }

  /** The scale factor the marker of {@code dir} records, if it has one. */
  static Optional<Double> markedScale(Path dir) {
    Path marker = dir.resolve(TpchGenerator.SUCCESS);
    if (!Files.isRegularFile(marker)) {
      return Optional.empty();
    }
    try {
      for (String line : Files.readAllLines(marker)) {
        if (line.startsWith("scale=")) {
          return Optional.of(Double.parseDouble(line.substring("scale=".length()).strip()));
        }
      }
    } catch (IOException | NumberFormatException e) {
      // an unreadable marker is no marker
    }
    return Optional.empty();
  }

  /** Rows per generated file for {@code scale}. */
  static long rowsPerFile(double scale) {
    long lineitem = (long) Math.ceil(6_000_000 * scale);
    long perFile = (lineitem + FILES - 1) / FILES;
    return Math.max(MIN_ROWS_PER_FILE, Math.min(TpchGenerator.DEFAULT_ROWS_PER_FILE, perFile));
  }

  /**
   * Makes sure {@code dir} holds TPC-H at {@code scale}: nothing to do if its marker says so,
   * generated (Parquet) if it has no marker, an error if it holds another scale factor.
   *
   * @return whether data was generated
   */
  static boolean ensure(Path dir, double scale, int threads) {
    Optional<Double> marked = markedScale(dir);
    if (marked.isPresent()) {
      if (marked.get() == scale) {
        return false;
      }
      throw new CliException(
          dir
              + " holds TPC-H SF "
              + scaleText(marked.get())
              + ", not SF "
              + scaleText(scale)
              + ": pass --sf "
              + scaleText(marked.get())
              + " or another --data directory");
    }
    new TpchGenerator(dir, scale, FileFormat.PARQUET, threads, rowsPerFile(scale)).generate();
    return true;
  }
}
