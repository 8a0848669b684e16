package dev.quiver.benchmarks.run;

import dev.quiver.cli.tpch.ResultComparison;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.List;

/**
 * DuckDB through JDBC, in memory, {@code SET threads = parallelism}: one view per table over {@code
 * read_parquet('DIR/<table>/*.parquet')}, so it reads the very files the other engines read on
 * every query. Its answers are the reference the others are checked against.
 */
final class DuckDbEngine implements Engine {
  private final Connection connection;
  private volatile Statement running;

  DuckDbEngine(BenchmarkOptions options, Workload workload) throws SQLException {
    this(options.data(), options.parallelism(), workload.tables().keySet());
  }

  DuckDbEngine(Path data, int threads, Collection<String> tables) throws SQLException {
    connection = DriverManager.getConnection("jdbc:duckdb:");
    try (Statement statement = connection.createStatement()) {
      statement.execute("SET threads = " + threads);
      for (String table : tables) {
        createView(statement, table, data.resolve(table));
      }
    } catch (SQLException | RuntimeException e) {
      connection.close();
      throw e;
    }
  }

  /** Declares {@code name} as a view over the Parquet files of {@code dir}. */
  void createView(String name, Path dir) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      createView(statement, name, dir);
    }
  }

  private static void createView(Statement statement, String name, Path dir) throws SQLException {
    String glob = dir.resolve("*.parquet").toString().replace("'", "''");
    statement.execute(
        "CREATE OR REPLACE VIEW " + name + " AS SELECT * FROM read_parquet('" + glob + "')");
  }

  @Override
  public Kind kind() {
    return Kind.DUCKDB;
  }

  @Override
  public List<List<Object>> execute(String sql) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      running = statement;
      try (ResultSet rs = statement.executeQuery(sql)) {
        return ResultComparison.rows(rs);
      } finally {
        running = null;
      }
    }
  }

  @Override
  public void cancel() {
    Statement statement = running;
    if (statement != null) {
      try {
        statement.cancel();
      } catch (SQLException e) {
        System.out.println("  cannot cancel the DuckDB query: " + e.getMessage());
      }
    }
  }

  @Override
  public void close() throws SQLException {
    connection.close();
  }
}
