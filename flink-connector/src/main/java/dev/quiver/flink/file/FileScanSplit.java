package dev.quiver.flink.file;

import static java.util.Objects.requireNonNull;

import dev.quiver.formats.FileSplit;
import java.io.Serializable;
import org.apache.flink.api.connector.source.SourceSplit;

/**
 * A {@link FileSplit} as a Flink source split: the file, the task the planner gave it to, its
 * position in that task's list, and how many rows of it have been emitted (so that a reader
 * restored from a checkpoint resumes after them instead of emitting them twice).
 *
 * @param task the index of the task that reads this split (fixed at planning time)
 * @param index the split's position in its task's list
 * @param file the file
 * @param rowsRead rows already emitted
 */
public record FileScanSplit(int task, int index, FileSplit file, long rowsRead)
    implements SourceSplit, Serializable {
  public FileScanSplit {
    requireNonNull(file, "file is null");
    if (task < 0 || index < 0 || rowsRead < 0) {
      throw new IllegalArgumentException(
          "negative task, index or rowsRead: " + task + ", " + index + ", " + rowsRead);
    }
  }

  /** Unique within a scan: the task and the position in its list. */
  @Override
  public String splitId() {
    return task + "/" + index;
  }

  /** This split after {@code rows} more rows were emitted. */
  public FileScanSplit advance(long rows) {
    return new FileScanSplit(task, index, file, rowsRead + rows);
  }

  @Override
  public String toString() {
    return "FileScanSplit[" + splitId() + " " + file.path() + ", rowsRead=" + rowsRead + "]";
  }
}
