package dev.quiver.formats;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;
import java.util.List;

/**
 * The files a table location resolved to: never empty, all of one format, sorted by path.
 *
 * @param location the location as the user gave it (for messages)
 * @param format the format of every file
 * @param files the data files, sorted by path
 */
public record TableFiles(String location, FileFormat format, List<DataFile> files)
    implements Serializable {
  public TableFiles {
    requireNonNull(location, "location is null");
    requireNonNull(format, "format is null");
    files = List.copyOf(requireNonNull(files, "files is null"));
    if (files.isEmpty()) {
      throw new IllegalArgumentException("a table has at least one file");
    }
  }

  /** The total size of all files in bytes. */
  public long bytes() {
    return files.stream().mapToLong(DataFile::bytes).sum();
  }
}
