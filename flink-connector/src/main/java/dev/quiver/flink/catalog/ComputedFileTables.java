package dev.quiver.flink.catalog;

import dev.quiver.plan.node.RowSchema;
import dev.quiver.sql.CatalogTable;
import dev.quiver.sql.TableColumns;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Bounded file tables ({@code 'connector' = 'filesystem'} without a monitor interval) with computed
 * columns: the catalog table of the files' (physical) columns, made into the declared row. Its
 * statistics are the files' (their column numbers moved to the declared positions); a scan of it
 * reads the physical columns it needs (its own and those its computed columns read) and {@link
 * FileScanSources} computes the computed ones batch by batch ({@link ComputedColumnsOperator}). A
 * filter on a computed column is not pushed into the files (the planner leaves comparisons of
 * columns that are not physical out of the scan's filter).
 */
final class ComputedFileTables {
  /** The declared schema, Arrow JSON, beside the file table's options. */
  static final String DECLARED = "quiver.declared-schema";

  private ComputedFileTables() {}

  /** {@code stored}, a table of {@code columns}' physical columns, as the table they declare. */
  static CatalogTable of(CatalogTable stored, TableColumns columns) {
    if (columns.allPhysical()) {
      return stored;
    }
    RowSchema declared = columns.schema();
    // Physical column i of the files is column position.get(i) of the declared row.
    List<Integer> position = new ArrayList<>();
    for (int c = 0; c < declared.size(); c++) {
      if (columns.columns().get(c).kind() == TableColumns.Kind.PHYSICAL) {
        position.add(c);
      }
    }
    Map<String, String> options = new LinkedHashMap<>(stored.options());
    options.putAll(columns.options());
    options.put(DECLARED, declared.toArrow().toJson());
    Map<Integer, Long> distinct = new HashMap<>();
    stored.distinctCounts().forEach((c, n) -> distinct.put(position.get(c), n));
    Map<Integer, CatalogTable.Range> ranges = new HashMap<>();
    stored.ranges().forEach((c, r) -> ranges.put(position.get(c), r));
    List<List<Integer>> keys =
        stored.uniqueKeys().stream().map(key -> key.stream().map(position::get).toList()).toList();
    return new CatalogTable(
        stored.name(),
        declared,
        stored.rowCount(),
        stored.units(),
        options,
        keys,
        distinct,
        ranges,
        stored.pruner());
  }

  /** The declared columns of a table this class made, if {@code options} are of one. */
  static Optional<TableColumns> columns(String table, Map<String, String> options) {
    String json = options.get(DECLARED);
    if (json == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(
          TableColumns.of(table, RowSchema.fromArrow(Schema.fromJSON(json)), options));
    } catch (IOException e) {
      throw new UncheckedIOException("the declared schema of " + table + " is unreadable", e);
    }
  }
}
