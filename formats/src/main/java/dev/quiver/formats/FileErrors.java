package dev.quiver.formats;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns the errors of Arrow's native readers (plain {@link RuntimeException}s carrying Arrow C++
 * status messages, which never name the file) into {@link QuiverException}s that name the file and,
 * for CSV, the line and column.
 *
 * <p>Arrow's CSV reader reports {@code Row #N}, which is the 1-based line number in the file
 * (header included) unless quoted values span lines, and {@code column #I}, 0-based; both are
 * passed on as "line N, column I+1 (name)".
 */
final class FileErrors {
  private static final Pattern ROW = Pattern.compile("Row #(\\d+)");
  private static final Pattern ROW_PREFIX = Pattern.compile("Row #\\d+:?\\s*");
  private static final Pattern COLUMN = Pattern.compile("[Cc]olumn #(\\d+)");
  private static final Pattern CSV_DETAIL =
      Pattern.compile("(CSV parse error|CSV conversion error|The string|Expected \\d+ columns)");

  private FileErrors() {}

  /**
   * The Quiver error for {@code e}, thrown by Arrow while reading {@code path}.
   *
   * @param columns the file's column names in file order (for CSV column numbers), may be empty
   */
  static QuiverException translate(
      RuntimeException e, String path, FileFormat format, List<String> columns) {
    if (e instanceof QuiverException quiver) {
      return quiver;
    }
    String message = String.valueOf(e.getMessage());
    if (message.contains("Path does not exist") || message.contains("No such file")) {
      return new QuiverException(
          ErrorCode.FILE_NOT_FOUND, "File " + path + " does not exist (was it deleted?)", e);
    }
    if (format == FileFormat.CSV && (message.contains("CSV") || ROW.matcher(message).find())) {
      return new QuiverException(ErrorCode.MALFORMED_ROW, csvMessage(message, path, columns), e);
    }
    // Arrow converts each file to the table schema; a declared type the data does not fit fails.
    if (message.contains("Unsupported cast")
        || message.contains("cast from")
        || message.contains("Failed to parse string")) {
      return new QuiverException(
          ErrorCode.SCHEMA_MISMATCH,
          "File " + path + " does not fit the table schema: " + lastPart(message),
          e);
    }
    return new QuiverException(
        ErrorCode.INVALID_FILE,
        "Cannot read " + format + " file " + path + ": " + lastPart(message),
        e);
  }

  private static String csvMessage(String message, String path, List<String> columns) {
    StringBuilder out = new StringBuilder("Malformed CSV row in ").append(path);
    Matcher row = ROW.matcher(message);
    if (row.find()) {
      out.append(", line ").append(row.group(1));
    }
    Matcher column = COLUMN.matcher(message);
    if (column.find()) {
      int index = Integer.parseInt(column.group(1));
      out.append(", column ").append(index + 1);
      if (index < columns.size()) {
        out.append(" (").append(columns.get(index)).append(')');
      }
    }
    Matcher detail = CSV_DETAIL.matcher(message);
    String reason = detail.find() ? message.substring(detail.start()) : lastPart(message);
    // "Row #N: " is already said as the line.
    reason = ROW_PREFIX.matcher(reason).replaceFirst("");
    return out.append(": ").append(reason.strip()).toString();
  }

  // Native messages nest causes as "context: context: cause"; the cause is what users need.
  private static String lastPart(String message) {
    int invalid = message.lastIndexOf("Invalid: ");
    if (invalid >= 0) {
      return message.substring(invalid + "Invalid: ".length()).strip();
    }
    int input = message.lastIndexOf("input source '");
    if (input >= 0) {
      int colon = message.indexOf("': ", input);
      if (colon >= 0) {
        return message.substring(colon + 3).strip();
      }
    }
    return message.strip();
  }
}
