package dev.quiver.formats;

import static java.util.Objects.requireNonNull;

import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a table's files into splits, before any task runs.
 *
 * <p>With a predicate, each Parquet file's footer is read and a file none of whose row groups may
 * match is left out; the split of a file that stays weighs only its possibly matching row groups.
 */
public final class SplitPlanner {
  private static final Logger LOG = LoggerFactory.getLogger(SplitPlanner.class);

  private SplitPlanner() {}

  /** The splits of {@code table}, in path order, without files the predicate rules out. */
  public static List<FileSplit> plan(TableFiles table, Optional<ScanPredicate> predicate) {
    requireNonNull(table, "table is null");
    requireNonNull(predicate, "predicate is null");
    List<FileSplit> splits = new ArrayList<>(table.files().size());
    int skipped = 0;
    for (DataFile file : table.files()) {
      if (table.format() != FileFormat.PARQUET) {
        long rows = table.format() == FileFormat.ARROW_IPC ? IpcFooter.rows(file.path()) : -1;
        splits.add(
            new FileSplit(
                file.path(),
                table.format(),
                file.bytes(),
                rows,
                FileVersion.of(Paths.get(file.path()))));
        continue;
      }
      // The version before the footer: a file rewritten in between fails when it is read.
      FileVersion version = FileVersion.of(Paths.get(file.path()));
      ParquetFooter.Metadata footer = ParquetFooter.read(Paths.get(file.path()));
      long bytes = file.bytes();
      if (predicate.isPresent()) {
        long matching = 0;
        int groups = 0;
        for (ParquetFooter.RowGroup rowGroup : footer.rowGroups()) {
          if (predicate.get().mightMatch(rowGroup)) {
            matching += rowGroup.compressedBytes();
            groups++;
          }
        }
        if (groups == 0 && !footer.rowGroups().isEmpty()) {
          skipped++;
          continue;
        }
        bytes = groups == footer.rowGroups().size() ? bytes : matching;
      }
      splits.add(new FileSplit(file.path(), FileFormat.PARQUET, bytes, footer.rows(), version));
    }
    if (skipped > 0) {
      LOG.debug(
          "{}: statistics skip {} of {} files for {}",
          table.location(),
          skipped,
          table.files().size(),
          predicate.get());
    }
    return splits;
  }
}
