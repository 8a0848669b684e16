package dev.quiver.formats;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Resolves a table location to its data files.
 *
 * <p>A location is one of:
 *
 * <ul>
 *   <li>a file: the table is that file;
 *   <li>a directory: every regular file directly inside it whose extension names the format
 *       (subdirectories are not read);
 *   <li>a glob such as {@code /data/lineitem/part-*.parquet} or {@code /data/**}{@code .csv}: every
 *       regular file the pattern matches ({@code **} crosses directories, {@code *} does not).
 * </ul>
 *
 * <p>Names starting with {@code .} or {@code _} are skipped in directories and globs: they are
 * hidden files, markers such as {@code _SUCCESS} and the temporary files of Quiver's writers. A
 * location may be a path or a {@code file:} URI. Files are sorted by path, so a table always has
 * the same split order.
 */
public final class TableLocations {
  private static final String GLOB_CHARS = "*?[{";

  private TableLocations() {}

  /**
   * The files of the table at {@code location}.
   *
   * @param format the table's format; when empty it is taken from the file extensions, which must
   *     then all agree
   * @throws QuiverException {@link ErrorCode#FILE_NOT_FOUND} when the location does not exist or
   *     holds no data files, {@link ErrorCode#INVALID_ARGUMENT} when the format cannot be told
   */
  public static TableFiles resolve(String location, Optional<FileFormat> format) {
    requireNonNull(location, "location is null");
    requireNonNull(format, "format is null");
    String path = stripFileScheme(location);
    List<Path> candidates;
    boolean explicitFile = false;
    if (path.chars().anyMatch(c -> GLOB_CHARS.indexOf(c) >= 0)) {
      candidates = glob(location, path);
    } else {
      Path file = Paths.get(path).toAbsolutePath().normalize();
      if (Files.isRegularFile(file)) {
        candidates = List.of(file);
        explicitFile = true;
      } else if (Files.isDirectory(file)) {
        candidates = list(file);
      } else {
        throw new QuiverException(
            ErrorCode.FILE_NOT_FOUND, "Table location '" + location + "' does not exist");
      }
    }
    FileFormat resolved = format.orElseGet(() -> detect(location, candidates));
    List<DataFile> files = new ArrayList<>();
    for (Path candidate : candidates) {
      Optional<FileFormat> detected = FileFormat.fromFileName(candidate.getFileName().toString());
      // A file named explicitly is read as the given format whatever its extension says.
      if (explicitFile || detected.equals(Optional.of(resolved))) {
        files.add(new DataFile(candidate.toString(), size(candidate)));
      }
    }
    if (files.isEmpty()) {
      throw new QuiverException(
          ErrorCode.FILE_NOT_FOUND,
          "Table location '"
              + location
              + "' holds no "
              + resolved
              + " files "
              + extensions(resolved));
    }
    return new TableFiles(location, resolved, files);
  }

  private static FileFormat detect(String location, List<Path> candidates) {
    Set<FileFormat> formats = new TreeSet<>();
    for (Path candidate : candidates) {
      FileFormat.fromFileName(candidate.getFileName().toString()).ifPresent(formats::add);
    }
    if (formats.isEmpty()) {
      if (candidates.size() == 1) {
        throw new QuiverException(
            ErrorCode.INVALID_ARGUMENT,
            "Cannot tell the format of '"
                + location
                + "' from its extension: name the format (parquet, csv or arrow)");
      }
      throw new QuiverException(
          ErrorCode.FILE_NOT_FOUND,
          "Table location '" + location + "' holds no .parquet, .csv or .arrow files");
    }
    if (formats.size() > 1) {
      throw new QuiverException(
          ErrorCode.INVALID_ARGUMENT,
          "Table location '"
              + location
              + "' mixes file formats "
              + formats
              + ": name the format to read, or separate the files");
    }
    return formats.iterator().next();
  }

  private static List<Path> list(Path directory) {
    try (Stream<Path> entries = Files.list(directory)) {
      return entries
          .filter(p -> !hidden(p.getFileName().toString()) && Files.isRegularFile(p))
          .sorted(Comparator.comparing(Path::toString))
          .collect(Collectors.toList());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + directory, e);
    }
  }

  private static List<Path> glob(String location, String pattern) {
    Path absolute = Paths.get(pattern).toAbsolutePath().normalize();
    // The base is the longest leading run of path elements without glob characters.
    Path base = absolute.getRoot();
    int depth = 0;
    boolean inGlob = false;
    for (Path element : absolute) {
      if (!inGlob && element.toString().chars().noneMatch(c -> GLOB_CHARS.indexOf(c) >= 0)) {
        base = base.resolve(element);
      } else {
        inGlob = true;
        depth++;
      }
    }
    if (!Files.isDirectory(base)) {
      throw new QuiverException(
          ErrorCode.FILE_NOT_FOUND,
          "Table location '" + location + "': directory " + base + " does not exist");
    }
    PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + absolute);
    int maxDepth = absolute.toString().contains("**") ? Integer.MAX_VALUE : depth;
    Path root = base;
    try (Stream<Path> entries = Files.walk(base, maxDepth)) {
      List<Path> matches =
          entries
              .filter(p -> Files.isRegularFile(p) && matcher.matches(p) && !hiddenBelow(root, p))
              .sorted(Comparator.comparing(Path::toString))
              .collect(Collectors.toList());
      if (matches.isEmpty()) {
        throw new QuiverException(
            ErrorCode.FILE_NOT_FOUND, "Table location '" + location + "' matches no files");
      }
      return matches;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + base, e);
    }
  }

  // Textually, not with java.net.URI: a glob's [ and { are not legal in a URI.
  private static String stripFileScheme(String location) {
    if (location.startsWith("file://")) {
      return location.substring("file://".length());
    }
    return location.startsWith("file:") ? location.substring("file:".length()) : location;
  }

  private static boolean hiddenBelow(Path base, Path file) {
    for (Path element : base.relativize(file)) {
      if (hidden(element.toString())) {
        return true;
      }
    }
    return false;
  }

  private static boolean hidden(String name) {
    return name.startsWith(".") || name.startsWith("_");
  }

  private static String extensions(FileFormat format) {
    return "(" + String.join(", ", format.extensions()) + ")";
  }

  private static long size(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw new QuiverException(
          ErrorCode.FILE_NOT_FOUND, "Cannot read the size of " + file + ": " + e.getMessage(), e);
    }
  }
}
