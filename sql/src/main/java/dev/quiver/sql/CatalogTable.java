package dev.quiver.sql;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.node.RowSchema;

/**
 * One table the planner can see: its schema and an estimated row count. The row count is kept here,
 * not in {@link dev.quiver.plan.node.TableSource}, because it feeds Calcite's cost model (join
 * order, broadcast decisions) before any split units exist.
 */
public record CatalogTable(String name, RowSchema schema, long rowCount) {
  public CatalogTable {
    requireNonNull(name, "name is null");
    requireNonNull(schema, "schema is null");
    if (rowCount < 0) {
      throw new IllegalArgumentException("rowCount is negative: " + rowCount);
    }
  }
}
