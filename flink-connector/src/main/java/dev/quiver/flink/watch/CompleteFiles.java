package dev.quiver.flink.watch;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.formats.FileFormat;
import dev.quiver.formats.FileVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Which files of a watched directory are complete: regular files directly in it whose names do not
 * start with {@code .} or {@code _} and end with the format's extension ({@code .parquet}, {@code
 * .csv}, ...). Writers stage a file under a hidden name (or in a hidden directory, as Quiver's own
 * writers do) and rename it when it is complete; a rename within a file system is atomic, so a file
 * is either not listed yet or listed whole. The same names are skipped when a directory is read as
 * a table.
 */
final class CompleteFiles {
  private CompleteFiles() {}

  /** A complete file and its version (size, modification time) when it was listed. */
  record Found(String path, FileVersion version) {}

  /** Whether a file of this name, in a directory of {@code format} files, is complete. */
  static boolean complete(String name, FileFormat format) {
    return !name.startsWith(".")
        && !name.startsWith("_")
        && FileFormat.fromFileName(name).filter(format::equals).isPresent();
  }

  /**
   * The complete files of {@code directory} now, oldest first (modification time, then name).
   *
   * @throws QuiverException {@link ErrorCode#FILE_NOT_FOUND} if the directory is gone
   */
  static List<Found> list(Path directory, FileFormat format) throws IOException {
    List<Found> found = new ArrayList<>();
    try (Stream<Path> entries = Files.list(directory)) {
      for (Path path : (Iterable<Path>) entries::iterator) {
        if (complete(path.getFileName().toString(), format) && Files.isRegularFile(path)) {
          version(path).ifPresent(v -> found.add(new Found(path.toString(), v)));
        }
      }
    } catch (NoSuchFileException e) {
      throw new QuiverException(
          ErrorCode.FILE_NOT_FOUND, "The watched directory " + directory + " no longer exists");
    }
    found.sort(
        Comparator.comparingLong((Found f) -> f.version().modifiedMicros())
            .thenComparing(Found::path));
    return found;
  }

  // A file deleted between the listing and this look is simply not there.
  private static Optional<FileVersion> version(Path path) {
    try {
      return Optional.of(FileVersion.of(path));
    } catch (QuiverException e) {
      return Optional.empty();
    }
  }
}
