package dev.quiver.examples.cluster;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a result written as CSV (with a header) back into rows comparable with a reference answer:
 * DuckDB splits the file(s) into text fields, and each field is parsed as the type of its column in
 * the reference (a decimal as {@link BigDecimal} with the written scale, a date, an integer), so
 * the comparison checks the text Quiver wrote rather than a reader's type guesses.
 */
final class CsvAnswers {
  private CsvAnswers() {}

  /** The rows of the CSV file(s) {@code files} (a path or glob), typed like {@code reference}. */
  static List<List<Object>> read(Connection duckdb, Path files, List<List<Object>> reference)
      throws SQLException {
    List<List<Object>> rows = new ArrayList<>();
    String sql =
        "select * from read_csv('"
            + files.toString().replace("'", "''")
            + "', header = true, all_varchar = true)";
    try (Statement statement = duckdb.createStatement();
        ResultSet rs = statement.executeQuery(sql)) {
      int columns = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        List<Object> row = new ArrayList<>();
        for (int c = 0; c < columns; c++) {
          row.add(parse(rs.getString(c + 1), like(reference, c)));
        }
        rows.add(row);
      }
    }
    return rows;
  }

  /** The first non-null value of column {@code c} in {@code rows}, or null. */
  private static Object like(List<List<Object>> rows, int c) {
    for (List<Object> row : rows) {
      if (c < row.size() && row.get(c) != null) {
        return row.get(c);
      }
    }
    return null;
  }

  private static Object parse(String text, Object like) {
    if (text == null || like == null) {
      return text;
    }
    if (like instanceof BigDecimal) {
      return new BigDecimal(text);
    }
    if (like instanceof Long) {
      return Long.valueOf(text);
    }
    if (like instanceof Double) {
      return Double.valueOf(text);
    }
    if (like instanceof LocalDate) {
      return LocalDate.parse(text);
    }
    if (like instanceof Boolean) {
      return Boolean.valueOf(text);
    }
    return text;
  }
}
