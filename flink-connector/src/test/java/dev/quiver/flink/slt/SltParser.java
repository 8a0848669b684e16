package dev.quiver.flink.slt;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the text of a {@code .slt} file into {@link SltRecord}s (the format is described in {@code
 * src/test/resources/slt/README.md}). Records are separated by blank lines; {@code #} lines between
 * records are comments; {@code skipif} lines directly above a record apply to it. A malformed file
 * fails with its file and line, before anything runs.
 */
final class SltParser {
  private static final Pattern TABLE =
      Pattern.compile("table\\s+(\\w+)\\s*\\((.*)\\)\\s*", Pattern.CASE_INSENSITIVE);
  private static final Pattern QUERY = Pattern.compile("query\\s+([A-Z]+)(?:\\s+(\\w+))?\\s*");
  private static final Pattern STATEMENT_ERROR = Pattern.compile("statement\\s+error\\s+(.+)");
  private static final Pattern SKIPIF = Pattern.compile("skipif\\s+(\\w+)\\s+(.+)");
  private static final String RESULTS = "----";
  private static final Set<String> ENGINES = Set.of("quiver", "duckdb");
  private static final String TYPE_LETTERS = "IRNTBDP"; // see ResultText.letter

  private final String file;
  private final List<String> lines;
  private int next; // index of the next unread line

  private SltParser(String file, String text) {
    this.file = requireNonNull(file, "file is null");
    this.lines = requireNonNull(text, "text is null").lines().toList();
  }

  /** The records of {@code text}, read from the file named {@code file}. */
  static List<SltRecord> parse(String file, String text) {
    return new SltParser(file, text).records();
  }

  private List<SltRecord> records() {
    List<SltRecord> records = new ArrayList<>();
    while (next < lines.size()) {
      String line = lines.get(next);
      if (line.isBlank() || line.startsWith("#")) {
        next++;
        continue;
      }
      records.add(record());
    }
    return records;
  }

  private SltRecord record() {
    Map<String, String> skips = new LinkedHashMap<>();
    Matcher skip;
    while (next < lines.size() && (skip = SKIPIF.matcher(lines.get(next).strip())).matches()) {
      if (!ENGINES.contains(skip.group(1))) {
        throw error(next, "skipif names an unknown engine " + skip.group(1) + ": " + ENGINES);
      }
      if (skips.put(skip.group(1), skip.group(2).strip()) != null) {
        throw error(next, "a second skipif for " + skip.group(1));
      }
      next++;
    }
    if (next < lines.size() && lines.get(next).startsWith("skipif")) {
      throw error(next, "skipif needs an engine and a reason: skipif quiver <why>");
    }
    if (next == lines.size() || lines.get(next).isBlank()) {
      throw error(next - 1, "skipif must be directly followed by the record it skips");
    }
    int header = next++;
    String text = lines.get(header).strip();
    SltRecord.Location location = new SltRecord.Location(file, header + 1);
    Matcher matcher;
    if ((matcher = TABLE.matcher(text)).matches()) {
      List<TableColumn> columns = columns(header, matcher.group(2));
      return new SltRecord.Table(location, skips, matcher.group(1), columns, rows(columns));
    }
    if ((matcher = QUERY.matcher(text)).matches()) {
      if (!matcher.group(1).matches("[" + TYPE_LETTERS + "]+")) {
        throw error(header, "type letters are " + TYPE_LETTERS + ": " + matcher.group(1));
      }
      String mode = matcher.group(2) == null ? "nosort" : matcher.group(2);
      if (!mode.equals("rowsort") && !mode.equals("nosort")) {
        throw error(header, "unknown sort mode " + mode + " (rowsort or nosort)");
      }
      String sql = sql(header, true);
      List<String> expected = new ArrayList<>();
      if (next < lines.size() && lines.get(next).equals(RESULTS)) {
        next++;
        while (next < lines.size() && !lines.get(next).isBlank()) {
          expected.add(lines.get(next++).stripTrailing());
        }
      }
      return new SltRecord.Query(
          location, skips, matcher.group(1), mode.equals("rowsort"), sql, expected);
    }
    if ((matcher = STATEMENT_ERROR.matcher(text)).matches()) {
      return new SltRecord.StatementError(
          location, skips, matcher.group(1).strip(), sql(header, false));
    }
    throw error(header, "expected table, query, statement error or skipif: " + text);
  }

  /** The SQL lines after {@code header}, up to a blank line (or {@code ----} for a query). */
  private String sql(int header, boolean query) {
    List<String> sql = new ArrayList<>();
    while (next < lines.size()
        && !lines.get(next).isBlank()
        && !(query && lines.get(next).equals(RESULTS))) {
      sql.add(lines.get(next++));
    }
    if (sql.isEmpty()) {
      throw error(header, "the record has no SQL");
    }
    return String.join("\n", sql);
  }

  private List<TableColumn> columns(int header, String declaration) {
    List<TableColumn> columns = new ArrayList<>();
    for (String column : splitOutsideParentheses(declaration)) {
      String[] parts = column.strip().split("\\s+", 2);
      if (parts.length != 2) {
        throw error(header, "a column needs a name and a type: " + column.strip());
      }
      try {
        columns.add(TableColumn.of(parts[0], parts[1]));
      } catch (IllegalArgumentException e) {
        throw error(header, e.getMessage());
      }
    }
    return columns;
  }

  private List<List<Object>> rows(List<TableColumn> columns) {
    List<List<Object>> rows = new ArrayList<>();
    while (next < lines.size() && !lines.get(next).isBlank()) {
      int line = next++;
      List<Cells.Cell> cells = Cells.split(lines.get(line));
      if (cells.size() != columns.size()) {
        throw error(line, cells.size() + " values for " + columns.size() + " columns");
      }
      List<Object> row = new ArrayList<>(cells.size());
      for (int c = 0; c < cells.size(); c++) {
        try {
          row.add(columns.get(c).parse(cells.get(c).text(), cells.get(c).quoted()));
        } catch (RuntimeException e) {
          throw error(line, "column " + columns.get(c).name() + ": " + e.getMessage());
        }
      }
      rows.add(row);
    }
    return rows;
  }

  private static List<String> splitOutsideParentheses(String text) {
    List<String> parts = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (c == ',' && depth == 0) {
        parts.add(text.substring(start, i));
        start = i + 1;
      }
    }
    parts.add(text.substring(start));
    return parts;
  }

  private IllegalArgumentException error(int index, String message) {
    return new IllegalArgumentException(file + ":" + (index + 1) + ": " + message);
  }
}
