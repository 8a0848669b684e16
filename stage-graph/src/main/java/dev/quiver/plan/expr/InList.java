package dev.quiver.plan.expr;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.plan.type.SqlType;
import dev.quiver.plan.type.TypeRules;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * {@code value [NOT] IN (item, ...)} with SQL semantics: TRUE if the value equals an item; else
 * NULL if the value or any item is NULL; else FALSE (NOT IN negates that three-valued result). The
 * value and the items are compared in their {@linkplain #operandType() common type}.
 */
public final class InList implements Expr {
  private static final long serialVersionUID = 1L;

  private final Expr value;
  private final List<Expr> items;
  private final boolean negated;
  private final SqlType operandType;

  public InList(Expr value, List<Expr> items, boolean negated) {
    this.value = requireNonNull(value, "value is null");
    this.items = List.copyOf(requireNonNull(items, "items is null"));
    this.negated = negated;
    if (this.items.isEmpty()) {
      throw new IllegalArgumentException("IN needs at least one item");
    }
    SqlType common = value.sqlType();
    for (Expr item : this.items) {
      common = common == null ? null : TypeRules.commonType(common, item.sqlType());
    }
    if (common == null || common.isInterval()) {
      throw new QuiverException(
          ErrorCode.UNSUPPORTED_TYPE, "IN cannot compare " + value + " with " + this.items);
    }
    this.operandType = common;
  }

  public Expr value() {
    return value;
  }

  public List<Expr> items() {
    return items;
  }

  public boolean negated() {
    return negated;
  }

  /** The type the value and every item convert to before comparing. */
  public SqlType operandType() {
    return operandType;
  }

  @Override
  public SqlType sqlType() {
    return SqlType.BOOLEAN;
  }

  @Override
  public boolean nullable() {
    return value.nullable() || items.stream().anyMatch(Expr::nullable);
  }

  @Override
  public List<Expr> children() {
    List<Expr> children = new ArrayList<>(items.size() + 1);
    children.add(value);
    children.addAll(items);
    return children;
  }

  @Override
  public <R> R accept(ExprVisitor<R> visitor) {
    return visitor.visitInList(this);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof InList
        && value.equals(((InList) other).value)
        && items.equals(((InList) other).items)
        && negated == ((InList) other).negated;
  }

  @Override
  public int hashCode() {
    return Objects.hash(value, items, negated);
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder().append(value).append(negated ? " NOT IN (" : " IN (");
    for (int i = 0; i < items.size(); i++) {
      text.append(i == 0 ? "" : ", ").append(items.get(i));
    }
    return text.append(')').toString();
  }
}
