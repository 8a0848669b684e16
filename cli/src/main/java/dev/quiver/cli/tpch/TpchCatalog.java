package dev.quiver.cli.tpch;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.session.QuiverSession;
import dev.quiver.sql.CatalogTable;
import io.trino.tpch.TpchTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Registers a generated TPC-H data set ({@code DIR/<table>/…}) in a session, with the primary keys
 * the specification declares (as NOT ENFORCED unique keys: they let the optimizer see that a join
 * on a key does not multiply rows).
 */
public final class TpchCatalog {
  private TpchCatalog() {}

  /** Registers the eight tables of {@code dir}; each must exist. */
  public static List<CatalogTable> register(QuiverSession session, Path dir) {
    requireNonNull(session, "session is null");
    List<CatalogTable> tables = new ArrayList<>();
    for (TpchTable<?> table : TpchTable.getTables()) {
      Path location = dir.resolve(table.getTableName());
      if (!Files.isDirectory(location)) {
        throw new IllegalArgumentException(
            "no TPC-H table " + table.getTableName() + " in " + dir + "; generate it first");
      }
      CatalogTable registered = session.registerTable(table.getTableName(), location.toString());
      tables.add(session.register(registered.withUniqueKeys(List.of(primaryKey(table)))));
    }
    return tables;
  }

  /** The primary key columns (indexes) of {@code table} per the TPC-H specification. */
  static List<Integer> primaryKey(TpchTable<?> table) {
    switch (table.getTableName()) {
      case "partsupp":
        return List.of(0, 1); // ps_partkey, ps_suppkey
      case "lineitem":
        return List.of(0, 3); // l_orderkey, l_linenumber
      default:
        return List.of(0); // the first column: p_partkey, s_suppkey, c_custkey, ...
    }
  }
}
