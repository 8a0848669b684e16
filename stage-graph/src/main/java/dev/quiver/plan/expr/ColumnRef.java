package dev.quiver.plan.expr;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.type.SqlType;
import java.util.List;
import java.util.Objects;

/**
 * The value of input column {@code index}. Prints as {@code #index}, or {@code name#index} when it
 * has a name (names are for people; only the index and type matter to equality).
 */
public final class ColumnRef implements Expr {
  private static final long serialVersionUID = 1L;

  private final int index;
  private final SqlType type;
  private final boolean nullable;
  private final String name;

  public ColumnRef(int index, SqlType type, boolean nullable, String name) {
    if (index < 0) {
      throw new IllegalArgumentException("column index is negative: " + index);
    }
    this.index = index;
    this.type = requireNonNull(type, "type is null");
    this.nullable = nullable;
    this.name = name;
  }

  public int index() {
    return index;
  }

  /** The column's name, or null. */
  public String name() {
    return name;
  }

  @Override
  public SqlType sqlType() {
    return type;
  }

  @Override
  public boolean nullable() {
    return nullable;
  }

  @Override
  public List<Expr> children() {
    return List.of();
  }

  @Override
  public <R> R accept(ExprVisitor<R> visitor) {
    return visitor.visitColumn(this);
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof ColumnRef)) {
      return false;
    }
    ColumnRef that = (ColumnRef) other;
    return index == that.index && nullable == that.nullable && type.equals(that.type);
  }

  @Override
  public int hashCode() {
    return Objects.hash(index, type, nullable);
  }

  @Override
  public String toString() {
    return name == null ? "#" + index : name + "#" + index;
  }
}
