package dev.quiver.formats;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;

/**
 * One data file of a table: its absolute path and its size in bytes when the table was resolved.
 */
public record DataFile(String path, long bytes) implements Serializable {
  public DataFile {
    requireNonNull(path, "path is null");
    if (bytes < 0) {
      throw new IllegalArgumentException("bytes is negative: " + bytes);
    }
  }
}
