package dev.quiver.cli.tpch;

import io.trino.tpch.TpchTable;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Statement;

/** DuckDB views over generated TPC-H Parquet data, so that DuckDB answers the same queries. */
public final class TpchDuckDbViews {
  private TpchDuckDbViews() {}

  /** One view per TPC-H table over {@code dir/<table>/*.parquet}. */
  public static void create(Statement duckdb, Path dir) throws SQLException {
    for (TpchTable<?> table : TpchTable.getTables()) {
      String name = table.getTableName();
      duckdb.execute(
          "create view "
              + name
              + " as select * from read_parquet('"
              + dir.resolve(name).resolve("*.parquet")
              + "')");
    }
  }
}
