package dev.quiver.formats;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

/**
 * A file as it was when a query was planned: its size and modification time. Planning reads footers
 * (row counts, row groups, statistics that skip data) and spreads files over tasks by size; a file
 * rewritten or replaced between planning and reading would be read against a plan made for other
 * contents, so {@link #check} refuses it with an error that names the file. Re-running the query
 * plans it again against the file as it is now.
 *
 * @param size the file size in bytes, -1 if unknown
 * @param modifiedMicros the modification time in microseconds since the epoch, -1 if unknown
 */
public record FileVersion(long size, long modifiedMicros) implements Serializable {
  /** No version: never checked (splits made by hand, splits restored from older checkpoints). */
  public static final FileVersion UNKNOWN = new FileVersion(-1, -1);

  /**
   * The version of {@code file} now.
   *
   * @throws QuiverException {@link ErrorCode#FILE_NOT_FOUND} if it does not exist, {@link
   *     ErrorCode#INVALID_FILE} if its attributes cannot be read
   */
  public static FileVersion of(Path file) {
    requireNonNull(file, "file is null");
    try {
      BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
      return new FileVersion(
          attributes.size(), attributes.lastModifiedTime().to(TimeUnit.MICROSECONDS));
    } catch (NoSuchFileException e) {
      throw new QuiverException(
          ErrorCode.FILE_NOT_FOUND, "File " + file + " does not exist (was it deleted?)", e);
    } catch (IOException e) {
      throw new QuiverException(ErrorCode.INVALID_FILE, "Cannot read file " + file + ": " + e, e);
    }
  }

  /**
   * Checks that {@code file} is still this version.
   *
   * @throws QuiverException {@link ErrorCode#FILE_NOT_FOUND} if it was deleted, {@link
   *     ErrorCode#FILE_CHANGED} if it was rewritten since
   */
  public void check(Path file) {
    if (this.equals(UNKNOWN)) {
      return;
    }
    FileVersion now = of(file);
    if (!now.equals(this)) {
      throw new QuiverException(
          ErrorCode.FILE_CHANGED,
          "File "
              + file
              + " changed after the query was planned (size "
              + size
              + " -> "
              + now.size
              + " bytes, modified "
              + instant(modifiedMicros)
              + " -> "
              + instant(now.modifiedMicros)
              + "); run the query again");
    }
  }

  private static Instant instant(long micros) {
    return Instant.EPOCH.plusNanos(TimeUnit.MICROSECONDS.toNanos(micros));
  }
}
