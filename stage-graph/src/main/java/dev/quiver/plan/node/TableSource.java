package dev.quiver.plan.node;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;
import java.util.List;

/**
 * A table a {@link Scan} reads: its name (for EXPLAIN and errors), the schema of the rows it
 * produces, and the split units that make it up. The file connector turns the units of one task
 * into batches.
 */
public final class TableSource implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String name;
  private final RowSchema schema;
  private final List<SplitUnit> units;

  public TableSource(String name, RowSchema schema, List<SplitUnit> units) {
    this.name = requireNonNull(name, "name is null");
    this.schema = requireNonNull(schema, "schema is null");
    this.units = List.copyOf(requireNonNull(units, "units is null"));
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

  /** The total size of the units in bytes. */
  public long bytes() {
    long total = 0;
    for (SplitUnit unit : units) {
      total += unit.bytes();
    }
    return total;
  }

  @Override
  public String toString() {
    return name;
  }
}
