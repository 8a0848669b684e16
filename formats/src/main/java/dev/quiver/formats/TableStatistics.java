package dev.quiver.formats;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * Row counts and sizes of a table for the planner, from file metadata only: the Parquet footer
 * (exact rows), the Arrow IPC footer and batch headers (exact rows), and for CSV the file size with
 * rows estimated from the line length of the first MiB.
 *
 * @param rows the table's rows (an estimate unless {@code exact})
 * @param exact whether {@code rows} is exact
 * @param bytes the table's size on disk
 * @param files the statistics of each file, in the table's file order
 */
public record TableStatistics(
    long rows, boolean exact, long bytes, List<TableStatistics.FileStatistics> files) {
  private static final int SAMPLE_BYTES = 1 << 20;

  /** One file's statistics; {@code exact} says whether {@code rows} is. */
  public record FileStatistics(String path, long rows, boolean exact, long bytes) {}

  public TableStatistics {
    files = List.copyOf(requireNonNull(files, "files is null"));
  }

  /** Reads the statistics of every file of {@code table}. */
  public static TableStatistics of(TableFiles table, CsvOptions csv) {
    requireNonNull(table, "table is null");
    requireNonNull(csv, "csv is null");
    List<FileStatistics> files = new ArrayList<>(table.files().size());
    long rows = 0;
    long bytes = 0;
    boolean exact = true;
    for (DataFile file : table.files()) {
      FileStatistics stats =
          switch (table.format()) {
            case PARQUET ->
                new FileStatistics(
                    file.path(),
                    ParquetFooter.read(Paths.get(file.path())).rows(),
                    true,
                    file.bytes());
            case ARROW_IPC ->
                new FileStatistics(file.path(), IpcFooter.rows(file.path()), true, file.bytes());
            case CSV ->
                new FileStatistics(
                    file.path(), estimateCsvRows(file, csv.header()), false, file.bytes());
          };
      files.add(stats);
      rows += stats.rows();
      bytes += stats.bytes();
      exact &= stats.exact();
    }
    return new TableStatistics(rows, exact, bytes, files);
  }

  // Lines in the first MiB give the mean line length; the rest of the file is assumed alike.
  private static long estimateCsvRows(DataFile file, boolean header) {
    byte[] sample = new byte[(int) Math.min(SAMPLE_BYTES, file.bytes())];
    int read = 0;
    try (InputStream in = Files.newInputStream(Paths.get(file.path()))) {
      while (read < sample.length) {
        int n = in.read(sample, read, sample.length - read);
        if (n < 0) {
          break;
        }
        read += n;
      }
    } catch (IOException e) {
      throw new QuiverException(
          ErrorCode.FILE_NOT_FOUND, "Cannot read CSV file " + file.path() + ": " + e, e);
    }
    long lines = 0;
    for (int i = 0; i < read; i++) {
      if (sample[i] == '\n') {
        lines++;
      }
    }
    if (read > 0 && sample[read - 1] != '\n') {
      lines++; // a last line without a newline, or a partial line cut by the sample
    }
    long estimate = read >= file.bytes() ? lines : Math.round((double) lines * file.bytes() / read);
    return Math.max(0, estimate - (header ? 1 : 0));
  }
}
