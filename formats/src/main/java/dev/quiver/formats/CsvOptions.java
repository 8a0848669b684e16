package dev.quiver.formats;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How CSV files are parsed.
 *
 * <p>Defaults ({@link #DEFAULT}): comma delimiter, a header line with the column names, {@code "}
 * quotes (a doubled quote inside a quoted field is a literal quote), no escape character, and the
 * empty unquoted field is NULL. A quoted empty field ({@code ""}) is always the empty string, so
 * files written by Quiver's CSV writer round-trip NULL and empty strings exactly.
 */
public final class CsvOptions implements Serializable {
  private static final long serialVersionUID = 1L;

  public static final CsvOptions DEFAULT = new CsvOptions(',', true, '"', null, "");

  private final char delimiter;
  private final boolean header;
  // Nullable rather than Optional: options travel inside Flink jobs and Optional is not
  // Serializable.
  private final Character quote;
  private final Character escape;
  private final String nullString;

  private CsvOptions(
      char delimiter, boolean header, Character quote, Character escape, String nullString) {
    if (quote != null && quote == delimiter) {
      throw new IllegalArgumentException("CSV quote and delimiter are both '" + delimiter + "'");
    }
    this.delimiter = delimiter;
    this.header = header;
    this.quote = quote;
    this.escape = escape;
    this.nullString = requireNonNull(nullString, "nullString is null");
  }

  /** The field separator. */
  public char delimiter() {
    return delimiter;
  }

  /**
   * Whether the first line holds column names. Without one the columns are named by the declared
   * schema, or {@code f0, f1, ...} when the schema is inferred.
   */
  public boolean header() {
    return header;
  }

  /** The quote character, or empty for no quoting at all. */
  public Optional<Character> quote() {
    return Optional.ofNullable(quote);
  }

  /** The escape character (e.g. backslash), or empty for none. */
  public Optional<Character> escape() {
    return Optional.ofNullable(escape);
  }

  /** The unquoted field text that means NULL, in every column. */
  public String nullString() {
    return nullString;
  }

  public CsvOptions withDelimiter(char value) {
    return new CsvOptions(value, header, quote, escape, nullString);
  }

  public CsvOptions withHeader(boolean value) {
    return new CsvOptions(delimiter, value, quote, escape, nullString);
  }

  public CsvOptions withQuote(Optional<Character> value) {
    return new CsvOptions(delimiter, header, value.orElse(null), escape, nullString);
  }

  public CsvOptions withEscape(Optional<Character> value) {
    return new CsvOptions(delimiter, header, quote, value.orElse(null), nullString);
  }

  public CsvOptions withNullString(String value) {
    return new CsvOptions(delimiter, header, quote, escape, value);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CsvOptions other
        && delimiter == other.delimiter
        && header == other.header
        && Objects.equals(quote, other.quote)
        && Objects.equals(escape, other.escape)
        && nullString.equals(other.nullString);
  }

  @Override
  public int hashCode() {
    return Objects.hash(delimiter, header, quote, escape, nullString);
  }

  @Override
  public String toString() {
    return "CsvOptions{delimiter="
        + delimiter
        + ", header="
        + header
        + ", quote="
        + quote
        + ", escape="
        + escape
        + ", null='"
        + nullString
        + "'}";
  }

  /** Arrow C++ {@code csv::ReadOptions} entries. */
  Map<String, String> readOptions() {
    Map<String, String> options = new HashMap<>();
    options.put("autogenerate_column_names", Boolean.toString(!header));
    return options;
  }

  /** Arrow C++ {@code csv::ParseOptions} entries. */
  Map<String, String> parseOptions() {
    Map<String, String> options = new HashMap<>();
    options.put("delimiter", Character.toString(delimiter));
    options.put("quoting", Boolean.toString(quote != null));
    if (quote != null) {
      options.put("quote_char", Character.toString(quote));
    }
    options.put("escaping", Boolean.toString(escape != null));
    if (escape != null) {
      options.put("escape_char", Character.toString(escape));
    }
    return options;
  }

  /** Arrow C++ {@code csv::ConvertOptions} entries (column types are set separately). */
  Map<String, String> convertOptions() {
    Map<String, String> options = new HashMap<>();
    options.put("null_values", nullString);
    // Without these a NULL string column reads back as "" and "" as NULL.
    options.put("strings_can_be_null", "true");
    options.put("quoted_strings_can_be_null", "false");
    return options;
  }
}
