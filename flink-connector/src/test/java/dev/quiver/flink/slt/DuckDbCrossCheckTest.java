package dev.quiver.flink.slt;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A check of the {@code .slt} files' expected rows against DuckDB, part of the suite (so CI
 * cross-checks every record); run alone with {@code mvn test -pl flink-connector -am
 * -Dtest=DuckDbCrossCheckTest -Dsurefire.failIfNoSpecifiedTests=false}. Each file gets a fresh
 * in-memory database with its tables, DuckDB's defaults set to Calcite's where they differ (NULLS
 * LAST ascending and FIRST descending; integer {@code /}), and records marked {@code skipif duckdb}
 * are left out.
 *
 * <p>Values are compared leniently, as numbers where both sides are numbers (DuckDB's decimal
 * scales and result types differ from Calcite's; the Quiver run checks those exactly), and a DuckDB
 * timestamp at midnight counts as its date (DuckDB's {@code date + interval} is a timestamp).
 * Statements that must fail are reported when DuckDB does not fail, but do not fail the check
 * (DuckDB's {@code 1 / 0} is NULL, for one). Prints DuckDB's rows for every mismatch.
 */
class DuckDbCrossCheckTest {
  private static final MathContext DIGITS = new MathContext(12);

  @Test
  void expectedRowsAgreeWithDuckDb() throws Exception {
    List<String> mismatches = new ArrayList<>();
    int queries = 0;
    for (Map.Entry<String, List<SltRecord>> file : SltFiles.all().entrySet()) {
      try (Connection duckdb = DriverManager.getConnection("jdbc:duckdb:")) {
        execute(duckdb, "SET default_null_order = 'NULLS_LAST_ON_ASC_FIRST_ON_DESC'");
        execute(duckdb, "SET integer_division = true");
        for (SltRecord record : file.getValue()) {
          if (record.skipReason("duckdb").isPresent()) {
            continue;
          }
          if (record instanceof SltRecord.Table table) {
            create(duckdb, table);
          } else if (record instanceof SltRecord.Query query) {
            queries++;
            check(duckdb, query).ifPresent(mismatches::add);
          } else if (record instanceof SltRecord.StatementError statement) {
            checkError(duckdb, statement);
          }
        }
      }
    }
    System.out.println(
        "DuckDB cross-check: " + queries + " queries, " + mismatches.size() + " mismatches");
    if (!mismatches.isEmpty()) {
      throw new AssertionError(String.join("\n\n", mismatches));
    }
  }

  private static Optional<String> check(Connection duckdb, SltRecord.Query query) {
    List<String> actual;
    try {
      actual = ResultText.lines(rows(duckdb, query.sql(), query.types()));
    } catch (SQLException e) {
      return Optional.of(query.location() + ": DuckDB fails: " + e.getMessage());
    }
    List<String> expected = lenient(query.expected());
    List<String> duck = lenient(actual);
    if (query.rowsort()) {
      expected.sort(null);
      duck.sort(null);
    }
    if (expected.equals(duck)) {
      return Optional.empty();
    }
    List<String> shown = new ArrayList<>(actual);
    if (query.rowsort()) {
      shown.sort(null);
    }
    return Optional.of(
        query.location()
            + ": DuckDB differs\n"
            + query.sql()
            + "\n----\n"
            + String.join("\n", shown));
  }

  private static void checkError(Connection duckdb, SltRecord.StatementError statement) {
    try {
      List<String> rows = ResultText.lines(rows(duckdb, statement.sql(), ""));
      System.out.println(
          statement.location() + ": DuckDB does not fail: " + String.join(" | ", rows));
    } catch (SQLException e) {
      // as expected; the message is Quiver's business
    }
  }

  /** Each line with every number token written as its value (12 significant digits). */
  private static List<String> lenient(List<String> lines) {
    List<String> normalized = new ArrayList<>();
    for (String line : lines) {
      normalized.add(
          Arrays.stream(line.split(" ", -1))
              .map(DuckDbCrossCheckTest::lenientToken)
              .collect(Collectors.joining(" ")));
    }
    return normalized;
  }

  private static String lenientToken(String token) {
    try {
      BigDecimal number = new BigDecimal(token).round(DIGITS).stripTrailingZeros();
      return number.signum() == 0 ? "0" : number.toPlainString();
    } catch (NumberFormatException e) {
      return token;
    }
  }

  /**
   * DuckDB's rows; a midnight TIMESTAMP reads as a DATE (DuckDB's date + interval is a timestamp)
   * except in a column the query's letters say is a timestamp ({@code P}).
   */
  private static List<List<Object>> rows(Connection duckdb, String sql, String types)
      throws SQLException {
    List<List<Object>> rows = new ArrayList<>();
    try (Statement statement = duckdb.createStatement();
        ResultSet result = statement.executeQuery(sql)) {
      int columns = result.getMetaData().getColumnCount();
      while (result.next()) {
        List<Object> row = new ArrayList<>();
        for (int c = 1; c <= columns; c++) {
          boolean timestamp = c <= types.length() && types.charAt(c - 1) == 'P';
          row.add(normalize(result.getObject(c), timestamp));
        }
        rows.add(row);
      }
    }
    return rows;
  }

  private static Object normalize(Object value, boolean keepTimestamp) {
    if (value instanceof java.sql.Date date) {
      return date.toLocalDate();
    }
    if (value instanceof java.sql.Timestamp timestamp) {
      value = timestamp.toLocalDateTime();
    }
    if (value instanceof LocalDateTime time
        && !keepTimestamp
        && time.toLocalTime().toSecondOfDay() == 0
        && time.getNano() == 0) {
      return time.toLocalDate();
    }
    if (value instanceof BigInteger integer) {
      return integer.toString();
    }
    return value;
  }

  private static void create(Connection duckdb, SltRecord.Table table) throws SQLException {
    String columns =
        table.columns().stream()
            .map(c -> c.name() + " " + c.sqlType())
            .collect(Collectors.joining(", "));
    execute(duckdb, "CREATE OR REPLACE TABLE " + table.name() + " (" + columns + ")");
    String marks = table.columns().stream().map(c -> "?").collect(Collectors.joining(", "));
    try (PreparedStatement insert =
        duckdb.prepareStatement("INSERT INTO " + table.name() + " VALUES (" + marks + ")")) {
      for (List<Object> row : table.rows()) {
        for (int c = 0; c < row.size(); c++) {
          Object value = row.get(c);
          insert.setObject(
              c + 1,
              value instanceof LocalDate date
                  ? java.sql.Date.valueOf(date)
                  : value instanceof LocalDateTime time ? java.sql.Timestamp.valueOf(time) : value);
        }
        insert.executeUpdate();
      }
    }
  }

  private static void execute(Connection duckdb, String sql) throws SQLException {
    try (Statement statement = duckdb.createStatement()) {
      statement.execute(sql);
    }
  }
}
