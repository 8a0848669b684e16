package dev.quiver.flink.catalog;

import static java.util.Objects.requireNonNull;

import dev.quiver.formats.CsvOptions;
import dev.quiver.formats.FileFormat;
import dev.quiver.formats.FileTable;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Everything needed to open a table stored in files, and to open it again later from the options of
 * a planned scan: the same arguments as {@link FileTable#open}. Planning and execution happen at
 * different times (and, for a remote cluster, the plan is built long before any task runs), so a
 * scan carries this description as {@linkplain FileTableOptions options} rather than an open table.
 *
 * @param location a file, directory or glob (see {@code TableLocations})
 * @param format the format, or empty to detect it from the file extensions
 * @param csv how to parse CSV files (ignored for other formats)
 * @param schema a declared schema that overrides inference (may name a subset of the columns)
 */
public record FileTableSpec(
    String location, Optional<FileFormat> format, CsvOptions csv, Optional<Schema> schema) {
  public FileTableSpec {
    requireNonNull(location, "location is null");
    requireNonNull(format, "format is null");
    requireNonNull(csv, "csv is null");
    requireNonNull(schema, "schema is null");
    if (location.isBlank()) {
      throw new IllegalArgumentException("location is empty");
    }
  }

  /** The table at {@code location}, its format detected, CSV defaults, its schema inferred. */
  public static FileTableSpec of(String location) {
    return new FileTableSpec(location, Optional.empty(), CsvOptions.DEFAULT, Optional.empty());
  }

  public FileTableSpec withFormat(FileFormat value) {
    return new FileTableSpec(location, Optional.of(value), csv, schema);
  }

  public FileTableSpec withCsv(CsvOptions value) {
    return new FileTableSpec(location, format, value, schema);
  }

  public FileTableSpec withSchema(Schema value) {
    return new FileTableSpec(location, format, csv, Optional.of(value));
  }

  /**
   * Resolves the files and schema now (see {@link FileTable#open}).
   *
   * @throws dev.quiver.error.QuiverException if the location does not exist, holds no data files or
   *     files that disagree with each other or with the declared schema
   */
  public FileTable open() {
    return FileTable.open(location, format, csv, schema);
  }

  /** This description as scan options (see {@link FileTableOptions#encode}). */
  public Map<String, String> toOptions() {
    return FileTableOptions.encode(this);
  }
}
