package dev.quiver.formats;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;

/**
 * The unit of scan work: one whole file.
 *
 * <p>Parquet row groups are not separate splits: Arrow's Java dataset API cannot read a chosen
 * subset of a file's row groups, so a file is always read by one task (the planner then spreads a
 * large file's rows over the tasks after reading, {@code SpreadUnbalancedScans}). Row groups still
 * matter: their statistics skip whole files at planning time and single row groups while reading
 * (see {@link ScanPredicate}), and {@link #bytes} counts only the row groups that may match.
 *
 * @param path the absolute file path
 * @param format the file's format
 * @param bytes the weight used to balance tasks: the file size, or for Parquet with a predicate the
 *     compressed size of the row groups that may match
 * @param rows the file's row count, or -1 if unknown without reading (CSV)
 * @param version the file's size and modification time when the split was planned, or {@link
 *     FileVersion#UNKNOWN}: a reader refuses a file that has changed since (its row count, row
 *     groups and statistics, which planning used, may no longer hold)
 */
public record FileSplit(String path, FileFormat format, long bytes, long rows, FileVersion version)
    implements Serializable {
  public FileSplit {
    requireNonNull(path, "path is null");
    requireNonNull(format, "format is null");
    requireNonNull(version, "version is null");
    if (bytes < 0) {
      throw new IllegalArgumentException("bytes is negative: " + bytes);
    }
  }

  /** A split whose file version is not known (never checked). */
  public FileSplit(String path, FileFormat format, long bytes, long rows) {
    this(path, format, bytes, rows, FileVersion.UNKNOWN);
  }
}
