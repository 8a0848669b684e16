package dev.quiver.plan.node;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * The smallest piece of a table one task reads: a whole file, or one row group of a file. The
 * planner spreads units over tasks by their {@link #bytes()} (see {@code SplitAssigner}).
 */
public final class SplitUnit implements Serializable {
  private static final long serialVersionUID = 1L;

  /** {@link #rows()} when the row count is not known before reading. */
  public static final long UNKNOWN_ROWS = -1;

  private static final int WHOLE_FILE = -1;

  private final String path;
  private final int rowGroup;
  private final long bytes;
  private final long rows;

  private SplitUnit(String path, int rowGroup, long bytes, long rows) {
    this.path = requireNonNull(path, "path is null");
    if (bytes < 0) {
      throw new IllegalArgumentException("bytes is negative: " + bytes);
    }
    if (rows < UNKNOWN_ROWS) {
      throw new IllegalArgumentException("rows is negative: " + rows);
    }
    this.rowGroup = rowGroup;
    this.bytes = bytes;
    this.rows = rows;
  }

  /** A whole file of {@code bytes} bytes and {@code rows} rows (or {@link #UNKNOWN_ROWS}). */
  public static SplitUnit file(String path, long bytes, long rows) {
    return new SplitUnit(path, WHOLE_FILE, bytes, rows);
  }

  /** Row group {@code rowGroup} of the file at {@code path}. */
  public static SplitUnit rowGroup(String path, int rowGroup, long bytes, long rows) {
    if (rowGroup < 0) {
      throw new IllegalArgumentException("rowGroup is negative: " + rowGroup);
    }
    return new SplitUnit(path, rowGroup, bytes, rows);
  }

  public String path() {
    return path;
  }

  /** The row group index, or empty for a whole file. */
  public OptionalInt rowGroup() {
    return rowGroup == WHOLE_FILE ? OptionalInt.empty() : OptionalInt.of(rowGroup);
  }

  public long bytes() {
    return bytes;
  }

  /** The row count, or {@link #UNKNOWN_ROWS}. */
  public long rows() {
    return rows;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof SplitUnit)) {
      return false;
    }
    SplitUnit that = (SplitUnit) other;
    return path.equals(that.path)
        && rowGroup == that.rowGroup
        && bytes == that.bytes
        && rows == that.rows;
  }

  @Override
  public int hashCode() {
    return Objects.hash(path, rowGroup, bytes, rows);
  }

  /** For example {@code part-0.parquet#3 (1048576 B)}. */
  @Override
  public String toString() {
    return path + (rowGroup == WHOLE_FILE ? "" : "#" + rowGroup) + " (" + bytes + " B)";
  }
}
