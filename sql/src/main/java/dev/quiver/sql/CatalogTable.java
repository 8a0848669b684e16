package dev.quiver.sql;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.node.RowSchema;
import dev.quiver.plan.node.ScanFilter;
import dev.quiver.plan.node.SplitUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One table the planner can see: its schema, an estimated row count, the split units it is stored
 * in and the connector options a scan of it carries (see {@link
 * dev.quiver.plan.node.TableSource#options()}). The row count is kept here because it feeds
 * Calcite's cost model (join order, broadcast decisions) before any scan is planned. Unique keys
 * are column sets declared unique (like a primary key NOT ENFORCED: trusted, never checked); they
 * let the optimizer see that a join on them does not multiply rows; distinct counts (estimates per
 * column) let it see by how much a join on other columns does. A {@link SplitPruner} lets a scan
 * with a pushed-down filter skip units at planning time; without one, such a scan has every unit.
 */
public record CatalogTable(
    String name,
    RowSchema schema,
    long rowCount,
    List<SplitUnit> units,
    Map<String, String> options,
    List<List<Integer>> uniqueKeys,
    Map<Integer, Long> distinctCounts,
    Map<Integer, Range> ranges,
    Optional<SplitPruner> pruner) {
  /**
   * The least and greatest value of a numeric or date column (dates as days since 1970-01-01), as
   * numbers: the planner estimates how many rows a range predicate keeps from them.
   */
  public record Range(double min, double max) {
    public Range {
      if (!(min <= max)) {
        throw new IllegalArgumentException("range [" + min + ", " + max + "] is empty");
      }
    }
  }

  public CatalogTable {
    requireNonNull(name, "name is null");
    requireNonNull(schema, "schema is null");
    if (rowCount < 0) {
      throw new IllegalArgumentException("rowCount is negative: " + rowCount);
    }
    units = List.copyOf(requireNonNull(units, "units is null"));
    options = Map.copyOf(requireNonNull(options, "options is null"));
    uniqueKeys =
        requireNonNull(uniqueKeys, "uniqueKeys is null").stream().map(List::copyOf).toList();
    distinctCounts = Map.copyOf(requireNonNull(distinctCounts, "distinctCounts is null"));
    ranges = Map.copyOf(requireNonNull(ranges, "ranges is null"));
    requireNonNull(pruner, "pruner is null");
    for (int column : ranges.keySet()) {
      if (column < 0 || column >= schema.size()) {
        throw new IllegalArgumentException(
            "range of column " + column + ", which is not a column of " + name);
      }
    }
    for (int column : distinctCounts.keySet()) {
      if (column < 0 || column >= schema.size()) {
        throw new IllegalArgumentException(
            "distinct count of column " + column + ", which is not a column of " + name);
      }
    }
    for (List<Integer> key : uniqueKeys) {
      for (int column : key) {
        if (column < 0 || column >= schema.size()) {
          throw new IllegalArgumentException(
              "unique key column " + column + " is not a column of " + name);
        }
      }
    }
  }

  /** A table without declared unique keys. */
  public CatalogTable(
      String name,
      RowSchema schema,
      long rowCount,
      List<SplitUnit> units,
      Map<String, String> options) {
    this(name, schema, rowCount, units, options, List.of(), Map.of(), Map.of(), Optional.empty());
  }

  /** This table with {@code keys} declared unique (primary keys, NOT ENFORCED: trusted). */
  public CatalogTable withUniqueKeys(List<List<Integer>> keys) {
    return new CatalogTable(
        name, schema, rowCount, units, options, keys, distinctCounts, ranges, pruner);
  }

  /**
   * This table with estimated numbers of distinct values per column (column index → count; an upper
   * bound is fine). Join-size estimates use them: without one, a column is assumed to have about as
   * many distinct values as rows.
   */
  public CatalogTable withDistinctCounts(Map<Integer, Long> counts) {
    return new CatalogTable(
        name, schema, rowCount, units, options, uniqueKeys, counts, ranges, pruner);
  }

  /**
   * This table with the value ranges of some columns (column index → range). Filters estimate the
   * rows they keep from them: without one, a comparison keeps half the rows (Calcite's guess).
   */
  public CatalogTable withRanges(Map<Integer, Range> values) {
    return new CatalogTable(
        name, schema, rowCount, units, options, uniqueKeys, distinctCounts, values, pruner);
  }

  /** This table with {@code value} to skip units a scan's filter rules out. */
  public CatalogTable withPruner(SplitPruner value) {
    requireNonNull(value, "value is null");
    return new CatalogTable(
        name,
        schema,
        rowCount,
        units,
        options,
        uniqueKeys,
        distinctCounts,
        ranges,
        Optional.of(value));
  }

  /** The units a scan with {@code filter} reads: those the pruner keeps, or all of them. */
  public List<SplitUnit> units(ScanFilter filter) {
    requireNonNull(filter, "filter is null");
    return pruner.isPresent() ? List.copyOf(pruner.get().units(filter)) : units;
  }

  /** The total stored size in bytes (the sum of the units' sizes). */
  public long bytes() {
    long total = 0;
    for (SplitUnit unit : units) {
      total += unit.bytes();
    }
    return total;
  }
}
