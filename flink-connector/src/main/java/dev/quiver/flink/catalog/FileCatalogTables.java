package dev.quiver.flink.catalog;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.formats.DistinctCounts;
import dev.quiver.formats.FileSplit;
import dev.quiver.formats.FileTable;
import dev.quiver.formats.ScanPredicate;
import dev.quiver.formats.ScanPredicates;
import dev.quiver.plan.node.Column;
import dev.quiver.plan.node.RowSchema;
import dev.quiver.plan.node.SplitUnit;
import dev.quiver.plan.type.SqlType;
import dev.quiver.sql.CatalogTable;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Describes a table stored in files to the SQL planner: a {@link CatalogTable} with the table's
 * schema, its row count from file metadata (exact for Parquet and Arrow IPC, estimated for CSV),
 * one split unit per file (and, for a scan with a pushed-down filter, one per file that filter does
 * not rule out by Parquet statistics), distinct-value bounds of numeric and date columns from
 * Parquet min/max statistics ({@link DistinctCounts}, for join-size estimates), and options that
 * say how to open it again at run time ({@link FileTableOptions}, read back by {@link
 * FileScanSources}).
 *
 * <p>The files are resolved once, here: the catalog is a snapshot, and a query reads the files it
 * was planned with. Register the table again to see files added since.
 *
 * <p>A column whose type Quiver cannot compute with (binary, lists, structs, times, ...) is left
 * out of the catalog schema with a warning rather than making the whole table unusable: the file
 * connector can read the other columns of such a file.
 */
public final class FileCatalogTables {
  private static final Logger LOG = LoggerFactory.getLogger(FileCatalogTables.class);

  private FileCatalogTables() {}

  /**
   * Opens the table {@code spec} describes and returns it as {@code name}.
   *
   * @throws QuiverException if the location does not exist, holds no data files, or its files
   *     disagree with each other or with the declared schema
   */
  public static CatalogTable open(String name, FileTableSpec spec) {
    requireNonNull(spec, "spec is null");
    return describe(name, spec, spec.open());
  }

  /** {@code table}, opened from {@code spec}, as the catalog table {@code name}. */
  public static CatalogTable describe(String name, FileTableSpec spec, FileTable table) {
    requireNonNull(name, "name is null");
    requireNonNull(spec, "spec is null");
    requireNonNull(table, "table is null");
    if (name.isBlank()) {
      throw new IllegalArgumentException("table name is empty");
    }
    RowSchema schema = rowSchema(name, table.files().location(), table.schema());
    List<SplitUnit> units = units(table, Optional.empty());
    // The detected format is written down, so that reopening never depends on detection again.
    FileTableSpec resolved = spec.withFormat(table.format());
    long rows = table.statistics().rows();
    Map<Integer, BigDecimal[]> bounds =
        DistinctCounts.ranges(table.format(), table.files().files(), schema);
    return new CatalogTable(name, schema, rows, units, FileTableOptions.encode(resolved))
        .withDistinctCounts(DistinctCounts.estimate(table.files().files(), schema, rows, bounds))
        .withRanges(ranges(bounds))
        .withPruner(filter -> units(table, Optional.of(ScanPredicates.of(filter))));
  }

  private static Map<Integer, CatalogTable.Range> ranges(Map<Integer, BigDecimal[]> bounds) {
    Map<Integer, CatalogTable.Range> ranges = new HashMap<>();
    bounds.forEach(
        (column, range) ->
            ranges.put(
                column, new CatalogTable.Range(range[0].doubleValue(), range[1].doubleValue())));
    return ranges;
  }

  /**
   * One unit per file that may hold rows satisfying {@code predicate}: Parquet files none of whose
   * row groups can match are left out, and a file weighs only its possibly matching row groups, so
   * tasks are balanced by the bytes they will read. Footers are read again (the catalog keeps no
   * row-group statistics), which costs one small read per Parquet file and planned scan.
   */
  private static List<SplitUnit> units(FileTable table, Optional<ScanPredicate> predicate) {
    List<SplitUnit> units = new ArrayList<>();
    for (FileSplit split : table.splits(predicate)) {
      units.add(SplitUnit.file(split.path(), split.bytes(), split.rows()));
    }
    return units;
  }

  /**
   * The columns of a file table that SQL can see: every column of {@code fileSchema} with a Quiver
   * type, in file order.
   *
   * @throws QuiverException {@link ErrorCode#UNSUPPORTED_TYPE} if no column is left
   */
  public static RowSchema rowSchema(String name, String location, Schema fileSchema) {
    List<Column> columns = new ArrayList<>();
    List<String> skipped = new ArrayList<>();
    for (Field field : fileSchema.getFields()) {
      Optional<Column> column = column(field);
      if (column.isPresent()) {
        columns.add(column.get());
      } else {
        skipped.add(field.getName() + " " + field.getType());
      }
    }
    if (!skipped.isEmpty()) {
      LOG.warn(
          "Table '{}' ({}): columns of types Quiver cannot query are left out: {}",
          name,
          location,
          skipped);
    }
    if (columns.isEmpty()) {
      throw new QuiverException(
          ErrorCode.UNSUPPORTED_TYPE,
          "Table '"
              + name
              + "' ("
              + location
              + ") has no column of a type Quiver can query: "
              + skipped);
    }
    return new RowSchema(columns);
  }

  /** The column of {@code field}, or empty if its type has no Quiver counterpart. */
  static Optional<Column> column(Field field) {
    if (field.getDictionary() != null) {
      return Optional.empty(); // the file reader normalizes every dictionary it can read
    }
    try {
      Column column = Column.fromArrow(field);
      // Intervals are values of expressions only: no file reader produces them.
      boolean interval =
          column.type().kind() == SqlType.Kind.INTERVAL_DAY_TIME
              || column.type().kind() == SqlType.Kind.INTERVAL_YEAR_MONTH;
      return interval ? Optional.empty() : Optional.of(column);
    } catch (QuiverException e) {
      if (e.code() != ErrorCode.UNSUPPORTED_TYPE) {
        throw e;
      }
      return Optional.empty();
    }
  }
}
