package dev.quiver.flink.session;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The reference answers of SQL correctness tests: DuckDB (in-process, through JDBC) runs the same
 * query on the same files, and rows are compared after normalizing each engine's Java types.
 */
final class DuckDbReference implements AutoCloseable {
  // Two engines add doubles in different orders; 12 digits hide that and nothing else here.
  private static final MathContext DIGITS = new MathContext(12);

  private final Connection connection;

  DuckDbReference() throws SQLException {
    this.connection = DriverManager.getConnection("jdbc:duckdb:");
  }

  /**
   * Makes {@code name} a DuckDB view of {@code source}, e.g. {@code read_parquet('/d/*.parquet')}.
   */
  void view(String name, String source) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE OR REPLACE VIEW " + name + " AS SELECT * FROM " + source);
    }
  }

  /** DuckDB's rows of {@code sql}, normalized (see {@link #normalize}). */
  List<List<Object>> rows(String sql) throws SQLException {
    List<List<Object>> rows = new ArrayList<>();
    try (Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery(sql)) {
      int columns = result.getMetaData().getColumnCount();
      while (result.next()) {
        List<Object> row = new ArrayList<>(columns);
        for (int c = 1; c <= columns; c++) {
          row.add(result.getObject(c));
        }
        rows.add(row);
      }
    }
    return normalize(rows);
  }

  /**
   * Rows whose values compare equal across engines: every number as a BigDecimal without trailing
   * zeros (floating-point values rounded to 12 significant digits), dates as LocalDate.
   */
  static List<List<Object>> normalize(List<List<Object>> rows) {
    List<List<Object>> normalized = new ArrayList<>(rows.size());
    for (List<Object> row : rows) {
      List<Object> values = new ArrayList<>(row.size());
      for (Object value : row) {
        values.add(normalize(value));
      }
      normalized.add(values);
    }
    return normalized;
  }

  private static Object normalize(Object value) {
    if (value instanceof java.sql.Date date) {
      return date.toLocalDate();
    }
    if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      return new BigDecimal(d).round(DIGITS).stripTrailingZeros();
    }
    if (value instanceof BigDecimal decimal) {
      return decimal.round(DIGITS).stripTrailingZeros();
    }
    if (value instanceof BigInteger || value instanceof Number) {
      return new BigDecimal(value.toString()).stripTrailingZeros();
    }
    return value;
  }

  /** {@code rows} in a canonical order, for queries without ORDER BY. */
  static List<List<Object>> sorted(List<List<Object>> rows) {
    List<List<Object>> copy = new ArrayList<>(rows);
    copy.sort(Comparator.comparing(Object::toString));
    return copy;
  }

  @Override
  public void close() throws SQLException {
    connection.close();
  }
}
