package dev.quiver.flink.catalog;

import static java.util.Objects.requireNonNull;

import dev.quiver.formats.CsvOptions;
import dev.quiver.formats.FileFormat;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The connector options of a table stored in files, in the manner of Flink's table options ({@code
 * 'connector' = 'file', 'location' = ..., 'format' = 'parquet'}): the keys, and the two-way mapping
 * between a {@link FileTableSpec} and the string map that a {@code TableSource} carries through
 * planning into the job. The stage graph never reads these options; {@link FileScanSources} does.
 *
 * <p>CSV options are written only for CSV tables (and tables whose format is still to be detected);
 * an absent CSV key means the default of {@link CsvOptions#DEFAULT}. A character option that is
 * present but empty means "none" (no quoting, no escape character).
 */
public final class FileTableOptions {
  /** Says which connector reads the table; its value is {@link #FILE_CONNECTOR}. */
  public static final String CONNECTOR = "connector";

  /** The value of {@link #CONNECTOR} for tables stored in files. */
  public static final String FILE_CONNECTOR = "file";

  /** The file, directory or glob the table was registered with. */
  public static final String LOCATION = "location";

  /** The file format: {@code parquet}, {@code csv} or {@code arrow_ipc}; absent means detect. */
  public static final String FORMAT = "format";

  /** The CSV field delimiter, one character. */
  public static final String CSV_DELIMITER = "csv.delimiter";

  /** Whether CSV files start with a header line: {@code true} or {@code false}. */
  public static final String CSV_HEADER = "csv.header";

  /** The CSV quote character; empty for no quoting. */
  public static final String CSV_QUOTE = "csv.quote";

  /** The CSV escape character; empty for none. */
  public static final String CSV_ESCAPE = "csv.escape";

  /** The unquoted CSV field text that means NULL. */
  public static final String CSV_NULL_STRING = "csv.null-string";

  /** A declared schema, as Arrow schema JSON; absent when the schema is inferred from files. */
  public static final String SCHEMA = "schema";

  private FileTableOptions() {}

  /** The options describing {@code spec}. */
  public static Map<String, String> encode(FileTableSpec spec) {
    requireNonNull(spec, "spec is null");
    Map<String, String> options = new LinkedHashMap<>();
    options.put(CONNECTOR, FILE_CONNECTOR);
    options.put(LOCATION, spec.location());
    spec.format().ifPresent(format -> options.put(FORMAT, format.name().toLowerCase(Locale.ROOT)));
    if (spec.format().isEmpty() || spec.format().get() == FileFormat.CSV) {
      CsvOptions csv = spec.csv();
      options.put(CSV_DELIMITER, Character.toString(csv.delimiter()));
      options.put(CSV_HEADER, Boolean.toString(csv.header()));
      options.put(CSV_QUOTE, csv.quote().map(String::valueOf).orElse(""));
      options.put(CSV_ESCAPE, csv.escape().map(String::valueOf).orElse(""));
      options.put(CSV_NULL_STRING, csv.nullString());
    }
    spec.schema().ifPresent(schema -> options.put(SCHEMA, schema.toJson()));
    return options;
  }

  /** Whether {@code options} describe a table stored in files. */
  public static boolean isFileTable(Map<String, String> options) {
    return FILE_CONNECTOR.equals(requireNonNull(options, "options is null").get(CONNECTOR));
  }

  /**
   * The table {@code options} describe, or empty when they do not describe a file table (no {@code
   * connector = file}).
   *
   * @throws IllegalArgumentException if the options say {@code connector = file} but are malformed
   */
  public static Optional<FileTableSpec> decode(Map<String, String> options) {
    if (!isFileTable(options)) {
      return Optional.empty();
    }
    String location = options.get(LOCATION);
    if (location == null || location.isBlank()) {
      throw new IllegalArgumentException("file table options without a '" + LOCATION + "'");
    }
    Optional<FileFormat> format =
        Optional.ofNullable(options.get(FORMAT)).map(FileFormat::fromName);
    return Optional.of(new FileTableSpec(location, format, csv(options), schema(options)));
  }

  private static CsvOptions csv(Map<String, String> options) {
    CsvOptions csv = CsvOptions.DEFAULT;
    String delimiter = options.get(CSV_DELIMITER);
    if (delimiter != null) {
      csv =
          csv.withDelimiter(
              character(CSV_DELIMITER, delimiter)
                  .orElseThrow(() -> new IllegalArgumentException(CSV_DELIMITER + " is empty")));
    }
    String header = options.get(CSV_HEADER);
    if (header != null) {
      if (!header.equals("true") && !header.equals("false")) {
        throw new IllegalArgumentException(CSV_HEADER + " must be true or false: '" + header + "'");
      }
      csv = csv.withHeader(Boolean.parseBoolean(header));
    }
    if (options.containsKey(CSV_QUOTE)) {
      csv = csv.withQuote(character(CSV_QUOTE, options.get(CSV_QUOTE)));
    }
    if (options.containsKey(CSV_ESCAPE)) {
      csv = csv.withEscape(character(CSV_ESCAPE, options.get(CSV_ESCAPE)));
    }
    String nullString = options.get(CSV_NULL_STRING);
    return nullString == null ? csv : csv.withNullString(nullString);
  }

  private static Optional<Character> character(String key, String value) {
    if (value.isEmpty()) {
      return Optional.empty();
    }
    if (value.length() != 1) {
      throw new IllegalArgumentException(key + " must be one character: '" + value + "'");
    }
    return Optional.of(value.charAt(0));
  }

  private static Optional<Schema> schema(Map<String, String> options) {
    String json = options.get(SCHEMA);
    if (json == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(Schema.fromJSON(json));
    } catch (IOException e) {
      throw new IllegalArgumentException("the '" + SCHEMA + "' option is not Arrow schema JSON", e);
    }
  }
}
