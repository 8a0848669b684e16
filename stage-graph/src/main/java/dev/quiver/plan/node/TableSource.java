package dev.quiver.plan.node;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.time.EventTime;
import dev.quiver.plan.time.StreamOptions;
import java.io.Serializable;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A table a {@link Scan} reads: its name (for EXPLAIN and errors), the schema of the rows it
 * produces (possibly a subset of the stored columns: projection pushdown), the split units that
 * make it up, and the connector options that say how to read them (for files: {@code location},
 * {@code format}, CSV options), in the manner of Flink's table options. The stage graph never
 * interprets the options; the connector that turns the units of one task into batches does.
 *
 * <p>A source may carry a {@link ScanFilter} (predicate pushdown): comparisons every needed row
 * satisfies, which the connector may use to skip files and row groups. Its units are then those
 * that remain after skipping what statistics rule out at planning time, so that no task is given a
 * unit the connector would skip anyway.
 */
public final class TableSource implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String name;
  private final RowSchema schema;
  private final List<SplitUnit> units;
  private final Map<String, String> options;
  private final ScanFilter filter; // nullable: Optional is not Serializable

  /** A source without connector options (plans that tests or a custom connector read). */
  public TableSource(String name, RowSchema schema, List<SplitUnit> units) {
    this(name, schema, units, Map.of());
  }

  public TableSource(
      String name, RowSchema schema, List<SplitUnit> units, Map<String, String> options) {
    this(name, schema, units, options, null);
  }

  private TableSource(
      String name,
      RowSchema schema,
      List<SplitUnit> units,
      Map<String, String> options,
      ScanFilter filter) {
    this.name = requireNonNull(name, "name is null");
    this.schema = requireNonNull(schema, "schema is null");
    this.units = List.copyOf(requireNonNull(units, "units is null"));
    // Sorted, so that equal options print and compare alike.
    this.options =
        Collections.unmodifiableMap(new TreeMap<>(requireNonNull(options, "options is null")));
    this.filter = filter;
  }

  public String name() {
    return name;
  }

  public RowSchema schema() {
    return schema;
  }

  public List<SplitUnit> units() {
    return units;
  }

  /** The connector options (never null; empty when the source needs none). */
  public Map<String, String> options() {
    return options;
  }

  /** The option {@code key}, or null. */
  public String option(String key) {
    return options.get(key);
  }

  /** Whether the source never ends: a stream ({@link StreamOptions#isUnbounded}). */
  public boolean isUnbounded() {
    return StreamOptions.isUnbounded(options);
  }

  /** The event time of an unbounded source, if it declares one. */
  public Optional<EventTime> eventTime() {
    return StreamOptions.eventTime(options);
  }

  /** The filter the connector may skip data with, if any. */
  public Optional<ScanFilter> filter() {
    return Optional.ofNullable(filter);
  }

  /** The same table producing {@code newSchema} (a projection of the stored columns). */
  public TableSource withSchema(RowSchema newSchema) {
    return new TableSource(name, newSchema, units, options, filter);
  }

  /**
   * The same table read with {@code newFilter}, made of {@code remaining}: the units the filter
   * does not rule out (all units when the table has no statistics to skip with).
   */
  public TableSource withFilter(ScanFilter newFilter, List<SplitUnit> remaining) {
    requireNonNull(newFilter, "newFilter is null");
    for (ScanFilter.Comparison comparison : newFilter.conjuncts()) {
      if (schema.columns().stream().noneMatch(c -> c.name().equals(comparison.column()))) {
        throw new IllegalArgumentException(
            name + ": the filter " + newFilter + " names a column the scan does not read");
      }
    }
    return new TableSource(name, schema, remaining, options, newFilter);
  }

  /** The total size of the units in bytes. */
  public long bytes() {
    long total = 0;
    for (SplitUnit unit : units) {
      total += unit.bytes();
    }
    return total;
  }

  /**
   * Sources are equal when they read the same units the same way: name, schema, units, options and
   * filter (a scan of an equal source returns the same rows).
   */
  @Override
  public boolean equals(Object other) {
    if (this == other) {
      return true;
    }
    if (!(other instanceof TableSource)) {
      return false;
    }
    TableSource that = (TableSource) other;
    return name.equals(that.name)
        && schema.equals(that.schema)
        && units.equals(that.units)
        && options.equals(that.options)
        && Objects.equals(filter, that.filter);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, schema, units, options, filter);
  }

  @Override
  public String toString() {
    return name;
  }
}
