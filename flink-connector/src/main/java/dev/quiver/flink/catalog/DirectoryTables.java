package dev.quiver.flink.catalog;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.formats.CsvOptions;
import dev.quiver.formats.FileFormat;
import dev.quiver.sql.CatalogTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A directory of tables, the layout TPC-H generators and most data dumps use: every entry directly
 * inside it is one table.
 *
 * <pre>
 *   data/
 *     lineitem/part-0.parquet, part-1.parquet   ─► table lineitem (a folder of files)
 *     nation.csv                                ─► table nation   (one file)
 *     region.arrow                              ─► table region
 *     README.md, .hidden, _SUCCESS              ─► skipped
 * </pre>
 *
 * A file's table is named after the file without its extension, and its format comes from the
 * extension; a folder's table is named after the folder and its format is detected from the files
 * inside. Entries whose names start with {@code .} or {@code _}, files of other extensions and
 * folders without data files are skipped. Two entries that would give tables of the same name
 * (names are case-insensitive in SQL) are an error rather than a silent choice.
 */
public final class DirectoryTables {
  private static final Logger LOG = LoggerFactory.getLogger(DirectoryTables.class);

  private DirectoryTables() {}

  /**
   * Opens every table of {@code directory}, sorted by name; CSV tables are parsed with {@code csv}.
   *
   * @throws QuiverException {@link ErrorCode#FILE_NOT_FOUND} if the directory does not exist or
   *     holds no tables, {@link ErrorCode#INVALID_ARGUMENT} if it is a file or two entries give the
   *     same table name, or any error of opening one of its tables
   */
  public static List<CatalogTable> open(Path directory, CsvOptions csv) {
    requireNonNull(directory, "directory is null");
    requireNonNull(csv, "csv is null");
    Path dir = directory.toAbsolutePath().normalize();
    if (!Files.exists(dir)) {
      throw new QuiverException(ErrorCode.FILE_NOT_FOUND, "Directory " + dir + " does not exist");
    }
    if (!Files.isDirectory(dir)) {
      throw new QuiverException(
          ErrorCode.INVALID_ARGUMENT,
          dir + " is a file, not a directory of tables: register it as one table");
    }
    Map<String, Path> seen = new HashMap<>();
    List<CatalogTable> tables = new ArrayList<>();
    for (Path entry : entries(dir)) {
      Optional<FileTableSpec> spec = spec(entry, csv);
      if (spec.isEmpty()) {
        LOG.debug("{}: not a table, skipped", entry);
        continue;
      }
      String name = tableName(entry);
      Path other = seen.put(name.toLowerCase(Locale.ROOT), entry);
      if (other != null) {
        throw new QuiverException(
            ErrorCode.INVALID_ARGUMENT,
            "Directory "
                + dir
                + " has two tables named '"
                + name
                + "': "
                + other.getFileName()
                + " and "
                + entry.getFileName()
                + "; rename one or register them one by one");
      }
      tables.add(FileCatalogTables.open(name, spec.get()));
    }
    if (tables.isEmpty()) {
      throw new QuiverException(
          ErrorCode.FILE_NOT_FOUND,
          "Directory "
              + dir
              + " holds no tables (.parquet, .csv or .arrow files, or folders of them)");
    }
    return List.copyOf(tables);
  }

  /** The table an entry holds, or empty if it holds none. */
  private static Optional<FileTableSpec> spec(Path entry, CsvOptions csv) {
    if (Files.isDirectory(entry)) {
      boolean hasData = entries(entry).stream().anyMatch(DirectoryTables::isDataFile);
      return hasData
          ? Optional.of(FileTableSpec.of(entry.toString()).withCsv(csv))
          : Optional.empty();
    }
    if (!isDataFile(entry)) {
      return Optional.empty();
    }
    FileFormat format = FileFormat.fromFileName(entry.getFileName().toString()).orElseThrow();
    return Optional.of(FileTableSpec.of(entry.toString()).withFormat(format).withCsv(csv));
  }

  private static boolean isDataFile(Path path) {
    return Files.isRegularFile(path)
        && FileFormat.fromFileName(path.getFileName().toString()).isPresent();
  }

  /** {@code lineitem} for {@code lineitem/} and {@code lineitem.parquet}. */
  static String tableName(Path entry) {
    String name = entry.getFileName().toString();
    if (Files.isDirectory(entry)) {
      return name;
    }
    int dot = name.lastIndexOf('.');
    return dot > 0 ? name.substring(0, dot) : name;
  }

  /** The visible entries of {@code dir}, sorted by name. */
  private static List<Path> entries(Path dir) {
    try (Stream<Path> list = Files.list(dir)) {
      return list.filter(p -> !hidden(p.getFileName().toString())).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + dir, e);
    }
  }

  private static boolean hidden(String name) {
    return name.startsWith(".") || name.startsWith("_");
  }
}
