package dev.quiver.plan.node;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The columns of a plan node's output, in order. Arrow's {@link Schema} is not {@link
 * Serializable}, and plans travel inside Flink jobs, so plans hold this small value and convert
 * with {@link #toArrow()} / {@link #fromArrow(Schema)}.
 */
public final class RowSchema implements Serializable {
  private static final long serialVersionUID = 1L;

  private final List<Column> columns;

  public RowSchema(List<Column> columns) {
    this.columns = List.copyOf(requireNonNull(columns, "columns is null"));
  }

  public static RowSchema of(Column... columns) {
    return new RowSchema(List.of(columns));
  }

  public static RowSchema fromArrow(Schema schema) {
    requireNonNull(schema, "schema is null");
    List<Column> columns = new ArrayList<>();
    for (Field field : schema.getFields()) {
      columns.add(Column.fromArrow(field));
    }
    return new RowSchema(columns);
  }

  public List<Column> columns() {
    return columns;
  }

  public Column column(int index) {
    return columns.get(index);
  }

  public int size() {
    return columns.size();
  }

  public Schema toArrow() {
    List<Field> fields = new ArrayList<>(columns.size());
    for (Column column : columns) {
      fields.add(column.toArrow());
    }
    return new Schema(fields);
  }

  /** This schema's columns followed by {@code other}'s. */
  public RowSchema concat(RowSchema other) {
    List<Column> all = new ArrayList<>(columns);
    all.addAll(other.columns);
    return new RowSchema(all);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof RowSchema && columns.equals(((RowSchema) other).columns);
  }

  @Override
  public int hashCode() {
    return columns.hashCode();
  }

  /** For example {@code (id BIGINT NOT NULL, name VARCHAR)}. */
  @Override
  public String toString() {
    return columns.stream().map(Column::toString).collect(Collectors.joining(", ", "(", ")"));
  }
}
