package dev.quiver.plan.node;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.expr.Literal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Literal rows (SQL {@code VALUES}) in one partition. Each value is a typed {@link Literal} of its
 * column's type, so the rows are serializable and checked when the node is built; the operator
 * factory hands {@link Literal#value()} to the values operator.
 */
public final class Values extends LeafNode {
  private static final long serialVersionUID = 1L;

  private final List<List<Literal>> rows;

  public Values(RowSchema schema, List<List<Literal>> rows) {
    super(schema, Partitioning.single(), List.of());
    requireNonNull(rows, "rows is null");
    List<List<Literal>> copy = new ArrayList<>(rows.size());
    for (int r = 0; r < rows.size(); r++) {
      List<Literal> row = requireNonNull(rows.get(r), "row is null");
      PlanChecks.check(
          row.size() == schema.size(),
          "Values",
          "row " + r + " has " + row.size() + " values, the schema " + schema.size() + " columns");
      for (int c = 0; c < row.size(); c++) {
        Literal value = requireNonNull(row.get(c), "value is null");
        Column column = schema.column(c);
        if (!value.sqlType().equals(column.type())) {
          throw PlanChecks.mismatch(
              "Values: row "
                  + r
                  + " has "
                  + value
                  + " of type "
                  + value.sqlType()
                  + " for "
                  + column);
        }
        if (value.isNull() && !column.nullable()) {
          throw PlanChecks.mismatch("Values: row " + r + " has NULL for " + column);
        }
      }
      copy.add(List.copyOf(row));
    }
    this.rows = List.copyOf(copy);
  }

  /** Rows of plain Java values, each converted to a literal of its column's type. */
  public static Values of(RowSchema schema, List<List<Object>> rows) {
    requireNonNull(schema, "schema is null");
    requireNonNull(rows, "rows is null");
    List<List<Literal>> literals = new ArrayList<>(rows.size());
    for (int r = 0; r < rows.size(); r++) {
      List<Object> row = requireNonNull(rows.get(r), "row is null");
      PlanChecks.check(
          row.size() == schema.size(),
          "Values",
          "row " + r + " has " + row.size() + " values, the schema " + schema.size() + " columns");
      List<Literal> converted = new ArrayList<>(row.size());
      for (int c = 0; c < row.size(); c++) {
        converted.add(new Literal(row.get(c), schema.column(c).type()));
      }
      literals.add(converted);
    }
    return new Values(schema, literals);
  }

  public List<List<Literal>> rows() {
    return rows;
  }

  @Override
  protected List<Object> fields() {
    return Arrays.asList(rows);
  }

  @Override
  public <R> R accept(PlanVisitor<R> visitor) {
    return visitor.visitValues(this);
  }

  /** {@code Values[rows=3]}. */
  @Override
  public String toString() {
    return "Values[rows=" + rows.size() + "]";
  }
}
