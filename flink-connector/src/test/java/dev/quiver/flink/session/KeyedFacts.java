package dev.quiver.flink.session;

import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Statement;

/** The fact table of the join tests: written with DuckDB, read by both engines. */
final class KeyedFacts {
  private KeyedFacts() {}

  /**
   * Writes {@code file}: 200,000 rows {@code (x BIGINT, k INTEGER)}, {@code x} = 0..199,999, keys
   * 0..4999 (forty rows each), every 97th key NULL; row groups of 16,384 rows.
   */
  static void write(Statement duckDb, Path file) throws SQLException {
    duckDb.execute(
        "COPY (SELECT i::BIGINT AS x, CASE WHEN i % 97 = 0 THEN NULL ELSE (i % 5000)::INTEGER END"
            + " AS k FROM range(200000) r(i)) TO '"
            + file
            + "' (FORMAT PARQUET, ROW_GROUP_SIZE 16384)");
  }
}
