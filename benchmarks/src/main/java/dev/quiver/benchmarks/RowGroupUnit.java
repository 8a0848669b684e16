package dev.quiver.benchmarks;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.io.LocalInputFile;

/**
 * One row group of one Parquet file: the split unit a row-group-splitting reader would be given.
 *
 * @param file the file
 * @param index the row group's index in the file's footer
 * @param start the file offset of its first column chunk
 * @param bytes the compressed size of all its column chunks
 * @param rows its row count
 */
record RowGroupUnit(Path file, int index, long start, long bytes, long rows) {
  RowGroupUnit {
    requireNonNull(file, "file is null");
  }

  /** The row groups of {@code files}, in file order. */
  static List<RowGroupUnit> of(List<Path> files) {
    List<RowGroupUnit> units = new ArrayList<>();
    for (Path file : files) {
      try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
        List<BlockMetaData> blocks = reader.getRowGroups();
        for (int i = 0; i < blocks.size(); i++) {
          BlockMetaData block = blocks.get(i);
          units.add(
              new RowGroupUnit(
                  file, i, block.getStartingPos(), block.getCompressedSize(), block.getRowCount()));
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the footer of " + file, e);
      }
    }
    return List.copyOf(units);
  }

  /**
   * {@code units} cut into {@code parts} contiguous runs of about equal bytes (what a planner that
   * gives each task a range of row groups would do).
   */
  static List<List<RowGroupUnit>> split(List<RowGroupUnit> units, int parts) {
    long total = units.stream().mapToLong(RowGroupUnit::bytes).sum();
    List<List<RowGroupUnit>> result = new ArrayList<>();
    List<RowGroupUnit> current = new ArrayList<>();
    long done = 0;
    for (RowGroupUnit unit : units) {
      // Close the current part once it holds its share of the bytes.
      if (!current.isEmpty()
          && result.size() < parts - 1
          && done + unit.bytes() / 2 > total * (result.size() + 1) / parts) {
        result.add(List.copyOf(current));
        current.clear();
      }
      current.add(unit);
      done += unit.bytes();
    }
    result.add(List.copyOf(current));
    return List.copyOf(result);
  }
}
